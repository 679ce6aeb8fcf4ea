import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles

/// `rules lsp`: the language server's protocol state and answers, without any I/O. It takes
/// one message body at a time (`receive`) and hands every message it sends to `send`; the
/// transport (`LanguageServerLoop`) reads and writes the bytes and decides when diagnostics are
/// due to run (debounced after edits). Diagnostics are those of `rules check` over the
/// workspace's ruleset with the editor's unsaved buffers in place of their files, plus the
/// open scenario files read against that ruleset.
///
/// Served besides: completion (keys from the file kind's schema, facts and functions in
/// expressions, ids and allowed values after their keys), hover (facts, templates, routines,
/// notifications, keys), go to definition and find references (templates, routines,
/// notifications, settings, categories), document symbols, and the quick fix of every
/// mechanical hint (`QuickFixes`), and code lenses with the scenarios' results (`CodeLenses`,
/// worked out in the background from the saved files).
public final class LanguageServer: @unchecked Sendable {
    // @unchecked: the loop calls it from one serial queue only.

    /// JSON-RPC error codes used here.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case serverNotInitialized = -32002
    }

    let send: ([UInt8]) -> Void
    public private(set) var initialized = false
    public private(set) var shutDown = false
    /// Set by `exit`: 0 after `shutdown`, 1 without.
    public internal(set) var exitCode: Int32?
    /// Whether an edit or an open file asks for diagnostics to run.
    public internal(set) var diagnosticsDue = false
    /// The workspace's ruleset directory.
    public internal(set) var root: String?
    var documents: [String: TextDocument] = [:]
    /// Open documents whose last open or change was too large to receive, by URI (its size):
    /// their text is unknown until the editor sends it whole again.
    var oversized: [String: Int] = [:]
    /// Whether the user was told that no ruleset holds the open files.
    var saidNoRuleset = false
    /// The files (URIs) that have diagnostics shown, to clear them when they are fixed.
    var published: Set<String> = []

    /// A diagnostic code's explanation (`rules check --explain`), for hover; nil: none known.
    let explain: (String) -> String?

    public init(send: @escaping ([UInt8]) -> Void, explain: @escaping (String) -> String? = { _ in nil }) {
        self.send = send
        self.explain = explain
    }

    // MARK: Messages

    /// Handles one message body.
    public func receive(_ body: [UInt8]) {
        let parsed = JSONReader.parse(body, file: "message", maxBytes: MessageFramer.maxBody, maxDepth: 64)
        guard let message = parsed.documents.first, message.pairs != nil else {
            respondError(id: .null, .parseError, parsed.diagnostics.first?.message ?? "the message is not a JSON object")
            return
        }
        let id = message["id"].map(Self.json)
        guard let method = message["method"]?.string else {
            // A response to a request of ours (none are sent yet) or nonsense.
            if id == nil { respondError(id: .null, .invalidRequest, "a message needs 'method'") }
            return
        }
        let params = message["params"]
        if let id {
            request(method, id: id, params: params)
        } else {
            notification(method, params: params)
        }
    }

    func request(_ method: String, id: JSONValue, params: YAMLNode?) {
        if shutDown, method != "shutdown" {
            respondError(id: id, .invalidRequest, "the server is shutting down")
            return
        }
        if !initialized, method != "initialize" {
            respondError(id: id, .serverNotInitialized, "initialize first")
            return
        }
        switch method {
        case "initialize":
            root = Self.root(from: params).flatMap(Self.rulesetRoot(ofWorkspace:))
            initialized = true
            lensesDue = root != nil
            respond(id: id, Self.capabilities)
        case "shutdown":
            shutDown = true
            respond(id: id, .null)
        case "textDocument/codeLens": codeLenses(id: id, params: params)
        case "workspace/executeCommand": executeCommand(id: id, params: params)
        case "textDocument/documentSymbol":
            guard let uri = params?["textDocument"]?["uri"]?.string else {
                respondError(id: id, .invalidParams, "textDocument is needed")
                return
            }
            respond(id: id, .array(text(of: uri).map(DocumentSymbols.symbols) ?? []))
        case "textDocument/codeAction":
            guard let uri = params?["textDocument"]?["uri"]?.string else {
                respondError(id: id, .invalidParams, "textDocument is needed")
                return
            }
            respond(id: id, .array(codeActions(uri: uri, diagnostics: params?["context"]?["diagnostics"]?.items ?? [])))
        case "textDocument/completion", "textDocument/hover", "textDocument/definition", "textDocument/references":
            guard let uri = params?["textDocument"]?["uri"]?.string, let line = params?["position"]?["line"]?.int,
                let character = params?["position"]?["character"]?.int
            else {
                respondError(id: id, .invalidParams, "textDocument and position are needed")
                return
            }
            respond(id: id, answer(method, uri: uri, position: TextDocument.Position(line: line, character: character)))
        default:
            respondError(id: id, .methodNotFound, "'\(method)' is not served")
        }
    }

    /// The code lenses of a file, from the last lenses worked out (none before).
    func codeLenses(id: JSONValue, params: YAMLNode?) {
        guard let uri = params?["textDocument"]?["uri"]?.string, let root, let computed = lensCache else {
            respond(id: id, .array([]))
            return
        }
        let path = Self.path(of: uri)
        let display = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
        respond(id: id, .array(CodeLenses.lenses(for: display, uri: uri, ruleset: computed.ruleset, lenses: computed.lenses)))
    }

    /// `rules.runScenario`: lives the scenarios of one file now and says how they went.
    func executeCommand(id: JSONValue, params: YAMLNode?) {
        guard params?["command"]?.string == "rules.runScenario", let uri = params?["arguments"]?.items?.first?.string, let root else {
            respond(id: id, .null)
            return
        }
        respond(id: id, .null)
        let path = Self.path(of: uri)
        guard let ruleset = Ruleset.load(directory: root).ruleset else {
            notify("window/showMessage", .object([("type", .int(1)), ("message", .string("the ruleset does not load: see its diagnostics"))]))
            return
        }
        let lived = ScenarioLenses.compute(CodeLenses.scenarios(root: root, ruleset: ruleset, only: path), ruleset: ruleset)
        let text = lived.scenarios.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.passed) passed, \($0.value.failed) failed" }
            .joined(separator: "; ")
        notify("window/showMessage", .object([("type", .int(3)), ("message", .string(text.isEmpty ? "no scenario in that file loads" : text))]))
    }

    static let capabilities: JSONValue = .object([
        (
            "capabilities",
            .object([
                ("positionEncoding", .string("utf-16")),
                ("completionProvider", .object([("triggerCharacters", .array([".", " ", "{"].map(JSONValue.string)))])),
                ("hoverProvider", .bool(true)),
                ("definitionProvider", .bool(true)),
                ("referencesProvider", .bool(true)),
                ("documentSymbolProvider", .bool(true)),
                ("codeLensProvider", .object([("resolveProvider", .bool(false))])),
                ("executeCommandProvider", .object([("commands", .array([.string("rules.runScenario"), .string("rules.showLens")]))])),
                ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix")]))])),
                (
                    "textDocumentSync",
                    .object([("openClose", .bool(true)), ("change", .int(2)), ("save", .object([("includeText", .bool(false))]))])
                ),
            ])
        ),
        ("serverInfo", .object([("name", .string("rules lsp")), ("version", .string("1"))])),
    ])

    // MARK: Code lenses

    /// Whether the saved files changed since the lenses were worked out.
    public internal(set) var lensesDue = false
    var lensCache: (ruleset: Ruleset, lenses: ScenarioLenses)?
    /// Requests sent to the client (each needs its own id).
    var refreshes = 0

    /// The lenses' work, to run off the message queue (nil when none is due); hand its result
    /// to `lensesComputed`.
    public func lensWork() -> (@Sendable () -> LensResult)? {
        guard lensesDue, let root else { return nil }
        lensesDue = false
        return { LensResult(computed: CodeLenses.compute(root: root)) }
    }

    /// The worked-out lenses; the client is asked to show them again.
    public func lensesComputed(_ result: LensResult) {
        guard let computed = result.computed else { return }
        lensCache = computed
        refreshes += 1
        write(
            .object([("jsonrpc", .string("2.0")), ("id", .string("lens-refresh-\(refreshes)")), ("method", .string("workspace/codeLens/refresh"))]))
    }

    /// Works the lenses out now (tests; the loop runs `lensWork` in the background).
    public func computeLenses() {
        if let work = lensWork() { lensesComputed(work()) }
    }

    // MARK: Completion, hover, definition, references

    /// What the features answer from: the latest load of the workspace (with the open
    /// buffers), whole or — while a file is broken — what decoded of the files that parsed
    /// (`RulesetLoad.partial`): facts of the routines and settings that load, templates of the
    /// template files that load, ids of every file that parses.
    var editorRuleset: Ruleset?
    /// The last ruleset of the workspace that loaded whole: the parts that need a whole one
    /// (the template previews, which live sample days) use it.
    var lastGoodRuleset: Ruleset?

    /// The preview's sample days, lived once per ruleset (by content hash) for template hovers.
    var previews: (sha256: String, prepared: PreparedRuleset, samples: [TemplatePreview.Sample])?

    func previewSamples(_ ruleset: Ruleset) -> (prepared: PreparedRuleset, samples: [TemplatePreview.Sample]) {
        if let previews, previews.sha256 == ruleset.sha256 { return (previews.prepared, previews.samples) }
        let prepared = PreparedRuleset(ruleset)
        let samples = LocalClock(identifier: "Asia/Seoul").map { TemplatePreview.samples(prepared, clock: $0) } ?? []
        previews = (ruleset.sha256, prepared, samples)
        return (prepared, samples)
    }

    /// The text of a file: its buffer when open, else the file when it lies inside the
    /// workspace (`WorkspaceFiles`): nothing outside the root is ever read.
    func text(of uri: String) -> String? {
        if let document = documents[uri] { return document.text }
        guard let root else { return nil }
        return WorkspaceFiles.text(at: Self.path(of: uri), root: root)
    }

    /// Loads the workspace with the open buffers when nothing has been loaded yet.
    func loadEditorRulesetIfNeeded(root: String) {
        guard editorRuleset == nil else { return }
        let (overlay, sizes) = buffers()
        let load = Ruleset.load(directory: root, overlay: overlay, oversized: sizes)
        editorRuleset = load.partial
        if let whole = load.ruleset { lastGoodRuleset = whole }
    }

    func answer(_ method: String, uri: String, position: TextDocument.Position) -> JSONValue {
        let path = Self.path(of: uri)
        guard let root, let kind = CursorContext.kind(of: path), let text = text(of: uri) else { return .null }
        loadEditorRulesetIfNeeded(root: root)
        guard let ruleset = editorRuleset else { return .null }
        let whole = lastGoodRuleset
        let features = EditorFeatures(ruleset: ruleset, preview: whole.map { good in { self.previewSamples(good) } })
        let context = CursorContext.at(position, in: text, kind: kind)
        switch method {
        case "textDocument/completion":
            return .object([("isIncomplete", .bool(false)), ("items", .array(features.completion(context)))])
        case "textDocument/hover":
            var parts = features.hover(context).map { [$0] } ?? []
            // On a comparison with a constant: the values the scenarios presented on each side.
            let display = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
            for threshold in lensCache?.lenses.thresholds ?? [] where threshold.file == display && threshold.line == position.line + 1 {
                guard !context.token.isEmpty, threshold.text.contains(context.token) else { continue }
                parts.append(
                    "`\(threshold.text)` in the saved scenarios: nearest \(threshold.nearestHolding ?? "—") where it holds, "
                        + "\(threshold.nearestFailing ?? "—") where it fails; holds on \(threshold.holdsDays) days, fails on \(threshold.failsDays)")
            }
            // A diagnostic code (in a comment, or copied from a message): its explanation.
            if let explained = explain(context.token) { parts.append(explained) }
            guard !parts.isEmpty else { return .null }
            return .object([("contents", .object([("kind", .string("markdown")), ("value", .string(parts.joined(separator: "\n\n")))]))])
        case "textDocument/definition":
            guard let origin = features.definition(context) else { return .null }
            let file = root + "/" + origin.file
            let start = TextDocument.position(line: origin.location.line, column: origin.location.column, in: self.text(of: Self.uri(of: file)) ?? "")
            return location(Self.uri(of: file), start, start)
        default:
            var problems: [Diagnostic] = []
            let files = RulesetDirectory.files(in: root, folders: RulesetDirectory.rulesetFolders + ["scenarios"], prefix: "", problems: &problems)
            let texts = files.compactMap { file in self.text(of: Self.uri(of: file.path)).map { (path: file.path, text: $0) } }
            return .array(
                features.references(context.token, files: texts).map { found in
                    let start = TextDocument.Position(line: found.line, character: found.column)
                    return location(Self.uri(of: found.path), start, TextDocument.Position(line: found.line, character: found.column + found.length))
                })
        }
    }

    func location(_ uri: String, _ start: TextDocument.Position, _ end: TextDocument.Position) -> JSONValue {
        func position(_ p: TextDocument.Position) -> JSONValue { .object([("line", .int(p.line)), ("character", .int(p.character))]) }
        return .object([("uri", .string(uri)), ("range", .object([("start", position(start)), ("end", position(end))]))])
    }

    // MARK: Output

    func respond(id: JSONValue, _ result: JSONValue) {
        write(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    func respondError(id: JSONValue, _ code: ErrorCode, _ message: String) {
        write(
            .object([
                ("jsonrpc", .string("2.0")), ("id", id), ("error", .object([("code", .int(code.rawValue)), ("message", .string(message))])),
            ]))
    }

    func notify(_ method: String, _ params: JSONValue) {
        write(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    func write(_ message: JSONValue) { send(MessageFramer.frame(Array(message.rendered().utf8))) }

    /// A node read from JSON as a value to echo (an id).
    static func json(_ node: YAMLNode) -> JSONValue {
        switch node.content {
        case .scalar(let text, let style):
            if style == .doubleQuoted { return .string(text) }
            if let number = Int(text) { return .int(number) }
            if text == "null" { return .null }
            return .string(text)
        case .sequence(let items): return .array(items.map(json))
        case .mapping(let pairs): return .object(pairs.map { ($0.key.scalar ?? "", json($0.value)) })
        }
    }

    static func range(_ node: YAMLNode?) -> (start: TextDocument.Position, end: TextDocument.Position)? {
        guard let node else { return nil }
        func position(_ node: YAMLNode?) -> TextDocument.Position? {
            guard let line = node?["line"]?.int, let character = node?["character"]?.int, line >= 0, character >= 0 else { return nil }
            return TextDocument.Position(line: line, character: character)
        }
        guard let start = position(node["start"]), let end = position(node["end"]) else { return nil }
        return (start, end)
    }
}

extension YAMLNode {
    /// A member of a JSON object.
    subscript(key: String) -> YAMLNode? { pairs?.first { $0.key.scalar == key }?.value }
    /// A JSON string.
    var string: String? {
        if case .scalar(let text, .doubleQuoted) = content { return text }
        return nil
    }
    /// A JSON number that is a whole number.
    var int: Int? {
        if case .scalar(let text, .plain) = content { return Int(text) }
        return nil
    }
    /// A JSON array's items.
    var items: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }
}

/// Lenses worked out off the message queue.
public struct LensResult: Sendable {
    let computed: (ruleset: Ruleset, lenses: ScenarioLenses)?
}
