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
        // Runs of bytes that need no escape are appended whole; an escape starts and ends on a
        // scalar boundary. Escaped: what JSON requires (quote, backslash, C0 controls), and
        // what would steer a reader of the text — DEL, C1 controls, bidi controls and the line
        // and paragraph separators — as `\uXXXX` (the same string to a JSON reader).
        var value = value
        value.withUTF8 { bytes in writeEscaped(bytes, to: &out) }
        out += "\""
    }

    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout String) {
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = escapedLength(bytes, at: index)
            guard length > 0 else {
                index += 1
                continue
            }
            out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\r"): out += "\\r"
            case UInt8(ascii: "\t"): out += "\\t"
            default:
                let scalar =
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self).unicodeScalars.first?.value
                    ?? UInt32(byte)
                out += "\\u" + String(format: "%04x", scalar)
            }
            index += length
            runStart = index
        }
        out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
    }

    /// The length in bytes of the character at `index` when it is written escaped, else 0.
    @inline(__always)
    private static func escapedLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F { return 1 }
        guard byte == 0xC2 || byte == 0xD8 || byte == 0xE2, index + 1 < bytes.count else { return 0 }
        let second = bytes[index + 1]
        switch byte {
        case 0xC2: return (0x80...0x9F).contains(second) ? 2 : 0  // U+0080–009F
        case 0xD8: return second == 0x9C ? 2 : 0  // U+061C
        default:
            guard index + 2 < bytes.count else { return 0 }
            let third = bytes[index + 2]
            // U+200E–200F, U+2028–202E, U+2066–2069
            if second == 0x80, third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third) { return 3 }
            if second == 0x81, (0xA6...0xA9).contains(third) { return 3 }
            return 0
        }
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

extension JSONValue {
    /// The member `key` of an object (the first of that name); nil for anything else.
    public func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The text of a string; nil for anything else.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
