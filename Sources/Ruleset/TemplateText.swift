import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression

/// Reads template text: literal text, `{expression}` and `{expression|filter}`
/// placeholders (each checked like any expression), `{{` / `}}` for literal braces, and a
/// Korean particle pair right after a placeholder (`{routine.name}을(를)`).
enum TemplateText {
    static func parse(_ text: String, node: YAMLNode, schema: FactSchema, _ reader: inout NodeReader) -> [TemplateSegment]? {
        var parser = TemplateParser(text, node: node, schema: schema, source: reader.source)
        return parser.parse(&reader)
    }

    /// The `}` closing a placeholder opened before `start`, skipping quoted strings.
    static func closingBrace(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let s = scalars[index]
            if let open = quote {
                if s == "\\" { index += 1 } else if s == open { quote = nil }
            } else if s == "\"" || s == "'" {
                quote = s
            } else if s == "}" {
                return index
            } else if s == "{" {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// The `|` that starts a filter: a single bar outside strings (not part of `||`).
    static func filterBar(_ body: [Unicode.Scalar]) -> Int? {
        var quote: Unicode.Scalar?
        var found: Int?
        var index = 0
        while index < body.count {
            let s = body[index]
            if let open = quote {
                if s == "\\" { index += 1 } else if s == open { quote = nil }
            } else if s == "\"" || s == "'" {
                quote = s
            } else if s == "|" {
                if index + 1 < body.count, body[index + 1] == "|" {
                    index += 1
                } else {
                    found = index
                }
            }
            index += 1
        }
        return found
    }

    /// Why a value of `type` cannot be written with `filter`, or nil when it can.
    static func renderability(_ type: ExpressionType, _ filter: TemplateFilter?) -> String? {
        let base = type.unwrapped
        switch filter {
        case .thousands?, .k?, .percent?:
            return base.isNumeric ? nil : "filter '\(filter?.rawValue ?? "")' needs a number, but this is \(type)"
        case .hm?:
            return base == .duration || base == .int ? nil : "filter 'hm' needs a duration or minutes, but this is \(type)"
        case .list?:
            if case .list = base { return nil }
            return "filter 'list' needs a list, but this is \(type)"
        case nil:
            switch base {
            case .bool, .map, .nothing, .error: return "a \(type) cannot be written into text"
            default: return nil
            }
        }
    }
}
