internal import CLibYAML
import RulesDiagnostics
import RulesDocument

/// Reads YAML text into `YAMLNode` trees with positions, through libyaml's event API.
/// No C type leaves this file: libyaml's parser lives only inside one `parse` call.
public enum YAMLReader {
    /// Parses every document of `bytes` (UTF-8) and reports every problem as a diagnostic
    /// against `file`. Never traps: oversized, non-UTF-8, malformed, hostile (alias bombs,
    /// deep nesting) input all come back as diagnostics.
    public static func parse(_ bytes: [UInt8], file: String) -> ParsedDocuments {
        if bytes.count > InputLimits.maxFileBytes {
            return ParsedDocuments(documents: [], diagnostics: [YAMLDiagnostics.tooLarge(file: file, bytes: bytes.count)])
        }
        if let bad = TextChecks.firstInvalidUTF8(in: bytes) {
            return ParsedDocuments(documents: [], diagnostics: [YAMLDiagnostics.invalidUTF8(file: file, at: bad)])
        }
        var builder = TreeBuilder(file: file)
        bytes.withUnsafeBufferPointer { buffer in
            builder.run(buffer, bytes: bytes)
        }
        return ParsedDocuments(documents: builder.documents, diagnostics: builder.diagnostics)
    }

    /// Parses a Swift string (convenience for tests and in-memory rule sources).
    public static func parse(_ text: String, file: String) -> ParsedDocuments {
        parse(Array(text.utf8), file: file)
    }
}

/// A collection being built. Children of every open collection live in one shared scratch
/// array (`TreeBuilder.scratch`), so a collection is allocated once, at its exact size,
/// when it closes; growing per-collection arrays would reallocate several times each.
private struct Frame {
    var isMapping: Bool
    var start: SourceLocation
    var tag: String?
    var anchor: String?
    var isFlow: Bool
    /// Where this collection's children begin in the scratch array (mappings store keys
    /// and values alternately).
    var childStart: Int
    /// Node count of the subtree so far, expansions included (for the alias budget).
    var count = 1
    /// Built once a mapping grows large, so duplicate detection stays linear.
    var keyIndex: [String: Int]?
}

private struct TreeBuilder {
    let file: String
    var documents: [YAMLNode] = []
    var diagnostics: [Diagnostic] = []
    private var stack: [Frame] = []
    private let scratch = NodeStack()
    private var root: YAMLNode?
    private var anchors: [String: (node: YAMLNode, count: Int)] = [:]
    private var expanded = 0

