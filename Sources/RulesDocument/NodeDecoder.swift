import Foundation

/// A `Decoder` over a parsed JSON node tree (`JSONReader`'s output), so that a text parsed
/// and checked once is not parsed again by `JSONDecoder`. It reads JSON's rules strictly:
/// strings are quoted scalars, numbers, `true`/`false` and `null` plain ones; a whole
/// number is required where an integer is decoded. Dates are seconds since 1970, checked by
/// `dateCheck` (which names what is wrong with one it refuses). Errors are `DecodingError`s with the coding
/// path, as `JSONDecoder` gives.
public struct NodeDecoder: Sendable {
    /// Called with each date's seconds since 1970: nil accepts it, a text refuses it (the
    /// error's description, with the date's coding path).
    public var dateCheck: @Sendable (Double) -> String?
    /// Called with every other number read (integers and fractions alike): nil accepts it, a
    /// text refuses it. Input the engine does arithmetic on bounds every number here.
    public var numberCheck: @Sendable (Double) -> String?

    public init(
        dateCheck: @escaping @Sendable (Double) -> String? = { _ in nil }, numberCheck: @escaping @Sendable (Double) -> String? = { _ in nil }
    ) {
        self.dateCheck = dateCheck
        self.numberCheck = numberCheck
    }

    /// Decodes a `T` from `node`.
    public func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode) throws -> T {
        try NodeDecoding(node: node, parent: nil, key: nil, options: self).decodeValue(T.self)
    }
}

/// A coding path as a chain to the root, turned into an array only when asked (errors):
/// decoding (or encoding, `SortedJSONEncoder`) a value then costs no copy of its parents' keys.
final class CodingPathLink {
    let parent: CodingPathLink?
    let key: any CodingKey

    init(parent: CodingPathLink?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var link: CodingPathLink? = self
        while let at = link {
            keys.append(at.key)
            link = at.parent
        }
        return keys.reversed()
    }
}

/// The decoder at one node: its parent's path and its own key (none at the root). A link
/// of the chain is made once per container, for its members (`link`), not for every value:
/// most values are scalars, which need a path only to name it in an error.
private struct NodeDecoding: Decoder {
    let node: YAMLNode
    let parent: CodingPathLink?
    let key: (any CodingKey)?
    let options: NodeDecoder
    var codingPath: [any CodingKey] { link?.keys ?? [] }
    /// This node's path as a chain (made when a container of it is opened).
    var link: CodingPathLink? { key.map { CodingPathLink(parent: parent, key: $0) } ?? parent }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let pairs = node.pairs else { throw mismatch([String: Any].self, "a JSON object") }
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(pairs: pairs, decoder: self, path: link))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let items = node.items else { throw mismatch([Any].self, "a JSON array") }
        return NodeUnkeyedContainer(items: items, decoder: self, path: link)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A member of this node's container, whose path is `path` (the container's `link`).
    func child(_ node: YAMLNode, _ key: any CodingKey, path: CodingPathLink?) -> NodeDecoding {
        NodeDecoding(node: node, parent: path, key: key, options: options)
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(node.kindDescription)"))
    }

    func corrupt(_ message: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    /// The text of a plain scalar (a number, boolean or null), nil otherwise.
    var plain: String? {
        if case .scalar(let text, .plain) = node.content { return text }
        return nil
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            let seconds = try floating(plain)
            if let refusal = options.dateCheck(seconds) { throw corrupt(refusal) }
            if let date = Date(timeIntervalSince1970: seconds) as? T { return date }
        }
        return try T(from: self)
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let text = plain else { throw mismatch(T.self, "a number") }
        if let value = T(text) { return try checked(value) }
        // A whole number written with a fraction or exponent (1.0, 1e3), as JSONDecoder reads.
        guard let double = Double(text), double.isFinite, double.rounded() == double, let value = T(exactly: double) else {
            throw corrupt("the number \(text) does not fit in \(T.self)")
        }
        return try checked(value)
    }

    private func checked<T: FixedWidthInteger>(_ value: T) throws -> T {
        if let refusal = options.numberCheck(Double(value)) { throw corrupt(refusal) }
        return value
    }

    func floating(_ text: String?) throws -> Double {
        guard let text, text != "true", text != "false", text != "null", let value = Double(text), value.isFinite else {
            throw mismatch(Double.self, "a number")
        }
        return value
    }
}

extension NodeDecoding: SingleValueDecodingContainer {
    func decodeNil() -> Bool { plain == "null" }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch plain {
        case "true": return true
        case "false": return false
        default: throw mismatch(Bool.self, "true or false")
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .scalar(let text, let style) = node.content, style.isQuoted else { throw mismatch(String.self, "a string") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double { try checkedFloating() }
    func decode(_ type: Float.Type) throws -> Float { Float(try checkedFloating()) }

    private func checkedFloating() throws -> Double {
        let value = try floating(plain)
        if let refusal = options.numberCheck(value) { throw corrupt(refusal) }
        return value
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }
}

/// A JSON object's members by key.
private struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoding
    /// The members in file order; looked up by a scan (objects of a state are small) or, for
    /// large ones, through `index`.
    let pairs: [YAMLPair]
    let index: [String: Int]?
    /// The container's path, shared by its members.
    let path: CodingPathLink?

    init(pairs: [YAMLPair], decoder: NodeDecoding, path: CodingPathLink?) {
        self.pairs = pairs
        self.decoder = decoder
        self.path = path
        if pairs.count > 16 {
            var index: [String: Int] = [:]
            for (offset, pair) in pairs.enumerated() { if let key = pair.key.scalar { index[key] = offset } }
            self.index = index
        } else {
            index = nil
        }
    }

    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var allKeys: [Key] { pairs.compactMap { $0.key.scalar.flatMap(Key.init(stringValue:)) } }

    func value(_ key: Key) -> YAMLNode? {
        // The key's name made once, the pairs read in place: a scan that asked each pair's
        // key for its text and the key for its name again cost 2,700 instructions a lookup.
        let name = key.stringValue
        if let index { return index[name].map { pairs[$0].value } }
        for offset in pairs.indices {
            if case .scalar(let text, _) = pairs[offset].key.content, text == name { return pairs[offset].value }
        }
        return nil
    }

    func contains(_ key: Key) -> Bool { value(key) != nil }

    func child(_ key: Key) throws -> NodeDecoding {
        guard let node = value(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for '\(key.stringValue)'"))
        }
        return decoder.child(node, key, path: path)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(T.self) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let node = value(key) else { return nil }
        let child = decoder.child(node, key, path: path)
        return child.decodeNil() ? nil : try child.decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

/// A JSON array's items in order.
private struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let items: [YAMLNode]
    let decoder: NodeDecoding
    /// The array's path, shared by its items.
    let path: CodingPathLink?
    var currentIndex = 0

    init(items: [YAMLNode], decoder: NodeDecoding, path: CodingPathLink?) {
        self.items = items
        self.decoder = decoder
        self.path = path
    }

    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    struct Index: CodingKey {
        var intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    mutating func next() throws -> NodeDecoding {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "the array has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], Index(intValue: currentIndex), path: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.child(items[currentIndex], Index(intValue: currentIndex), path: path).decodeNil() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
