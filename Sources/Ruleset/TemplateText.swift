import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression

/// Reads template text: literal text, `{expression}` and `{expression|filter}`
/// placeholders (each checked like any expression), `{{` / `}}` for literal braces, and a
/// Korean particle pair right after a placeholder (`{routine.name}을(를)`).
enum TemplateText {
    static func parse(_ text: String, node: YAMLNode, schema: FactSchema, _ reader: inout NodeReader) -> [TemplateSegment]? {
        let scalars = Array(text.unicodeScalars)
        var segments: [TemplateSegment] = []
        var literal = String.UnicodeScalarView()
        var index = 0
        var failed = false
        let positions = reader.source.map { ScalarPositions(node: node, source: $0) }
        func place(_ offset: Int) -> SourceLocation { positions?.location(at: offset) ?? node.start }
        func report(_ message: String, at offset: Int, length: Int, hint: String? = nil) {
            var spot = node
            spot.range = SourceRange(start: place(offset), end: SourceLocation(line: place(offset).line, column: place(offset).column + length))
            reader.report(RulesetDiagnostics.invalidTemplate(reader.file, spot, message, hint: hint))
            failed = true
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "}" {
                if index + 1 < scalars.count, scalars[index + 1] == "}" {
                    literal.append("}")
                    index += 2
                } else {
                    report("a lone '}' in template text", at: index, length: 1, hint: "write '}}' for a literal brace")
                    index += 1
                }
                continue
            }
            guard scalar == "{" else {
                literal.append(scalar)
                index += 1
                continue
            }
            if index + 1 < scalars.count, scalars[index + 1] == "{" {
                literal.append("{")
                index += 2
                continue
            }
            guard let close = closingBrace(scalars, from: index + 1) else {
                report("placeholder is not closed", at: index, length: 1, hint: "close it with '}', or write '{{' for a literal brace")
                break
            }
            if !literal.isEmpty {
                segments.append(.text(String(literal)))
                literal = String.UnicodeScalarView()
            }
            let body = Array(scalars[(index + 1)..<close])
            var expressionEnd = body.count
            var filter: TemplateFilter?
            if let bar = filterBar(body) {
                let name = String(String.UnicodeScalarView(body[(bar + 1)...])).trimmingCharacters(in: .whitespaces)
                if let known = TemplateFilter(rawValue: name) {
                    filter = known
                } else {
                    let near = Suggestions.nearest(to: name, among: TemplateFilter.allCases.map(\.rawValue))
                    // A particle written as a filter (`{name|을}`) goes after the braces, in both forms.
                    let particle = Particle.allCases.first { [$0.rawValue, $0.forms.consonant, $0.forms.vowel].contains(name) }
                    let written = String(String.UnicodeScalarView(body[..<bar])).trimmingCharacters(in: .whitespaces)
                    report(
                        "unknown filter '\(name)'", at: index + 2 + bar, length: body.count - bar - 1,
                        hint: particle.map { "a particle follows the placeholder in both forms, chosen by the value: {\(written)}\($0.rawValue)" }
                            ?? near.map { "did you mean '\($0)'?" }
                            ?? "filters are: \(TemplateFilter.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                expressionEnd = bar
            }
            let source = String(String.UnicodeScalarView(body[0..<expressionEnd]))
            let offset = index + 1
            let (compiled, problems) = CompiledExpression.compile(source, schema: schema, expecting: .anything)
            for problem in problems { reader.report(problem.placed(in: reader.file) { place(offset + $0) }) }
            if compiled == nil { failed = true }  // an error, or a routine left out for its own
            index = close + 1
            var particle: Particle?
            for candidate in Particle.allCases {
                let form = Array(candidate.rawValue.unicodeScalars)
                if index + form.count <= scalars.count, Array(scalars[index..<(index + form.count)]) == form {
                    particle = candidate
                    index += form.count
                    break
                }
            }
            if let compiled {
                if let problem = renderability(compiled.type, filter) {
                    report(problem, at: offset, length: close - offset)
                } else {
                    segments.append(
                        .placeholder(
                            Placeholder(
                                expression: compiled, filter: filter, particle: particle,
                                origin: Origin(file: reader.file, location: place(offset - 1)))))
                }
            }
        }
        if !literal.isEmpty { segments.append(.text(String(literal))) }
        return failed ? nil : segments
    }

    /// The `}` closing a placeholder opened before `start`, skipping quoted strings.
    private static func closingBrace(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
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
    private static func filterBar(_ body: [Unicode.Scalar]) -> Int? {
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
