import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesPopulation
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles

/// The diagnostics the server publishes: `rules check` over the workspace with the open
/// buffers in place of their files, and the open scenarios read against that ruleset.
extension LanguageServer {
    /// The codes only the language server reports.
    public static let descriptions: [CodeDescription] = [
        CodeDescription(
            code: "lsp.partial_ruleset", severity: .note, summary: "what completion and hover do without while the workspace has errors",
            rationale:
                "While a file has an error the editor keeps completing and hovering from what loads: the files that parse, the entries without errors, and for template previews the last version of the ruleset that loaded whole. The note on each file with an error says what was left out; it goes when the errors do."
        )
    ]

    /// Runs the checks and publishes every file's diagnostics (an empty list for a file
    /// whose problems are gone).
    public func publishDiagnostics() {
        diagnosticsDue = false
        guard let root else { return }
        let byURI = diagnose(root: root)
        for uri in Set(byURI.keys).union(published).sorted() {
            var params: [(String, JSONValue)] = [("uri", .string(uri))]
            if let version = documents[uri]?.version { params.append(("version", .int(version))) }
            params.append(("diagnostics", .array(byURI[uri] ?? [])))
            notify("textDocument/publishDiagnostics", .object(params))
        }
        published = Set(byURI.keys)
    }

    /// The diagnostics of the workspace, by file URI.
    func diagnose(root: String) -> [String: [JSONValue]] {
        let (overlay, sizes) = buffers()
        let load = Ruleset.load(directory: root, overlay: overlay, oversized: sizes)
        if let ruleset = load.ruleset { lastGoodRuleset = ruleset }
        if let partial = load.partial { editorRuleset = partial }
        var found = load.diagnostics
        if load.ruleset == nil { found += Self.partialNotes(load.diagnostics, hasWhole: lastGoodRuleset != nil) }
        var texts: [String: String] = [:]
        for (file, source) in load.sources { texts[file] = source.text }
        // Open scenario and population files, read against the ruleset when it loaded.
        for (uri, document) in documents.sorted(by: { $0.key < $1.key }) {
            let path = Self.path(of: uri)
            let isScenario = path.hasPrefix(root + "/scenarios/")
            guard isScenario || path.hasPrefix(root + "/populations/") else { continue }
            let display = String(path.dropFirst(root.count + 1))
            if let bytes = oversized[uri] {
                found.append(YAMLDiagnostics.tooLarge(file: display, bytes: bytes))
                continue
            }
            texts[display] = document.text
            found += Self.readAgainst(load.ruleset, text: document.text, display: display, isScenario: isScenario)
        }
        let reference = root + "/docs/REFERENCE.md"
        let href = FileManager.default.fileExists(atPath: reference) ? Self.uri(of: reference) + "#diagnostics" : nil
        var byURI: [String: [JSONValue]] = [:]
        for diagnostic in found where !diagnostic.file.isEmpty && diagnostic.file != "." {
            let uri = Self.uri(of: root + "/" + diagnostic.file)
            let text = texts[diagnostic.file] ?? WorkspaceFiles.text(at: root + "/" + diagnostic.file, root: root) ?? ""
            byURI[uri, default: []].append(Self.json(diagnostic, text: text, href: href, root: root))
        }
        return byURI
    }

    /// The diagnostics of an open scenario or population buffer: its YAML, then (when the
    /// ruleset loaded) what `rules check` says of it against that ruleset.
    static func readAgainst(_ ruleset: Ruleset?, text: String, display: String, isScenario: Bool) -> [Diagnostic] {
        let parsed = YAMLReader.parse(text, file: display)
        guard parsed.isClean, let ruleset else { return parsed.diagnostics }
        let source = SourceFile(path: display, text: text)
        guard isScenario else { return PopulationLoader.load(parsed: parsed, file: display, source: source, ruleset: ruleset).diagnostics }
        var found = parsed.diagnostics
        for node in parsed.documents where !node.isNull {
            found += ScenarioLoader.load(node, file: display, source: source, ruleset: ruleset).diagnostics
        }
        return found
    }

