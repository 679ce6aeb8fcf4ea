import Foundation

/// Writes an `Encodable` value as JSON, byte for byte as Foundation's `JSONEncoder` writes it
/// with `.sortedKeys`, `.withoutEscapingSlashes` and dates as seconds since 1970:
/// - keys in the order of their UTF-8 bytes; a key encoded twice in one object (the same
///   bytes) keeps its last value;
/// - whole numbers as digits; fractions as Swift prints them, without a trailing `.0` (`1`,
///   `0.1`, `1e+20`, `1.5e-07`); a number that is not finite is an `EncodingError`;
/// - strings with `"`, `\` and the control characters below U+0020 escaped (`\n`, `\t`, `\r`,
///   `\b`, `\f`, the rest as `\u00xx`), everything else as it is (no normalisation);
/// - a value that encodes nothing as `{}`; `Data` as base64, `URL` as its absolute string.
///
/// It exists because a saved state is written at every app run: `JSONEncoder` boxed every
/// value, cast it at run time and sorted each object's keys through Unicode-aware
/// comparisons (2.5 M instructions for a state of 6 KB). The tests hold it to `JSONEncoder`'s
/// bytes on every shipped scenario's states.
public struct SortedJSONEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let root = JSONSlot()
        try JSONEncoding(slot: root, path: nil).encodeValue(value)
        var writer = JSONTextWriter()
        writer.write(root.piece ?? .object(JSONObject()))
        return Data(writer.bytes)
    }
}

/// One value of the tree being encoded. Objects and arrays are references: a container
/// handed out keeps writing into the value its parent already holds.
private enum JSONPiece {
    /// A number, `true`, `false` or `null`, as written.
    case literal(String)
    case string(String)
    case object(JSONObject)
    case array(JSONArray)
    /// A value still being encoded through an encoder of its own (`superEncoder`).
    case slot(JSONSlot)
}

private final class JSONObject {
    var pairs: [(key: String, value: JSONPiece)] = []
}

private final class JSONArray {
    var items: [JSONPiece] = []
}

private final class JSONSlot {
    var piece: JSONPiece?
}

/// The encoder at one value: the slot it fills and the path to it.
private struct JSONEncoding: Encoder, SingleValueEncodingContainer {
    let slot: JSONSlot
    let path: CodingPathLink?
    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let object) = slot.piece { return KeyedEncodingContainer(JSONKeyedContainer(object: object, path: path)) }
        let object = JSONObject()
        slot.piece = .object(object)
        return KeyedEncodingContainer(JSONKeyedContainer(object: object, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let array) = slot.piece { return JSONUnkeyedContainer(array: array, path: path) }
        let array = JSONArray()
        slot.piece = .array(array)
        return JSONUnkeyedContainer(array: array, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { slot.piece = .literal("null") }
    func encode(_ value: Bool) { slot.piece = .literal(value ? "true" : "false") }
    func encode(_ value: String) { slot.piece = .string(value) }
    func encode(_ value: Double) throws { slot.piece = .literal(try JSONNumbers.text(value, path)) }
    func encode(_ value: Float) throws { slot.piece = .literal(try JSONNumbers.text(value, path)) }
    func encode(_ value: Int) { slot.piece = .literal(String(value)) }
    func encode(_ value: Int8) { slot.piece = .literal(String(value)) }
    func encode(_ value: Int16) { slot.piece = .literal(String(value)) }
    func encode(_ value: Int32) { slot.piece = .literal(String(value)) }
    func encode(_ value: Int64) { slot.piece = .literal(String(value)) }
    func encode(_ value: UInt) { slot.piece = .literal(String(value)) }
    func encode(_ value: UInt8) { slot.piece = .literal(String(value)) }
    func encode(_ value: UInt16) { slot.piece = .literal(String(value)) }
    func encode(_ value: UInt32) { slot.piece = .literal(String(value)) }
    func encode(_ value: UInt64) { slot.piece = .literal(String(value)) }
    func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }

    /// `value` into this slot: the Foundation types `JSONEncoder` writes its own way first.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if T.self == Date.self, let date = value as? Date {
            slot.piece = .literal(try JSONNumbers.text(date.timeIntervalSince1970, path))
        } else if T.self == Data.self, let data = value as? Data {
            slot.piece = .string(data.base64EncodedString())
        } else if T.self == URL.self, let url = value as? URL {
            slot.piece = .string(url.absoluteString)
        } else {
            try value.encode(to: self)
        }
    }

    /// The piece `value` encodes to, at `key` below `path`.
    static func piece<T: Encodable>(_ value: T, path: CodingPathLink?, key: any CodingKey) throws -> JSONPiece {
        let child = JSONSlot()
        try JSONEncoding(slot: child, path: CodingPathLink(parent: path, key: key)).encodeValue(value)
        return child.piece ?? .object(JSONObject())
    }
}

private struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONObject
    let path: CodingPathLink?
    var codingPath: [any CodingKey] { path?.keys ?? [] }

    func add(_ key: Key, _ piece: JSONPiece) { object.pairs.append((key.stringValue, piece)) }

    mutating func encodeNil(forKey key: Key) { add(key, .literal("null")) }
    mutating func encode(_ value: Bool, forKey key: Key) { add(key, .literal(value ? "true" : "false")) }
    mutating func encode(_ value: String, forKey key: Key) { add(key, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(key, .literal(try JSONNumbers.text(value, path, key))) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(key, .literal(try JSONNumbers.text(value, path, key))) }
    mutating func encode(_ value: Int, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) { add(key, .literal(String(value))) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        add(key, try JSONEncoding.piece(value, path: path, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONObject()
        add(key, .object(nested))
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(object: nested, path: CodingPathLink(parent: path, key: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONArray()
        add(key, .array(nested))
        return JSONUnkeyedContainer(array: nested, path: CodingPathLink(parent: path, key: key))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: JSONKey(stringValue: "super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let slot = JSONSlot()
        object.pairs.append((key.stringValue, .slot(slot)))
        return JSONEncoding(slot: slot, path: CodingPathLink(parent: path, key: key))
    }
}

private struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let array: JSONArray
    let path: CodingPathLink?
    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var count: Int { array.items.count }
    /// The key of the next item, for its path.
    var nextKey: JSONKey { JSONKey(intValue: array.items.count) }

    mutating func encodeNil() { array.items.append(.literal("null")) }
    mutating func encode(_ value: Bool) { array.items.append(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) { array.items.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.items.append(.literal(try JSONNumbers.text(value, path, nextKey))) }
    mutating func encode(_ value: Float) throws { array.items.append(.literal(try JSONNumbers.text(value, path, nextKey))) }
    mutating func encode(_ value: Int) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: Int8) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: Int16) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: Int32) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: Int64) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: UInt) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: UInt8) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: UInt16) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: UInt32) { array.items.append(.literal(String(value))) }
    mutating func encode(_ value: UInt64) { array.items.append(.literal(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try JSONEncoding.piece(value, path: path, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONObject()
        let key = nextKey
        array.items.append(.object(nested))
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(object: nested, path: CodingPathLink(parent: path, key: key)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONArray()
        let key = nextKey
        array.items.append(.array(nested))
        return JSONUnkeyedContainer(array: nested, path: CodingPathLink(parent: path, key: key))
    }

    mutating func superEncoder() -> any Encoder {
        let slot = JSONSlot()
        let key = nextKey
        array.items.append(.slot(slot))
        return JSONEncoding(slot: slot, path: CodingPathLink(parent: path, key: key))
    }
}

/// A key made by the encoder: an array's index or `super`.
private struct JSONKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init(intValue: Int) { (stringValue, self.intValue) = ("Index \(intValue)", intValue) }
}

/// Numbers as `JSONEncoder` writes them.
private enum JSONNumbers {
    typealias Number = BinaryFloatingPoint & LosslessStringConvertible

    static func text<F: Number>(_ value: F, _ path: CodingPathLink?, _ key: (any CodingKey)? = nil) throws -> String {
        guard value.isFinite else {
            var keys = path?.keys ?? []
            if let key { keys.append(key) }
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: keys, debugDescription: "the number \(value) is not finite"))
        }
        // A whole number below 2^(significand bits + 1) — 2^53 for a Double — prints as its
        // digits (most are: dates in whole seconds, counts), which is its description without
        // the `.0`; past it the description turns to an exponent. `-0` keeps its sign.
        let exact = F(sign: .plus, exponent: F.Exponent(F.significandBitCount + 1), significand: 1)
        if value.rounded(.towardZero) == value, value.magnitude < exact, !(value == 0 && value.sign == .minus) {
            return String(Int64(value))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// The tree as text: objects' keys sorted by their UTF-8 bytes.
private struct JSONTextWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(8 * 1024) }

    mutating func write(_ piece: JSONPiece) {
        switch piece {
        case .literal(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): write(string: text)
        case .slot(let slot): write(slot.piece ?? .object(JSONObject()))
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for index in array.items.indices {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(array.items[index])
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            let pairs = object.pairs
            let order = Self.sortedByKey(pairs)
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (position, entry) in order.enumerated() {
                // Of a key written twice only the last is written.
                if position + 1 < order.count, Self.sameKey(entry, order[position + 1], pairs) { continue }
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(string: pairs[entry.index].key)
                bytes.append(UInt8(ascii: ":"))
                write(pairs[entry.index].value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A pair's place in its object: the first eight bytes of its key (big-endian, so the
    /// integers order as the bytes do) and its position.
    struct Entry {
        let prefix: UInt64
        let index: Int
    }

    /// The pairs' positions by key bytes, then by position (a key written twice keeps its
    /// order). Most keys differ in their first eight bytes: compared as one integer, with the
    /// whole keys compared only on a tie (a sort through the UTF-8 views alone cost 10,000
    /// instructions an object).
    static func sortedByKey(_ pairs: [(key: String, value: JSONPiece)]) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(pairs.count)
        for index in pairs.indices {
            var prefix: UInt64 = 0
            var shift: UInt64 = 56
            for byte in pairs[index].key.utf8.prefix(8) {
                prefix |= UInt64(byte) << shift
                shift &-= 8
            }
            entries.append(Entry(prefix: prefix, index: index))
        }
        entries.sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            let (x, y) = (pairs[a.index].key.utf8, pairs[b.index].key.utf8)
            return x.elementsEqual(y) ? a.index < b.index : x.lexicographicallyPrecedes(y)
        }
        return entries
    }

    static func sameKey(_ a: Entry, _ b: Entry, _ pairs: [(key: String, value: JSONPiece)]) -> Bool {
        a.prefix == b.prefix && pairs[a.index].key.utf8.elementsEqual(pairs[b.index].key.utf8)
    }

    /// `text` quoted: runs that need no escape copied whole.
    mutating func write(string text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: utf8[start..<index])
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
