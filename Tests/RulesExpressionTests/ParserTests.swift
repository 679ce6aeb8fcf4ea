import RulesDiagnostics
import RulesExpression
import Testing

@Suite struct ParserTests {
    @Test(arguments: [
        ("42", "42"),
        ("0.6", "0.6"),
        ("60%", "0.6"),
        ("-3", "-3"),
        ("\"text\"", "\"text\""),
        ("'single'", "\"single\""),
        ("\"a\\\"b\\n\\u{AC00}\"", "\"a\\\"b\n가\""),
        ("true", "true"),
        ("20:30", "20:30"),
        ("24:00", "24:00"),
        ("00:00", "00:00"),
        ("90m", "1h30m"),
        ("1h30m", "1h30m"),
        ("45s", "45s"),
        ("2h15m30s", "2h15m30s"),
        ("[1, 2]", "[1 2]"),
        ("[]", "[]"),
        ("routines.water.progress", "routines.water.progress"),
        ("now >= 21:00 && completion_rate < 0.6", "(&& (>= now 21:00) (< completion_rate 0.6))"),
        ("a || b && c", "(|| a (&& b c))"),
        ("a && b || c", "(|| (&& a b) c)"),
        ("1 + 2 * 3", "(+ 1 (* 2 3))"),
        ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
        ("1 - 2 - 3", "(- (- 1 2) 3)"),
        ("a < b == c", "(== (< a b) c)"),
        ("x in [1, 2] && y", "(&& (in x [1 2]) y)"),
        ("(sleep.minutes ?? 420) < 360", "(< (?? sleep.minutes 420) 360)"),
        ("a ?? b ?? c", "(?? a (?? b c))"),
        ("a ?? b || c", "(?? a (|| b c))"),
        ("c ? 1 : 2", "(? c 1 2)"),
        ("c ? d ? 1 : 2 : 3", "(? c (? d 1 2) 3)"),
        ("!a && !b", "(&& (! a) (! b))"),
        ("!!a", "(! (! a))"),
        ("-x", "(- x)"),
        ("- -3", "3"),
        ("min(a, 2)", "(min a 2)"),
        ("clamp(x, 0, 1)", "(clamp x 0 1)"),
        ("count([])", "(count [])"),
        ("settings.bedtime - 30m", "(- settings.bedtime 30m)"),
        ("c ? 10:30 : 11:00", "(? c 10:30 11:00)"),
    ])
    func printsTree(input: String, printed: String) {
        let (tree, diagnostics) = Parser.parse(input)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(tree.debugDescription == printed)
    }

    @Test func everyNodeHasItsRange() {
        let (tree, _) = Parser.parse("now >= 21:00 && completion_rate < 0.6")
        guard case .binary(.and, let lhs, let rhs) = tree.kind else {
            Issue.record("not an and")
            return
        }
        #expect(tree.range == TextRange(0, 37))
        #expect(lhs.range == TextRange(0, 12))
        #expect(rhs.range == TextRange(16, 37))
        guard case .binary(_, let fact, let literal) = rhs.kind else {
            Issue.record("the right side is not a comparison")
            return
        }
        #expect(fact.range == TextRange(16, 31))
        #expect(literal.range == TextRange(34, 37))
    }