    /// While the workspace does not load whole, one note per file with an error saying what
    /// completion and hover do without (`lsp.partial_ruleset`): a file that did not parse (or
    /// was not read) is left out whole; elsewhere only the entries with errors are.
    static func partialNotes(_ diagnostics: [Diagnostic], hasWhole: Bool) -> [Diagnostic] {
        var notes: [Diagnostic] = []
        var seen = Set<String>()
        let previews =
            hasWhole ? "template previews show the last version that loaded" : "template previews wait until the ruleset loads"
        for diagnostic in diagnostics where diagnostic.severity == .error && !diagnostic.file.isEmpty && diagnostic.file != "." {
            guard seen.insert(diagnostic.file).inserted else { continue }
            let unread = ["yaml", "io"].contains(diagnostic.code.phase)
            let message =
                unread
                ? "completion and hover answer without this file until it is read and parses; \(previews)"
                : "completion and hover leave out the entries with errors in this file; \(previews)"
            notes.append(
                Diagnostic(
                    code: "lsp.partial_ruleset", severity: .note, file: diagnostic.file, location: .fileStart, message: message,
                    hint: "fix the errors above and the editor uses all of it again"))
        }
        return notes
    }

    /// A diagnostic as the protocol has it: range, severity, code with its reference, message
    /// with the hint.
    static func json(_ diagnostic: Diagnostic, text: String, href: String?, root: String? = nil) -> JSONValue {
        let start = TextDocument.position(line: diagnostic.location.line, column: diagnostic.location.column, in: text)
        var end = diagnostic.end.map { TextDocument.position(line: $0.line, column: $0.column, in: text) } ?? start
        if end == start { end.character += wordLength(at: start, in: text) }
        func position(_ p: TextDocument.Position) -> JSONValue { .object([("line", .int(p.line)), ("character", .int(p.character))]) }
        var fields: [(String, JSONValue)] = [
            ("range", .object([("start", position(start)), ("end", position(end))])),
            ("severity", .int(diagnostic.severity == .error ? 1 : diagnostic.severity == .warning ? 2 : 3)),
            ("code", .string(diagnostic.code.rawValue)),
        ]
        if let href { fields.append(("codeDescription", .object([("href", .string(href))]))) }
        fields.append(("source", .string("rules")))
        fields.append(("message", .string(diagnostic.message + (diagnostic.hint.map { "\nhelp: " + $0 } ?? ""))))
        if let root, let related = related(diagnostic.message, root: root) { fields.append(("relatedInformation", .array([related]))) }
        return .object(fields)
    }

    /// The other place a message names (`… is already defined at rules/x.yaml:4`), as related
    /// information: the other definition of a duplicate.
    static func related(_ message: String, root: String) -> JSONValue? {
        guard let at = message.range(of: " at ", options: .backwards) else { return nil }
        let place = message[at.upperBound...].prefix { !$0.isWhitespace && $0 != ")" && $0 != "," }
        let parts = place.split(separator: ":")
        guard parts.count >= 2, let line = Int(parts[1]), line >= 1, parts[0].hasSuffix(".yaml") || parts[0].hasSuffix(".yml") else { return nil }
        let position: JSONValue = .object([("line", .int(line - 1)), ("character", .int(0))])
        return .object([
            ("location", .object([("uri", .string(uri(of: root + "/" + parts[0]))), ("range", .object([("start", position), ("end", position)]))])),
            ("message", .string("the other definition")),
        ])
    }

    /// The UTF-16 length of the word at `position` (at least 1), for a diagnostic without an end.
    static func wordLength(at position: TextDocument.Position, in text: String) -> Int {
        let index = TextDocument.index(of: position, in: text)
        var units = 0
        for scalar in text[index...].unicodeScalars {
            guard scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.-".unicodeScalars.contains(scalar) else { break }
            units += scalar.utf16.count
        }
        return Swift.max(1, units)
    }
}
