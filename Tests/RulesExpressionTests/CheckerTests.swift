import RulesDiagnostics
import RulesExpression
import Testing

@Suite struct CheckerTests {
    @Test(arguments: [
        ("now >= 21:00 && completion_rate < 0.6", ExpressionType.bool),
        ("steps.today + 1", .int),
        ("steps.today + 0.5", .number),
        ("4 / 8", .number),
        ("now + 30m", .time),
        ("now - 20:00", .duration),
        ("settings.bedtime - 30m", .optional(.time)),
        ("sleep.minutes ?? 420", .int),
        ("sleep.minutes + 10", .optional(.int)),
        ("route == \"recovery\"", .bool),
        ("risk in [\"high\", \"medium\"]", .bool),
        ("routines.water.progress >= 1.0", .bool),
        ("routines.skincare.status == \"completed\"", .bool),
        ("min(steps.today, 100)", .int),
        ("max(completion_rate, 1)", .number),
        ("round(completion_rate * 100)", .int),
        ("minutes(90m)", .number),
        ("count([1, 2])", .int),
        ("contains([\"mon\", \"tue\"], weekday)", .bool),
        ("clamp(2h, 30m, 1h)", .duration),
        ("completion_rate > 0.5 ? \"good\" : \"bad\"", .string),
        ("true ? 1 : 2.5", .number),
        ("settings.tone == \"cold_persistent\"", .bool),
        ("2 * 30m", .duration),
        ("1h / 30m", .number),
        ("\"a\" + \"b\"", .string),
        ("abs(-3)", .int),
        ("today == today", .bool),
    ])
    func infersType(input: String, type: ExpressionType) {
        let (compiled, diagnostics) = TestSchema.compile(input)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(compiled?.type == type)
    }