    init(file: String) { self.file = file }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>, bytes: [UInt8]) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            diagnostics.append(
                YAMLDiagnostics.syntax(
                    file: file, problem: "the YAML parser could not start (out of memory)", context: nil,
                    contextLine: nil, at: .fileStart, sourceLine: nil))
            return
        }
        defer { yaml_parser_delete(&parser) }
        if let base = buffer.baseAddress {
            yaml_parser_set_input_string(&parser, base, buffer.count)
        } else {
            return  // empty file: no documents
        }
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) != 0 else {
                reportParserError(&parser, bytes: bytes)
                return
            }
            let keepGoing = handle(&event)
            let done = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            if !keepGoing || done { return }
        }
    }

    /// Returns false when the builder must stop (a limit was hit).
    private mutating func handle(_ event: inout yaml_event_t) -> Bool {
        let start = location(event.start_mark)
        let end = location(event.end_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            anchors.removeAll(keepingCapacity: true)
            expanded = 0
            root = nil
        case YAML_DOCUMENT_END_EVENT:
            documents.append(root ?? YAMLNode(.scalar("", .plain), range: SourceRange(start: start, end: start)))
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = string(scalar.value, length: scalar.length)
            let node = YAMLNode(
                .scalar(text, style(scalar.style)), range: SourceRange(start: start, end: end),
                tag: optionalString(scalar.tag), anchor: optionalString(scalar.anchor))
            return add(node, count: 1)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            return open(&event, at: start)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            return close(at: end)
        case YAML_ALIAS_EVENT:
            return alias(&event, range: SourceRange(start: start, end: end))
        default:
            break
        }
        return true
    }

    /// A sequence or mapping opens: a frame for its children (refused past the nesting limit).
    private mutating func open(_ event: inout yaml_event_t, at start: SourceLocation) -> Bool {
        let isMapping = event.type == YAML_MAPPING_START_EVENT
        guard stack.count < InputLimits.maxNestingDepth else {
            diagnostics.append(YAMLDiagnostics.tooDeep(file: file, at: start))
            return false
        }
        let tag: String?
        let anchor: String?
        let isFlow: Bool
        if isMapping {
            let data = event.data.mapping_start
            (tag, anchor) = (optionalString(data.tag), optionalString(data.anchor))
            isFlow = data.style == YAML_FLOW_MAPPING_STYLE
        } else {
            let data = event.data.sequence_start
            (tag, anchor) = (optionalString(data.tag), optionalString(data.anchor))
            isFlow = data.style == YAML_FLOW_SEQUENCE_STYLE
        }
        stack.append(
            Frame(
                isMapping: isMapping, start: start, tag: tag, anchor: anchor, isFlow: isFlow,
                childStart: scratch.count))
        return true
    }

    /// A sequence or mapping closes: its node from the children gathered since it opened.
    private mutating func close(at end: SourceLocation) -> Bool {
        guard let frame = stack.popLast() else { return true }
        // Move the children out of the scratch stack in one go (no retain/release).
        let content: YAMLNode.Content =
            frame.isMapping
            ? .mapping(scratch.movePairs(from: frame.childStart))
            : .sequence(scratch.moveNodes(from: frame.childStart))
        let node = YAMLNode(
            content, range: SourceRange(start: frame.start, end: end), tag: frame.tag, anchor: frame.anchor,
            isFlow: frame.isFlow)
        return add(node, count: frame.count)
    }

    /// An alias: its anchor's node again, counted against the expansion budget.
    private mutating func alias(_ event: inout yaml_event_t, range: SourceRange) -> Bool {
        let name = optionalString(event.data.alias.anchor) ?? ""
        guard let target = anchors[name] else {
            diagnostics.append(YAMLDiagnostics.unknownAlias(file: file, alias: name, range: range))
            return false
        }
        expanded += target.count
        guard expanded <= InputLimits.maxAliasExpansion else {
            diagnostics.append(YAMLDiagnostics.aliasBudget(file: file, alias: name, range: range))
            return false
        }
        var node = target.node
        node.isAlias = true
        node.range = range
        return add(node, count: target.count)
    }

    /// Attaches a finished node to its parent (or makes it the document root).
    private mutating func add(_ node: consuming YAMLNode, count: Int) -> Bool {
        if let anchor = node.anchor, !node.isAlias {
            anchors[anchor] = (node, count)
        }
        guard !stack.isEmpty else {
            root = node
            return true
        }
        let top = stack.count - 1
        stack[top].count += count
        let position = scratch.count - stack[top].childStart
        guard stack[top].isMapping, position % 2 == 1 else {
            scratch.append(node)  // a list item, or a mapping key waiting for its value
            return true
        }
        let keyPosition = scratch.count - 1
        if let text = scratch.scalar(at: keyPosition), let first = indexOfKey(text, inFrame: top, before: keyPosition) {
            diagnostics.append(
                YAMLDiagnostics.duplicateKey(
                    file: file, key: text, range: scratch.range(at: keyPosition), firstLine: scratch.range(at: first).start.line))
            scratch.removeLast()  // keep the first; go on to find further problems
            return true
        }
        scratch.append(node)
        if let text = scratch.scalar(at: keyPosition) {
            if stack[top].keyIndex != nil {
                stack[top].keyIndex?[text] = keyPosition
            } else if position >= 31 {
                var index: [String: Int] = [:]
                var k = stack[top].childStart
                while k < scratch.count {
                    if let key = scratch.scalar(at: k) { index[key] = k }
                    k += 2
                }
                stack[top].keyIndex = index
            }
        }
        return true
    }

    /// The scratch index of an earlier key equal to `key` in the mapping at `top`.
    private func indexOfKey(_ key: String, inFrame top: Int, before limit: Int) -> Int? {
        if let index = stack[top].keyIndex { return index[key] }
        var k = stack[top].childStart
        while k < limit {
            if scratch.hasScalar(key, at: k) { return k }
            k += 2
        }
        return nil
    }

    private mutating func reportParserError(_ parser: inout yaml_parser_t, bytes: [UInt8]) {
        let problem = parser.problem.map { String(cString: $0) } ?? "unreadable YAML"
        let context = parser.context.map { String(cString: $0) }
        var at: SourceLocation
        var contextLine: Int?
        if parser.error == YAML_READER_ERROR {
            at = TextChecks.location(ofByteOffset: parser.problem_offset, in: bytes)
        } else {
            at = location(parser.problem_mark)
            if context != nil { contextLine = Int(parser.context_mark.line) + 1 }
        }
        if at.line < 1 { at = .fileStart }
        // Lines as libyaml counts them (CRLF, CR, …), once, on this error path only.
        let lines = SourceFile(path: file, text: String(decoding: bytes, as: UTF8.self))
        diagnostics.append(
            YAMLDiagnostics.syntax(
                file: file, problem: problem, context: context, contextLine: contextLine, at: at,
                sourceLine: lines.line(at.line), contextSourceLine: contextLine.flatMap { lines.line($0) },
                previousLine: lines.line(at.line - 1)))
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private func style(_ style: yaml_scalar_style_t) -> ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
        guard let pointer, length > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    private func optionalString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}

