import RulesDiagnostics
import RulesExpression
import Testing

@Suite struct EvaluatorTests {
    func value(_ text: String, _ overrides: [String: Value] = [:], dayStart: Int = 4 * 3600) -> Value? {
        guard case .success(let value)? = TestSchema.evaluate(text, overrides, dayStart: dayStart) else { return nil }
        return value
    }

    func failure(_ text: String, _ overrides: [String: Value] = [:]) -> EvaluationError? {
        guard case .failure(let error)? = TestSchema.evaluate(text, overrides) else { return nil }
        return error
    }

    @Test(arguments: [
        ("1 + 2", Value.int(3)), ("7 - 10", .int(-3)), ("6 * 7", .int(42)), ("4 / 8", .number(0.5)),
        ("1 + 0.5", .number(1.5)), ("0.5 * 4", .number(2)), ("-(2)", .int(-2)), ("-steps.today", .int(-3240)),
        ("\"물 \" + \"300ml\"", .string("물 300ml")),
        ("1h + 30m", .duration(5400)), ("30m - 1h", .duration(-1800)), ("2 * 30m", .duration(3600)),
        ("90m / 2", .duration(2700)), ("1h / 30m", .number(2)),
        ("21:00 + 30m", .time(77400)), ("23:50 + 20m", .time(600)), ("00:10 - 30m", .time(85200)),
        ("24:00 - 30m", .time(84600)), ("22:00 - 21:00", .duration(3600)), ("01:10 - 21:00", .duration(15000)),
        ("1 < 2", .bool(true)), ("2 <= 2", .bool(true)), ("3 > 2.5", .bool(true)), ("2 >= 3", .bool(false)),
        ("3 == 3.0", .bool(true)), ("1 != 1", .bool(false)), ("30m < 1h", .bool(true)), ("\"a\" < \"b\"", .bool(true)),
        ("01:10 > 21:00", .bool(true)), ("03:59 > 04:00", .bool(true)), ("04:00 < 04:01", .bool(true)),
        ("24:00 > 23:59", .bool(true)),
        ("true && false", .bool(false)), ("true || false", .bool(true)), ("!true", .bool(false)),
        ("route == \"recovery\"", .bool(true)), ("risk != \"high\"", .bool(true)),
        ("2 in [1, 2]", .bool(true)), ("3 in []", .bool(false)), ("risk in [\"high\"]", .bool(false)),
        ("sleep.minutes ?? 420", .int(330)), ("(sleep.minutes ?? 420) < 360", .bool(true)),
        ("true ? 1 : 2", .int(1)), ("false ? 1 : 2.5", .number(2.5)),
        ("min(3, 1, 2)", .int(1)), ("max(1, 2.5)", .number(2.5)), ("min(30m, 1h)", .duration(1800)),
        ("clamp(5, 0, 3)", .int(3)), ("clamp(-1, 0, 3)", .int(0)), ("clamp(0.5, 0, 1)", .number(0.5)),
        ("abs(-3)", .int(3)), ("abs(-1.5)", .number(1.5)), ("abs(-30m)", .duration(1800)),
        ("round(2.5)", .int(3)), ("round(-2.5)", .int(-3)), ("floor(2.7)", .int(2)), ("ceil(2.1)", .int(3)),
        ("floor(-0.5)", .int(-1)), ("minutes(90m)", .number(90)), ("hours(90m)", .number(1.5)),
        ("count([])", .int(0)), ("count([1, 2, 3])", .int(3)),
        ("contains([1, 2], 2)", .bool(true)), ("contains([], 2)", .bool(false)),
        ("completion_rate < 60%", .bool(true)), ("steps.today / steps.goal", .number(0.54)),
        ("recovery.items_text", .string("물 300ml, 양치, 300보")),
        ("weekday in [\"sat\", \"sun\"]", .bool(false)),
    ])
    func evaluates(input: String, expected: Value) {
        #expect(value(input) == expected)
    }

    @Test func optionalArithmeticStaysUnknown() {
        #expect(value("sleep.minutes + 10", ["sleep.minutes": .unknown]) == .unknown)
        #expect(value("(sleep.minutes ?? 420) < 360", ["sleep.minutes": .unknown]) == .bool(false))
        #expect(value("settings.bedtime - 30m", ["settings.bedtime": .time(23 * 3600)]) == .time(23 * 3600 - 1800))
        #expect(value("settings.bedtime - 30m") == .unknown)
    }

    @Test func timesCompareWithinTheLogicalDay() {
        #expect(value("now >= 21:00", ["now": .time(70 * 60)]) == .bool(true))  // 01:10 is after 21:00
        #expect(value("now >= 21:00", ["now": .time(70 * 60)], dayStart: 0) == .bool(false))
        #expect(value("now < 04:00", ["now": .time(3 * 3600 + 59 * 60)]) == .bool(false))
    }

    @Test func shortCircuitSkipsMissingFacts() {
        #expect(value("false && steps.today > 0", ["steps.today": .unknown]) == .bool(false))
        #expect(failure("true && steps.today > 0", ["steps.today": .unknown]) == .missingFact("steps.today"))
    }