    @Test(
        arguments: [
            ("completion_rat < 0.6", "type.unknown_fact", 1, "did you mean 'completion_rate'?"),
            ("now >= 21:00 && completion_rat < 0.6", "type.unknown_fact", 17, "did you mean 'completion_rate'?"),
            ("routines.watr.progress > 0", "type.unknown_routine", 10, "did you mean 'water'?"),
            ("routines.water.progres > 0", "type.unknown_fact", 16, "did you mean 'routines.water.progress'?"),
            ("sleep.minuts ?? 1", "type.unknown_fact", 7, "did you mean 'sleep.minutes'?"),
            ("sleep.minutes < 360", "type.needs_default", 1, "give it a default with '??': (sleep.minutes ?? 420)"),
            (
                "route == \"recvery\"", "type.unknown_enum_case", 10,
                "did you mean \"recovery\"? route is one of: \"regular\", \"light\", \"recovery\""
            ),
            ("risk in [\"high\", \"hihg\"]", "type.unknown_enum_case", 18, nil),
            ("now >= 21", "type.mismatch", 1, "times are written 21:00; durations 30m"),
            ("completion_rate", "type.not_boolean", 1, "compare it: completion_rate > 0"),
            ("steps.today && true", "type.mismatch", 1, nil),
            ("mni(1, 2)", "type.unknown_function", 1, "did you mean 'min'?"),
            ("round(90m)", "type.wrong_arguments", 1, "round takes (number) -> int"),
            ("min(1)", "type.wrong_arguments", 1, nil),
            ("\"a\" - \"b\"", "type.mismatch", 1, nil),
            ("1 == \"a\"", "type.mismatch", 1, nil),
            ("[1, \"a\"] == []", "type.mismatch", 5, nil),
            ("sleep", "type.unknown_fact", 1, "'sleep' is a group of facts; use one of: sleep.minutes, sleep.start, sleep.end"),
            ("!sleep.minutes", "type.needs_default", 2, nil),
            ("settings.bedtime < 23:00", "type.needs_default", 1, "give it a default with '??': (settings.bedtime ?? 00:00)"),
            ("1 in 2", "type.mismatch", 6, nil),
            ("true ? 1 : \"a\"", "type.mismatch", 1, nil),
            ("routine.progress < 1", "type.unknown_fact", 1, nil),
            ("progress >= 1.0", "type.unknown_fact", 1, nil),
        ] as [(String, String, Int, String?)])
    func reportsProblem(input: String, code: String, column: Int, hint: String?) {
        let (compiled, diagnostics) = TestSchema.compile(input, .condition)
        #expect(compiled == nil)
        let first = diagnostics.first
        #expect(first?.code == DiagnosticCode(code), "\(diagnostics.map { "\($0.code): \($0.message)" })")
        #expect(first?.location.column == column, "\(diagnostics.map { "\($0.location): \($0.message)" })")
        if let hint { #expect(first?.hint == hint) }
    }

    @Test func reportsEveryProblemNotOnlyTheFirst() {
        let (_, diagnostics) = TestSchema.compile("completion_rat < 0.6 && route == \"recvery\" && sleep.minutes > 1", .condition)
        #expect(diagnostics.map(\.code) == ["type.unknown_fact", "type.unknown_enum_case", "type.needs_default"])
    }

    /// A constant zero divisor fails at every evaluation: refused at load, at the zero.
    /// A divisor that reads no fact is folded before the check (`/(1-1)` was passed).
    @Test(arguments: [
        "completion_rate / 0 > 1", "completion_rate / 0.0 > 1", "(sleep.minutes ?? 420) / 0 > 1", "1h / 0m > 1", "completion_rate / (1-1) > 1",
        "completion_rate / (0*5) > 1", "completion_rate / min(0, 1) > 1", "steps.today / (2 - 1 - 1) > 1", "1h / (30m - 30m) > 1",
    ])
    func divisionByAConstantZeroIsAnError(text: String) {
        let (compiled, diagnostics) = TestSchema.compile(text, .condition)
        #expect(compiled == nil)
        #expect(diagnostics.map(\.code) == ["type.division_by_zero"])
        #expect(TestSchema.compile("completion_rate / 2 > 0.1", .condition).1.isEmpty)
        #expect(TestSchema.compile("completion_rate / (2 - 1) > 0.1", .condition).1.isEmpty)
        #expect(TestSchema.compile("completion_rate / (steps.today - 1) > 0.1", .condition).1.isEmpty)
    }

    @Test func needlessDefaultIsAWarningOnly() {
        let (compiled, diagnostics) = TestSchema.compile("(steps.today ?? 0) > 1", .condition)
        #expect(compiled != nil)
        #expect(diagnostics.map(\.code) == ["type.needless_default"])
        #expect(diagnostics.first?.severity == .warning)
    }

    @Test func bindingsExtendTheSchema() {
        let judgement = TestSchema.schema.withRoutineJudgementBindings()
        #expect(CompiledExpression.compile("progress >= 1.0", schema: judgement, expecting: .condition).expression != nil)
        let perRoutine = TestSchema.schema.withRoutineBinding()
        #expect(CompiledExpression.compile("routine.progress < 1.0", schema: perRoutine, expecting: .condition).expression != nil)
        let at = CompiledExpression.compile("routine.reminder", schema: perRoutine, expecting: .value(.optional(.time)))
        #expect(at.expression?.type == .optional(.time))
    }

    @Test func valueExpectationAcceptsWideningAndRejectsOptional() {
        #expect(TestSchema.compile("steps.today", .value(.number)).0 != nil)
        let (_, diagnostics) = TestSchema.compile("sleep.minutes", .value(.int))
        #expect(diagnostics.map(\.code) == ["type.needs_default"])
        #expect(TestSchema.compile("settings.bedtime - 30m", .value(.optional(.time))).0 != nil)
    }

    @Test func routineIDLiteralsAreChecked() {
        let perRoutine = TestSchema.schema.withRoutineBinding()
        let (_, diagnostics) = CompiledExpression.compile("routine.id == \"watr\"", schema: perRoutine, expecting: .condition)
        #expect(diagnostics.first?.code == "type.unknown_routine")
        #expect(diagnostics.first?.hint == "did you mean 'water'?")
    }

    @Test func factsReadAreListedOnce() {
        let (compiled, _) = TestSchema.compile("(sleep.minutes ?? 420) < 360 || routines.water.progress >= 1.0 || sleep.minutes == null_fact")
        #expect(compiled == nil)
        let (ok, _) = TestSchema.compile("(sleep.minutes ?? 420) < 360 || routines.water.progress >= 1.0 || (sleep.minutes ?? 0) > 1")
        #expect(ok?.factsRead == ["sleep.minutes", "routines.water.progress"])
    }
}