    @Test(arguments: [
        ("now >= 21:00 &&", "expr.expected_operand", 16),
        ("a && && b", "expr.expected_operand", 6),
        ("(a", "expr.unexpected_token", 3),
        ("a b", "expr.unexpected_token", 3),
        ("25:00", "expr.invalid_time", 1),
        ("21:60", "expr.invalid_time", 1),
        ("24:01", "expr.invalid_time", 1),
        ("123:00", "expr.invalid_time", 1),
        ("1m30h", "expr.invalid_duration", 1),
        ("90x", "expr.invalid_number", 1),
        ("\"open", "expr.unterminated_string", 1),
        ("\"a\\qb\"", "expr.invalid_escape", 3),
        ("a = b", "expr.unknown_operator", 3),
        ("a & b", "expr.unknown_operator", 3),
        ("a # b", "expr.unexpected_character", 3),
        ("", "expr.empty", 1),
        ("   ", "expr.empty", 1),
        ("99999999999999999999", "expr.invalid_number", 1),
        ("a.", "expr.unexpected_token", 3),
        ("a.1", "expr.unexpected_token", 3),
        ("1(2)", "expr.not_callable", 1),
        ("[1, , 2]", "expr.expected_operand", 5),
        ("min(1,", "expr.expected_operand", 7),
        ("c ? 1", "expr.unexpected_token", 6),
        (")", "expr.unexpected_token", 1),
    ])
    func reportsErrorAtColumn(input: String, code: String, column: Int) {
        let (_, diagnostics) = Parser.parse(input)
        let first = diagnostics.first
        #expect(first?.code == DiagnosticCode(code), "\(diagnostics.map { "\($0.code) \($0.message)" })")
        #expect(first?.location.column == column, "\(diagnostics.map { "\($0.location) \($0.message)" })")
    }

    @Test func expectedOperandMessageNamesTheOperator() {
        let (_, diagnostics) = Parser.parse("now >= 21:00 &&")
        #expect(diagnostics.first?.message == "expected an operand after '&&', found the end of the expression")
    }

    @Test func recoversToReportSeveralErrors() {
        let (_, diagnostics) = Parser.parse("[25:00, 1m30h, \"ok\"]")
        #expect(diagnostics.map(\.code) == ["expr.invalid_time", "expr.invalid_duration"])
        let (_, more) = Parser.parse("min(25:00, 90x)")
        #expect(more.count == 2)
    }

    /// Full-width forms (a Korean input method's `＆＆`, `：`, the ideographic space) and smart
    /// quotes are one error per run, spanning it, with the ASCII to write instead.
    @Test(arguments: [
        (
            "now >= 21：00", "'：' is full-width (U+FF1A); expressions are written in ASCII", "write ':' (typed in the input method's full-width mode)",
            10, 11
        ),
        ("a ＆＆ b", "'＆＆' is full-width (U+FF06); expressions are written in ASCII", "write '&&' (typed in the input method's full-width mode)", 3, 5),
        (
            "a　< 1", "'　' is full-width (U+3000); expressions are written in ASCII",
            "write an ordinary space (typed in the input method's full-width mode)", 2, 3
        ),
        (
            "route == “recovery”", "'“' is a typographic quote (U+201C); expressions are written in ASCII",
            "write '\"' (smart quotes, from a word processor or a chat app)", 10, 11
        ),
        ("a ＝“ b", "'＝“' is full-width or typographic (U+FF1D, U+201C); expressions are written in ASCII", "write '=\"'", 3, 5),
    ])
    func aLookalikeRunIsOneErrorWithItsASCII(input: String, message: String, hint: String, column: Int, end: Int) {
        let (_, diagnostics) = Parser.parse(input)
        let first = diagnostics.first
        #expect(first?.code == "expr.unexpected_character")
        #expect(first?.message == message)
        #expect(first?.hint == hint)
        #expect(first?.location.column == column)
        #expect(first?.end?.column == end)
        #expect(diagnostics.filter { $0.code == "expr.unexpected_character" }.count == (input.contains("”") ? 2 : 1))
    }

    @Test func refusesOverlongAndOverdeepExpressions() {
        let long = String(repeating: "a", count: InputLimits.maxExpressionLength + 1)
        #expect(Parser.parse(long).diagnostics.map(\.code) == ["expr.too_long"])
        let deep = String(repeating: "(", count: 200) + "a" + String(repeating: ")", count: 200)
        #expect(Parser.parse(deep).diagnostics.map(\.code) == ["expr.too_deep"])
        let chain = Array(repeating: "steps.today", count: 100).joined(separator: " + ")
        let (compiled, diagnostics) = TestSchema.compile(chain)
        #expect(compiled == nil)
        #expect(diagnostics.map(\.code) == ["expr.too_deep"])
    }
}
