import Foundation
import RulesDiagnostics
import RulesDocument
import RulesPopulation
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// Every example in REFERENCE.md's key tables is a valid value of its key: each is put in
/// its place in a shipped file (the first mapping at the table's path, the key replaced or
/// added), the files are loaded as `rules check` loads them, and no error may point at the
/// example. (`date: 물`, `type: 물` and `at: completion_rate < 0.6` for a fire time were
/// examples once.)
@Suite struct ReferenceExampleTests {
    static let root = Fixtures.repositoryRoot()

    struct Row {
        var kind: String
        var path: String
        var key: String
        var example: String
    }

    /// The rows of the key tables, read from the document users read.
    static func rows() throws -> [Row] {
        let text = try String(contentsOfFile: root + "/docs/REFERENCE.md", encoding: .utf8)
        guard let start = text.range(of: "\n## File keys\n"),
            let end = text.range(of: "\n## Files to start from", range: start.upperBound..<text.endIndex)
        else { return [] }
        var rows: [Row] = []
        var kind = ""
        var path = ""
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            if line.hasPrefix("### ") {
                kind =
                    line.contains("routines/")
                    ? "routine" : line.contains("rules/") ? "rules" : line.contains("scenarios/") ? "scenario" : "population"
            }
            if line.hasPrefix("**"), let close = line.dropFirst(2).range(of: "**") { path = String(line.dropFirst(2)[..<close.lowerBound]) }
            guard line.hasPrefix("| `") else { continue }
            // Cells split on unescaped bars; the key is the first cell's code, the example the last.
            let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 7, let key = cells[1].split(separator: "`").first else { continue }
            rows.append(Row(kind: kind, path: path, key: String(key), example: cells[5]))
        }
        return rows
    }

    /// `node` with `key: value` set in each mapping at `segments` that has the key (or, with
    /// `adding`, in each mapping there at all): one variant per mapping, in file order.
    static func variants(_ node: YAMLNode, _ segments: ArraySlice<String>, key: YAMLNode, value: YAMLNode, adding: Bool) -> [YAMLNode] {
        guard var pairs = node.pairs else { return [] }
        func with(_ pairs: [YAMLPair]) -> YAMLNode {
            var out = node
            out.content = .mapping(pairs)
            return out
        }
        guard let segment = segments.first else {
            if let index = pairs.firstIndex(where: { $0.key.scalar == key.scalar }) {
                pairs[index].value = value
                return [with(pairs)]
            }
            return adding ? [with(pairs + [YAMLPair(key: key, value: value)])] : []
        }
        let rest = segments.dropFirst()
        let isList = segment.hasSuffix("[]")
        let name = isList ? String(segment.dropLast(2)) : segment
        var found: [YAMLNode] = []
        for index in pairs.indices where name == "<key>" || pairs[index].key.scalar == name {
            if isList {
                guard case .sequence(let items) = pairs[index].value.content else { continue }
                for item in items.indices {
                    for variant in variants(items[item], rest, key: key, value: value, adding: adding) {
                        var changedItems = items
                        changedItems[item] = variant
                        var changed = pairs
                        changed[index].value.content = .sequence(changedItems)
                        found.append(with(changed))
                    }
                }
            } else {
                for variant in variants(pairs[index].value, rest, key: key, value: value, adding: adding) {
                    var changed = pairs
                    changed[index].value = variant
                    found.append(with(changed))
                }
            }
        }
        return found
    }

    /// `node` with the mappings and lists of `segments` made where they are missing (on line 1,
    /// so what they lack is not counted against the example), holding `key: value`.
    static func building(_ node: YAMLNode, _ segments: ArraySlice<String>, key: YAMLNode, value: YAMLNode) -> YAMLNode {
        let origin = SourceRange(start: SourceLocation(line: 1, column: 1), end: SourceLocation(line: 1, column: 2))
        func scalar(_ text: String) -> YAMLNode { YAMLNode(.scalar(text, .plain), range: origin) }
        guard let segment = segments.first else {
            return YAMLNode(.mapping((node.pairs ?? []) + [YAMLPair(key: key, value: value)]), range: node.range)
        }
        let isList = segment.hasSuffix("[]")
        let name = isList ? String(segment.dropLast(2)) : segment == "<key>" ? "example_key" : segment
        let inner = building(YAMLNode(.mapping([]), range: origin), segments.dropFirst(), key: key, value: value)
        let child = isList ? YAMLNode(.sequence([inner]), range: origin) : inner
        var pairs = node.pairs ?? []
        if let index = pairs.firstIndex(where: { $0.key.scalar == name }) {
            if isList, case .sequence(let items) = pairs[index].value.content {
                pairs[index].value.content = .sequence(items + [inner])
            } else {
                pairs[index].value = building(pairs[index].value, segments.dropFirst(), key: key, value: value)
            }
        } else {
            pairs.append(YAMLPair(key: scalar(name), value: child))
        }
        return YAMLNode(.mapping(pairs), range: node.range)
    }

    /// The errors the example causes where it stands (its lines are numbered from 100,000).
    static func errors(_ row: Row, ruleset: Ruleset, documents: [RuleDocument], scenarios: [YAMLNode], populations: [YAMLNode]) -> [String]? {
        let parsed = YAMLReader.parse(String(repeating: "\n", count: 99_999) + row.example, file: "example.yaml")
        guard let pair = parsed.documents.first?.pairs?.first else { return ["does not parse as `key: value`"] }
        let segments = row.path.split(separator: " › ").map(String.init).dropFirst()
        func atExample(_ diagnostics: [Diagnostic]) -> [String] {
            diagnostics.filter { $0.severity == .error && $0.location.line >= 100_000 }.map { "\($0.code.rawValue): \($0.message)" }
        }
        // Every place where the key is already written, else every mapping at the path (the
        // tables of events and expectations join several shapes: the example must fit one),
        // else the path made in the first file of its kind; the first place without errors wins.
        func load(_ node: YAMLNode, document index: Int?) -> [String] {
            switch row.kind {
            case "routine", "rules":
                var changed = documents
                if let index { changed[index].node = node }
                return atExample(Ruleset.load(documents: changed).diagnostics)
            case "scenario": return atExample(ScenarioLoader.load(node, file: "example.yaml", source: nil, ruleset: ruleset).diagnostics)
            default: return atExample(PopulationLoader.load(node, file: "example.yaml", source: nil, ruleset: ruleset).diagnostics)
            }
        }
        let candidates: [(node: YAMLNode, document: Int?)] =
            switch row.kind {
            case "routine", "rules":
                documents.indices.filter { (documents[$0].kind == .routines) == (row.kind == "routine") }.map { (documents[$0].node, Optional($0)) }
            case "scenario": scenarios.map { ($0, nil) }
            default: populations.map { ($0, nil) }
            }
        var first: [String]?
        for adding in [false, true] {
            for candidate in candidates {
                for variant in variants(candidate.node, segments, key: pair.key, value: pair.value, adding: adding) {
                    let errors = load(variant, document: candidate.document)
                    if errors.isEmpty { return [] }
                    first = first ?? errors
                }
            }
            if let first { return first }
        }
        guard let home = candidates.first else { return nil }
        return load(building(home.node, segments, key: pair.key, value: pair.value), document: home.document)
    }

    static func nodes(_ folder: String) -> [YAMLNode] {
        var problems: [Diagnostic] = []
        return RulesetDirectory.files(in: root, folders: [folder], prefix: "", problems: &problems).sorted { $0.display < $1.display }
            .flatMap { file in FileReader.yaml(file.path, display: file.display).0.documents.filter { !$0.isNull } }
    }

    @Test func everyKeyExampleLoadsIntoItsKey() throws {
        let rows = try Self.rows()
        #expect(rows.count > 150, "the key tables were read: \(rows.count) rows")
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        var problems: [Diagnostic] = []
        let files = RulesetDirectory.files(in: Self.root, folders: RulesetDirectory.rulesetFolders, prefix: "", problems: &problems)
        let documents = RulesetDirectory.read(files).documents
        let (scenarios, populations) = (Self.nodes("scenarios"), Self.nodes("populations"))
        for row in rows {
            #expect(!row.example.contains("…"), "\(row.path) › \(row.key): '\(row.example)' is a placeholder, not a value")
            #expect(row.example.hasPrefix(row.key + ":"), "\(row.path) › \(row.key): '\(row.example)' is not an example of its key")
            guard let errors = Self.errors(row, ruleset: ruleset, documents: documents, scenarios: scenarios, populations: populations) else {
                Issue.record("no place in the shipped files to try: \(row.path) › \(row.key): '\(row.example)'")
                continue
            }
            #expect(errors.isEmpty, "\(row.path) › \(row.key): '\(row.example)' — \(errors)")
        }
    }

    /// The check finds a bad example: the old `date: 물` and a fire time that is a condition.
    @Test func theCheckRefusesABadExample() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        var problems: [Diagnostic] = []
        let files = RulesetDirectory.files(in: Self.root, folders: RulesetDirectory.rulesetFolders, prefix: "", problems: &problems)
        let documents = RulesetDirectory.read(files).documents
        let (scenarios, populations) = (Self.nodes("scenarios"), Self.nodes("populations"))
        for row in [
            Row(kind: "scenario", path: "scenario", key: "date", example: "date: 물"),
            Row(kind: "rules", path: "rules › notifications[]", key: "at", example: "at: completion_rate < 0.6"),
            Row(kind: "rules", path: "rules › settings › <key>", key: "type", example: "type: 물"),
        ] {
            let errors = Self.errors(row, ruleset: ruleset, documents: documents, scenarios: scenarios, populations: populations)
            #expect(errors?.isEmpty == false, "\(row.example) must be refused")
        }
    }
}
