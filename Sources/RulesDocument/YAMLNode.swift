import RulesDiagnostics

/// How a scalar was written. Kept so that messages can say "quote this" and so that
/// expressions inside quoted or block scalars map back to exact file positions.
public enum ScalarStyle: String, Sendable, Hashable, Codable {
    case plain
    case singleQuoted = "single_quoted"
    case doubleQuoted = "double_quoted"
    case literal
    case folded

    /// Whether the text was quoted (so YAML could not read it as anything but text).
    public var isQuoted: Bool { self == .singleQuoted || self == .doubleQuoted }
}

/// One node of a parsed document, a plain `Sendable` value: a scalar with its style, an
/// ordered mapping, or a sequence, each with the span it covers in its file. JSON texts
/// (tool calls, bundles) produce the same nodes, JSON being a subset of YAML.
public struct YAMLNode: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        /// The scalar's text after YAML unescaping and folding; never implicitly typed.
        case scalar(String, ScalarStyle)
        /// Key/value pairs in file order. Keys are unique (duplicates are diagnosed).
        case mapping([YAMLPair])
        case sequence([YAMLNode])
    }

    public var content: Content
    /// Where the node starts and ends (end exclusive), 1-based, columns in Unicode scalars.
    public var range: SourceRange {
        get {
            SourceRange(
                start: SourceLocation(line: Int(position.0), column: Int(position.1)),
                end: SourceLocation(line: Int(position.2), column: Int(position.3)))
        }
        set { position = YAMLNode.pack(newValue) }
    }
    /// Start line, start column, end line, end column, packed: half the size of a
    /// `SourceRange`, which keeps nodes cheap to move while the tree is built.
    private var position: (UInt32, UInt32, UInt32, UInt32)
    /// Tag and anchor live behind one reference, nil for almost every node, which keeps
    /// nodes small and cheap to copy while the tree is built.
    private var properties: Properties?
    /// Whether this node is the expansion of an alias (`*name`).
    public var isAlias: Bool
    /// Whether a collection was written in flow style (`{…}` / `[…]`).
    public var isFlow: Bool

    public init(
        _ content: Content, range: SourceRange, tag: String? = nil, anchor: String? = nil,
        isAlias: Bool = false, isFlow: Bool = false
    ) {
        self.content = content
        self.position = YAMLNode.pack(range)
        self.properties = tag == nil && anchor == nil ? nil : Properties(tag: tag, anchor: anchor)
        self.isAlias = isAlias
        self.isFlow = isFlow
    }

    /// An explicit tag (`!x`, `!!str`) if the file wrote one.
    public var tag: String? { properties?.tag }

    /// The anchor name (`&name`) if the file wrote one.
    public var anchor: String? { properties?.anchor }

    private final class Properties: Sendable, Hashable {
        let tag: String?
        let anchor: String?

        init(tag: String?, anchor: String?) {
            self.tag = tag
            self.anchor = anchor
        }

        static func == (lhs: Properties, rhs: Properties) -> Bool {
            lhs.tag == rhs.tag && lhs.anchor == rhs.anchor
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(tag)
            hasher.combine(anchor)
        }
    }

    private static func pack(_ range: SourceRange) -> (UInt32, UInt32, UInt32, UInt32) {
        func clamp(_ value: Int) -> UInt32 { UInt32(Swift.max(0, Swift.min(value, Int(UInt32.max)))) }
        return (clamp(range.start.line), clamp(range.start.column), clamp(range.end.line), clamp(range.end.column))
    }

    public static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        lhs.content == rhs.content && lhs.range == rhs.range && lhs.tag == rhs.tag && lhs.anchor == rhs.anchor
            && lhs.isAlias == rhs.isAlias && lhs.isFlow == rhs.isFlow
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(content)
        hasher.combine(range)
    }

    public var start: SourceLocation { range.start }
    public var end: SourceLocation { range.end }

    /// The text of a scalar node, nil for collections.
    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The style of a scalar node, nil for collections.
    public var scalarStyle: ScalarStyle? {
        if case .scalar(_, let style) = content { return style }
        return nil
    }

    /// The pairs of a mapping node, nil otherwise.
    public var pairs: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The items of a sequence node, nil otherwise.
    public var items: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The value stored under scalar key `key` in a mapping node.
    public subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.scalar == key }?.value
    }

    /// Whether this is an empty plain scalar (YAML's null: `key:` with nothing after it).
    public var isNull: Bool {
        if case .scalar(let text, .plain) = content, tag == nil {
            return text.isEmpty || text == "~" || text == "null"
        }
        return false
    }

    /// What kind of node this is, in words for messages ("a mapping").
    public var kindDescription: String {
        switch content {
        case .scalar: isNull ? "nothing" : "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}

/// One key/value pair of a mapping.
public struct YAMLPair: Sendable, Hashable {
    public var key: YAMLNode
    public var value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// What a front end (YAML or JSON) produces for one text: its documents and every problem
/// found. When `diagnostics` holds an error, `documents` holds what was read before it and
/// must not be used as the file's content.
public struct ParsedDocuments: Sendable {
    public var documents: [YAMLNode]
    public var diagnostics: [Diagnostic]

    public init(documents: [YAMLNode], diagnostics: [Diagnostic]) {
        self.documents = documents
        self.diagnostics = diagnostics
    }

    /// Whether the text was read without errors.
    public var isClean: Bool { !diagnostics.contains { $0.severity == .error } }
}
