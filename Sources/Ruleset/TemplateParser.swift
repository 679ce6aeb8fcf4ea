import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression

/// One template text being read, scalar by scalar: the segments so far, the literal text
/// being gathered, where it is, and whether anything failed. `TemplateText.parse` runs one.
struct TemplateParser {
    let scalars: [Unicode.Scalar]
    let node: YAMLNode
    let schema: FactSchema
    let positions: ScalarPositions?
    var segments: [TemplateSegment] = []
    var literal = String.UnicodeScalarView()
    var index = 0
    var failed = false

    init(_ text: String, node: YAMLNode, schema: FactSchema, source: SourceFile?) {
        scalars = Array(text.unicodeScalars)
        self.node = node
        self.schema = schema
        positions = source.map { ScalarPositions(node: node, source: $0) }
    }

    /// Where the scalar at `offset` is written.
    func place(_ offset: Int) -> SourceLocation { positions?.location(at: offset) ?? node.start }

    mutating func report(_ message: String, at offset: Int, length: Int, hint: String? = nil, _ reader: inout NodeReader) {
        var spot = node
        spot.range = SourceRange(start: place(offset), end: SourceLocation(line: place(offset).line, column: place(offset).column + length))
        reader.report(RulesetDiagnostics.invalidTemplate(reader.file, spot, message, hint: hint))
        failed = true
    }

    /// The segments, nil when anything failed.
    mutating func parse(_ reader: inout NodeReader) -> [TemplateSegment]? {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "}" {
                if index + 1 < scalars.count, scalars[index + 1] == "}" {
                    literal.append("}")
                    index += 2
                } else {
                    report("a lone '}' in template text", at: index, length: 1, hint: "write '}}' for a literal brace", &reader)
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
            guard let close = TemplateText.closingBrace(scalars, from: index + 1) else {
                report("placeholder is not closed", at: index, length: 1, hint: "close it with '}', or write '{{' for a literal brace", &reader)
                break
            }
            placeholder(closingAt: close, &reader)
        }
        if !literal.isEmpty { segments.append(.text(String(literal))) }
        return failed ? nil : segments
    }

    /// The placeholder from `index` (its `{`) to `close`, its filter and the particle after it.
    private mutating func placeholder(closingAt close: Int, _ reader: inout NodeReader) {
        if !literal.isEmpty {
            segments.append(.text(String(literal)))
            literal = String.UnicodeScalarView()
        }
        let body = Array(scalars[(index + 1)..<close])
        let (filter, expressionEnd) = self.filter(body, &reader)
        let source = String(String.UnicodeScalarView(body[0..<expressionEnd]))
        let offset = index + 1
        let (compiled, problems) = CompiledExpression.compile(source, schema: schema, expecting: .anything)
        for problem in problems { reader.report(problem.placed(in: reader.file) { place(offset + $0) }) }
        if compiled == nil { failed = true }  // an error, or a routine left out for its own
        index = close + 1
        let particle = self.particle()
        guard let compiled else { return }
        if let problem = TemplateText.renderability(compiled.type, filter) {
            report(problem, at: offset, length: close - offset, &reader)
        } else {
            segments.append(
                .placeholder(
                    Placeholder(
                        expression: compiled, filter: filter, particle: particle, origin: Origin(file: reader.file, location: place(offset - 1)))))
        }
    }

    /// The placeholder's filter after its `|`, and where its expression ends.
    private mutating func filter(_ body: [Unicode.Scalar], _ reader: inout NodeReader) -> (TemplateFilter?, Int) {
        guard let bar = TemplateText.filterBar(body) else { return (nil, body.count) }
        let name = String(String.UnicodeScalarView(body[(bar + 1)...])).trimmingCharacters(in: .whitespaces)
        if let known = TemplateFilter(rawValue: name) { return (known, bar) }
        let near = Suggestions.nearest(to: name, among: TemplateFilter.allCases.map(\.rawValue))
        // A particle written as a filter (`{name|을}`) goes after the braces, in both forms.
        let particle = Particle.allCases.first { [$0.rawValue, $0.forms.consonant, $0.forms.vowel].contains(name) }
        let written = String(String.UnicodeScalarView(body[..<bar])).trimmingCharacters(in: .whitespaces)
        report(
            "unknown filter '\(name)'", at: index + 2 + bar, length: body.count - bar - 1,
            hint: particle.map { "a particle follows the placeholder in both forms, chosen by the value: {\(written)}\($0.rawValue)" }
                ?? near.map { "did you mean '\($0)'?" }
                ?? "filters are: \(TemplateFilter.allCases.map(\.rawValue).joined(separator: ", "))", &reader)
        return (nil, bar)
    }

    /// The particle pair right after a placeholder, if one is there (then skipped).
    private mutating func particle() -> Particle? {
        for candidate in Particle.allCases {
            let form = Array(candidate.rawValue.unicodeScalars)
            if index + form.count <= scalars.count, Array(scalars[index..<(index + form.count)]) == form {
                index += form.count
                return candidate
            }
        }
        return nil
    }
}