    @Test(arguments: [
        // A divisor that is zero only when evaluated (a literal 0 is refused when checked).
        ("1 / (0 * steps.today)", EvaluationError.divisionByZero(TextRange(0, 21))),
        ("1.5 / (0 * steps.today)", .divisionByZero(TextRange(0, 23))),
        ("1h / (0 * steps.today)", .divisionByZero(TextRange(0, 22))),
        ("1h / (0s * steps.today)", .divisionByZero(TextRange(0, 23))),
        ("9223372036854775807 + 1", .overflow(TextRange(0, 23))),
        ("-9223372036854775807 - 2", .overflow(TextRange(0, 24))),
        ("4611686018427387904 * 2", .overflow(TextRange(0, 23))),
        ("abs(-9223372036854775807 - 1)", .overflow(TextRange(0, 29))),
        ("round(9223372036854775807.0 * 10.0)", .overflow(TextRange(0, 35))),
    ])
    func faultsAreTypedErrorsNotTraps(input: String, error: EvaluationError) {
        #expect(failure(input) == error)
    }

    @Test func nanIsAnError() {
        #expect(failure("completion_rate * 2 > 0", ["completion_rate": .number(.nan)]) == .notANumber(TextRange(0, 19)))
        #expect(failure("round(completion_rate)", ["completion_rate": .number(.nan)]) == .notANumber(TextRange(0, 22)))
        #expect(failure("completion_rate - completion_rate > 0", ["completion_rate": .number(.infinity)]) != nil)
    }

    @Test func wrongFactKindIsATypeFaultNotATrap() {
        if case .typeFault? = failure("steps.today > 1", ["steps.today": .string("x")]) {
        } else {
            Issue.record("expected a type fault")
        }
    }

    @Test func budgetStopsRunawayEvaluation() throws {
        let (compiled, _) = TestSchema.compile("completion_rate < 0.6 && now >= 21:00")
        let expression = try #require(compiled)
        var context = EvaluationContext(facts: TestSchema.facts(), budget: 1)
        #expect(throws: EvaluationError.budgetExceeded) { try expression.value(&context) }
        context.budget = 100
        #expect(try expression.value(&context) == .bool(true))
    }

    @Test func constantAnalysis() throws {
        let cases: [(String, Bool?)] = [
            ("true", true), ("false", false), ("1 < 2", true), ("completion_rate < 0.6 || true", true),
            ("completion_rate < 0.6 && false", false), ("completion_rate < 0.6", nil), ("!(1 > 2)", true),
            ("21:00 > 03:00", false), ("route == \"recovery\"", nil), ("min(1, 2) == 1 && true", true),
        ]
        for (text, truth) in cases {
            let expression = try #require(TestSchema.compile(text, .condition).0, "\(text)")
            #expect(ConstantAnalysis.truth(of: expression) == truth, "\(text)")
        }
    }

    /// Which expressions some values can make fail: arithmetic, calls and scans of a list of
    /// run-time length can; comparisons, logic, `??`, `in` a written list and plain facts
    /// cannot (an engine that keeps only decisions skips lines made only of those).
    @Test(arguments: [
        ("route == \"recovery\" && !recovery.completed", false), ("risk != \"low\" || completed >= total", false),
        ("(sleep.minutes ?? 420) < 360", false), ("recovery.items_text", false), ("completed", false),
        ("weekday in [\"sat\", \"sun\"]", false), ("now >= 21:00 ? completed : total", false), ("completed in [1, 2, 3]", false),
        ("completion_rate < 60%", false),
        ("completed + 1", true), ("steps.today / steps.goal", true), ("-steps.today", true), ("min(completed, total)", true),
        ("count([1, 2]) > 1", true), ("route == \"light\" && completed * 2 > total", true),
        ("settings.bedtime - 30m", true),
    ])
    func canFailOnValues(input: String, canFail: Bool) throws {
        let expression = try #require(TestSchema.compile(input).0, "\(input)")
        #expect(expression.canFailOnValues == canFail, "\(input)")
    }

    /// An expression said not to fail does not, at the ends of its facts' ranges: the
    /// largest and smallest ints, unknown optionals, a completion rate that is not a number.
    @Test func anExpressionThatCannotFailDoesNotAtTheExtremes() {
        // (Every required fact set, as the engine sets them: the typical evening lacks one.)
        let extremes: [[String: Value]] = [
            ["completed": .int(Int.max), "total": .int(Int.min), "sleep.minutes": .unknown, "recovery.items_text": .unknown],
            ["completed": .int(Int.min), "total": .int(Int.max), "completion_rate": .number(.nan), "now": .time(0)],
            ["completion_rate": .number(.infinity), "sleep.minutes": .int(Int.max), "now": .time(86_400)],
        ].map { $0.merging(["recovery.completed": .bool(false)]) { a, _ in a } }
        for text in [
            "route == \"recovery\" && !recovery.completed", "risk != \"low\" || completed >= total", "(sleep.minutes ?? 420) < 360",
            "completion_rate < 60%", "now >= 21:00 ? completed : total", "recovery.items_text ?? \"\"",
        ] {
            #expect(TestSchema.compile(text).0?.canFailOnValues == false, "\(text)")
            for overrides in extremes {
                guard case .success? = TestSchema.evaluate(text, overrides) else {
                    Issue.record("\(text) failed with \(overrides): \(String(describing: TestSchema.evaluate(text, overrides)))")
                    continue
                }
            }
        }
    }
}
