import RulesDocument

/// One features row's JSON, read straight from its bytes. A million rows are read twice per fit,
/// so this reader keeps no positions and builds no `YAMLNode`s; it accepts exactly the JSON
/// the general reader (`JSONReader`) accepts — the same grammar, valid UTF-8 in strings,
/// duplicate keys refused, nesting bounded — and says only whether the row is JSON: a row
/// is one line, and the line is what a problem names.
package enum RowJSON: Sendable {
    /// A double-quoted string, unescaped.
    case text(String)
    /// A number: its value, and the whole number it is when written as one (digits, no
    /// fraction or exponent, within `Int`).
    case number(Double, whole: Int?)
    case bool(Bool)
    case null
    case object([Pair])
    case array([RowJSON])

    /// A key of an object and its value.
    package struct Pair: Sendable {
        package var key: String
        package var value: RowJSON
    }

    /// The deepest nesting of objects and arrays a row may have (the root is level 1).
    package static let maxDepth = 8

    /// The value of `bytes`, or nil when they are not one JSON value.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> RowJSON? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer)
            reader.skipWhitespace()
            guard let value = reader.value(depth: 1) else { return nil }
            reader.skipWhitespace()
            return reader.index == buffer.count ? value : nil
        }
    }

    /// The value as text (a number as a whole number or a decimal); nil for objects and arrays.
    var scalar: String? {
        switch self {
        case .text(let text): text
        case .number(let value, let whole): whole.map(String.init) ?? "\(value)"
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        default: nil
        }
    }
    var isQuoted: Bool {
        if case .text = self { true } else { false }
    }
    var isNull: Bool {
        if case .null = self { true } else { false }
    }
    var pairs: [Pair]? {
        if case .object(let pairs) = self { pairs } else { nil }
    }
    var items: [RowJSON]? {
        if case .array(let items) = self { items } else { nil }
    }

    /// Whether `node` (the general reader's) is this value: the same strings, numbers of the
    /// same value (and whole when written as one), the same literals, keys and items in order.
    package func matches(_ node: YAMLNode) -> Bool {
        let quoted = node.scalarStyle?.isQuoted == true
        switch self {
        case .text(let text): return quoted && node.scalar == text
        case .number(let value, let whole):
            guard !quoted, let text = node.scalar, let written = Double(text), written == value || (written.isNaN && value.isNaN) else {
                return false
            }
            return whole == (text.contains { ".eE".contains($0) } ? nil : Int(text))
        case .bool(let value): return !quoted && node.scalar == (value ? "true" : "false")
        case .null: return !quoted && node.scalar == "null"
        case .array(let items):
            guard let others = node.items, others.count == items.count else { return false }
            return zip(items, others).allSatisfy { $0.matches($1) }
        case .object(let pairs):
            guard let others = node.pairs, others.count == pairs.count else { return false }
            return zip(pairs, others).allSatisfy { $0.key == $1.key.scalar && $0.value.matches($1.value) }
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }

        mutating func value(depth: Int) -> RowJSON? {
            guard let byte = current else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return depth <= RowJSON.maxDepth ? object(depth: depth) : nil
            case UInt8(ascii: "["): return depth <= RowJSON.maxDepth ? array(depth: depth) : nil
            case UInt8(ascii: "\""): return string().map(RowJSON.text)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return nil
            }
        }

        mutating func literal(_ word: StaticString, _ value: RowJSON) -> RowJSON? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        /// Digits from here, added to `mantissa` while it fits (`dropped` counts the digits that
        /// did not fit, and every one after); false when there is none.
        mutating func digits(_ mantissa: inout UInt64, _ dropped: inout Int) -> Bool {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let (tens, over) = mantissa.multipliedReportingOverflow(by: 10)
                let (next, carry) = tens.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                if dropped == 0, !over, !carry { mantissa = next } else { dropped += 1 }
                index += 1
            }
            return index > start
        }

        /// Powers of ten a double holds exactly.
        static let exact: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

        /// A number read straight from its digits when a double holds the digits and the power of
        /// ten exactly (one rounding: the value is the correctly rounded one), else from its text.
        mutating func number() -> RowJSON? {
            let start = index
            let negative = current == UInt8(ascii: "-")
            if negative { index += 1 }
            guard let lead = current, lead >= UInt8(ascii: "0"), lead <= UInt8(ascii: "9") else { return nil }
            var mantissa: UInt64 = 0
            var dropped = 0
            if lead == UInt8(ascii: "0") { index += 1 } else { _ = digits(&mantissa, &dropped) }
            var whole = dropped == 0
            var fraction = 0
            if current == UInt8(ascii: ".") {
                index += 1
                whole = false
                let before = index
                var lost = 0
                guard digits(&mantissa, &lost) else { return nil }
                fraction = index - before - lost
                dropped += lost > 0 ? 1 : 0
            }
            var exponentWritten = false
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                whole = false
                exponentWritten = true
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                var ignored: UInt64 = 0
                var none = 0
                guard digits(&ignored, &none) else { return nil }
            }
            let signed = negative ? -Double(mantissa) : Double(mantissa)
            if whole, mantissa <= UInt64(Int.max) {
                return .number(signed, whole: negative ? -Int(mantissa) : Int(mantissa))
            }
            if whole, negative, mantissa == UInt64(Int.max) + 1 { return .number(signed, whole: Int.min) }
            if dropped == 0, !exponentWritten, mantissa < 1 << 53, fraction < Self.exact.count {
                return .number(signed / Self.exact[fraction], whole: nil)
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text) else { return nil }
            return .number(value, whole: nil)
        }

        mutating func string() -> String? {
            index += 1  // the opening quote
            var run = index
            var unescaped: [UInt8] = []
            var escaped = false
            while true {
                guard let byte = current else { return nil }
                if byte == UInt8(ascii: "\"") {
                    let tail = UnsafeBufferPointer(rebasing: bytes[run..<index])
                    index += 1
                    if !escaped { return Self.text(tail) }
                    unescaped.append(contentsOf: tail)
                    return unescaped.withUnsafeBufferPointer(Self.text)
                }
                if byte < 0x20 { return nil }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                escaped = true
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                index += 1
                guard let escape = current else { return nil }
                index += 1
                switch escape {
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(code) {
                        guard current == UInt8(ascii: "\\") else { return nil }
                        index += 1
                        guard current == UInt8(ascii: "u") else { return nil }
                        index += 1
                        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    unescaped.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    guard let byte = JSONEscape.byte(escape) else { return nil }
                    unescaped.append(byte)
                }
                run = index
            }
        }

        /// Puts the key of pair `index` (`key`, not yet in `pairs` when it is the newest) in
        /// `slots`, a table open-addressed by a hash of its bytes (FNV-1a); false when an earlier
        /// pair has the same key.
        static func place(_ key: String, _ index: Int, _ pairs: [Pair], _ slots: inout [Int32]) -> Bool {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 {
                if pairs[Int(slots[slot]) - 1].key == key { return false }
                slot = (slot + 1) & mask
            }
            slots[slot] = Int32(index + 1)
            return true
        }

        /// The text of a string's bytes; nil when they are not UTF-8 (ASCII needs no check).
        static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            var ascii = true
            for byte in bytes where byte >= 0x80 {
                ascii = false
                break
            }
            return ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        }

        mutating func hex4() -> UInt32? {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current else { return nil }
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a")) + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A")) + 10
                default: return nil
                }
                code = code * 16 + digit
                index += 1
            }
            return code
        }

        mutating func array(depth: Int) -> RowJSON? {
            index += 1
            var items: [RowJSON] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(items)
                default: return nil
                }
            }
        }

        mutating func object(depth: Int) -> RowJSON? {
            index += 1
            var pairs: [Pair] = []
            // Keys of a large object by a hash of their bytes, to refuse a duplicate without
            // comparing them all: slots of pair index + 1, 0 empty.
            var slots: [Int32] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(pairs)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), let key = string() else { return nil }
                if pairs.count < 16 {
                    if pairs.contains(where: { $0.key == key }) { return nil }
                } else {
                    if slots.isEmpty {
                        slots = Array(repeating: 0, count: 256)
                        for index in pairs.indices { _ = Self.place(pairs[index].key, index, pairs, &slots) }
                    }
                    if pairs.count * 2 >= slots.count {
                        slots = Array(repeating: 0, count: slots.count * 4)
                        for index in pairs.indices { _ = Self.place(pairs[index].key, index, pairs, &slots) }
                    }
                    guard Self.place(key, pairs.count, pairs, &slots) else { return nil }
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return nil }
                index += 1
                skipWhitespace()
                guard let value = value(depth: depth + 1) else { return nil }
                pairs.append(Pair(key: key, value: value))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(pairs)
                default: return nil
                }
            }
        }
    }
}
