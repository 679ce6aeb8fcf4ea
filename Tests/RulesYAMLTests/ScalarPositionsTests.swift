import RulesDiagnostics
import RulesDocument
import RulesExpression
import RulesYAML
import Testing

/// Expression diagnostics land on the file position of the offending characters, for
/// every scalar style.
@Suite struct ScalarPositionsTests {
    func placed(_ yaml: String, key: String = "when") throws -> Diagnostic {
        let parsed = YAMLReader.parse(yaml, file: "rules/route.yaml")
        let root = try #require(parsed.documents.first)
        let node = try #require(root[key])
        let text = try #require(node.scalar)
        let (_, diagnostics) = TestingSchema.compile(text)
        let first = try #require(diagnostics.first)
        let positions = ScalarPositions(node: node, source: SourceFile(path: "rules/route.yaml", text: yaml))
        return first.placed(in: "rules/route.yaml", locate: positions.location(at:))
    }

    @Test func plainScalar() throws {
        let d = try placed("risk: x\nwhen: now >= 21:00 && completion_rat < 0.6\n")
        #expect(d.file == "rules/route.yaml")
        #expect(d.location == SourceLocation(line: 2, column: 23))
        #expect(d.end == SourceLocation(line: 2, column: 37))
    }

    @Test func doubleQuotedScalarWithEscapes() throws {
        let d = try placed(#"when: "route == \"light\" || completion_rat < 1""# + "\n")
        #expect(d.location == SourceLocation(line: 1, column: 30))
    }

    @Test func singleQuotedScalarWithDoubledQuote() throws {
        let d = try placed("when: 'route == ''light'' || completion_rat < 1'\n")
        #expect(d.location == SourceLocation(line: 1, column: 30))
    }

    @Test func literalBlockScalar() throws {
        let d = try placed("when: |\n  now >= 21:00 &&\n    completion_rat < 0.6\n")
        #expect(d.location == SourceLocation(line: 3, column: 5))
    }

    @Test func foldedPlainScalarOverTwoLines() throws {
        let d = try placed("when: now >= 21:00 &&\n  completion_rat < 0.6\n")
        #expect(d.location == SourceLocation(line: 2, column: 3))
    }

    @Test func hangulBeforeTheMistakeCountsScalars() throws {
        let d = try placed("when: (recovery.items_text ?? \"\") == \"물 300ml\" && completion_rat < 1\n")
        #expect(d.location == SourceLocation(line: 1, column: 51))
    }
}

enum TestingSchema {
    static let schema = FactSchema.standard(routineIDs: ["water"], settings: [])
    static func compile(_ text: String) -> (CompiledExpression?, [Diagnostic]) {
        CompiledExpression.compile(text, schema: schema, expecting: .condition)
    }
}