/// The children of every open collection, in one manually managed buffer, so a finished
/// collection moves its children out with one memory move instead of copying (retain) and
/// removing (release) each node.
private final class NodeStack {
    private var base: UnsafeMutablePointer<YAMLNode>
    private var capacity = 256
    private(set) var count = 0

    init() { base = UnsafeMutablePointer<YAMLNode>.allocate(capacity: 256) }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func append(_ node: consuming YAMLNode) {
        if count == capacity {
            let larger = UnsafeMutablePointer<YAMLNode>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        (base + count).initialize(to: node)
        count += 1
    }

    func removeLast() {
        guard count > 0 else { return }
        count -= 1
        (base + count).deinitialize(count: 1)
    }

    func scalar(at index: Int) -> String? { base[index].scalar }

    func hasScalar(_ text: String, at index: Int) -> Bool {
        if case .scalar(let value, _) = base[index].content { return value == text }
        return false
    }

    func range(at index: Int) -> SourceRange { base[index].range }

    /// Moves the nodes from `start` to the end out, in order.
    func moveNodes(from start: Int) -> [YAMLNode] {
        let n = max(0, count - start)
        let source = base + start
        let nodes = [YAMLNode](unsafeUninitializedCapacity: n) { buffer, initialized in
            guard n > 0, let target = buffer.baseAddress else { return }
            target.moveInitialize(from: source, count: n)
            initialized = n
        }
        count = start
        return nodes
    }

    /// Moves keys and values (alternating) from `start` out as pairs; a dangling key (a
    /// mapping cut short by an error) is dropped.
    func movePairs(from start: Int) -> [YAMLPair] {
        var n = max(0, count - start)
        if n % 2 == 1 {
            removeLast()
            n -= 1
        }
        let source = base + start
        let pairs = [YAMLPair](unsafeUninitializedCapacity: n / 2) { buffer, initialized in
            guard n > 0, let target = buffer.baseAddress else { return }
            for i in 0..<(n / 2) {
                (target + i).initialize(to: YAMLPair(key: (source + 2 * i).move(), value: (source + 2 * i + 1).move()))
            }
            initialized = n / 2
        }
        count = start
        return pairs
    }
}
