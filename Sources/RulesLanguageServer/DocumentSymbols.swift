import Foundation
import RulesDiagnostics
import RulesDocument
import RulesYAML

/// The outline of a rule, routine, scenario or population file: each top-level key, and under
/// it each entry of a list (named by its id, name, date, reason or level) or each key of a
/// mapping. Built from the file's YAML; a file that does not parse has no outline.
enum DocumentSymbols {
    /// LSP symbol kinds used.
    enum Kind: Int {
        case object = 19
        case property = 7
        case event = 24
        case enumMember = 22
        case string = 15
        case key = 20
        case array = 18
    }

    static func symbols(_ text: String) -> [JSONValue] {
        let parsed = YAMLReader.parse(text, file: "outline")
        guard parsed.isClean else { return [] }
        return parsed.documents.flatMap { document -> [JSONValue] in
            switch document.content {
            case .mapping(let pairs):
                // A routine file of one routine: the routine, its keys under it.
                if let id = document["id"]?.scalar {
                    return [symbol(id, .object, node: document, key: document, text: text, children: pairs.map { keySymbol($0, text: text) })]
                }
                return pairs.map { section($0, text: text) }
            case .sequence(let items):
                return items.enumerated().map { entry($0.element, index: $0.offset, kind: .object, text: text) }
            case .scalar: return []
            }
        }
    }

    static func section(_ pair: YAMLPair, text: String) -> JSONValue {
        let name = pair.key.scalar ?? "?"
        var children: [JSONValue] = []
        switch pair.value.content {
        case .sequence(let items):
            let kind: Kind =
                switch name {
                case "notifications", "events": .event
                case "templates": .string
                case "route", "risk": .enumMember
                default: .object
                }
            children = items.enumerated().map { entry($0.element, index: $0.offset, kind: kind, text: text) }
        case .mapping(let pairs): children = pairs.map { keySymbol($0, text: text) }
        case .scalar: break
        }
        return symbol(name, children.isEmpty ? .key : .array, node: pair.value, key: pair.key, text: text, children: children)
    }

    /// A list entry, named by what identifies it.
    static func entry(_ node: YAMLNode, index: Int, kind: Kind, text: String) -> JSONValue {
        let names = ["id", "name", "date", "reason", "level", "use", "status", "result", "routine", "at"]
        let label = names.lazy.compactMap { key in node[key]?.scalar.map { key == "at" ? "at \($0)" : $0 } }.first ?? "[\(index)]"
        return symbol(label, kind, node: node, key: node, text: text, children: [])
    }

    static func keySymbol(_ pair: YAMLPair, text: String) -> JSONValue {
        symbol(pair.key.scalar ?? "?", .property, node: pair.value, key: pair.key, text: text, children: [])
    }

    static func symbol(_ name: String, _ kind: Kind, node: YAMLNode, key: YAMLNode, text: String, children: [JSONValue]) -> JSONValue {
        func position(_ location: SourceLocation) -> JSONValue {
            let p = TextDocument.position(line: location.line, column: location.column, in: text)
            return .object([("line", .int(p.line)), ("character", .int(p.character))])
        }
        let start = Swift.min(key.range.start, node.range.start)
        let end = Swift.max(key.range.end, node.range.end)
        var fields: [(String, JSONValue)] = [
            ("name", .string(name.isEmpty ? "?" : name)), ("kind", .int(kind.rawValue)),
            ("range", .object([("start", position(start)), ("end", position(end))])),
            ("selectionRange", .object([("start", position(key.range.start)), ("end", position(key.range.end))])),
        ]
        if !children.isEmpty { fields.append(("children", .array(children))) }
        return .object(fields)
    }
}
