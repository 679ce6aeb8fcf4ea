import Foundation

/// A JSON value whose objects keep their key order, written by hand so that output is
/// byte-for-byte deterministic (Foundation's encoder reorders keys between runs on Linux).
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered() == rhs.rendered()
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rendered()) }

    /// Compact JSON text: no spaces, keys in insertion order.
    public func rendered() -> String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Indented JSON text (two spaces), keys in insertion order.
    public func prettyRendered() -> String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    private func write(to out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .number(let value): out += JSONValue.formatNumber(value)
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let items):
            writeContainer(
                open: "[", close: "]", count: items.count, to: &out, indent: indent, level: level
            ) { index, out in
                items[index].write(to: &out, indent: indent, level: level + 1)
            }
        case .object(let members):
            writeContainer(
                open: "{", close: "}", count: members.count, to: &out, indent: indent, level: level
            ) { index, out in
                JSONValue.writeString(members[index].0, to: &out)
                out += indent == nil ? ":" : ": "
                members[index].1.write(to: &out, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, to out: inout String, indent: String?, level: Int,
        element: (Int, inout String) -> Void
    ) {
        out += open
        guard count > 0 else {
            out += close
            return
        }
        for index in 0..<count {
            if index > 0 { out += "," }
            if let indent {
                out += "\n" + String(repeating: indent, count: level + 1)
            }
            element(index, &out)
        }
        if let indent { out += "\n" + String(repeating: indent, count: level) }
        out += close
    }

    /// Shortest text that reads back as the same double; integral values print without a
    /// fraction (`0.5`, `3`, `1e-09`). Non-finite values have no JSON form and print `null`.
    public static func formatNumber(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int(value))
        }
        return "\(value)"
    }

    /// Writes `value` as a JSON string literal, escaping quotes, backslashes and control
    /// characters; everything else (Hangul included) is written as is.
    public static func writeString(_ value: String, to out: inout String) {
        out += "\""
        // Runs of bytes that need no escape are appended whole; every escaped byte is ASCII,
        // so each run starts and ends on a scalar boundary.
        let bytes = value.utf8
        var runStart = bytes.startIndex
        var index = runStart
        while index != bytes.endIndex {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                bytes.formIndex(after: &index)
                continue
            }
            out += value[runStart..<index]
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\r"): out += "\\r"
            case UInt8(ascii: "\t"): out += "\\t"
            default: out += "\\u" + String(format: "%04x", UInt32(byte))
            }
            bytes.formIndex(after: &index)
            runStart = index
        }
        out += value[runStart..<index]
        out += "\""
    }
}

extension JSONValue {
    /// `.string(value)` or `.null`.
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    /// `.int(value)` or `.null`.
    public static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    /// `.number(value)` or `.null`.
    public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
}
