import RulesDiagnostics
import RulesExpression
import Testing

enum TestSchema {
    static let schema = FactSchema.standard(
        routineIDs: ["steps", "sleep", "water", "study", "skincare", "supplement"],
        settings: [
            ("tone", .enumeration(EnumType(name: "tone", cases: ["calm_directive", "cold_persistent"]))),
            ("bedtime", .optional(.time)), ("quiet", .bool), ("morning_checkin", .bool),
            ("day_starts_at", .time),
        ])

    static func compile(_ text: String, _ expectation: Checker.Expectation = .anything) -> (CompiledExpression?, [Diagnostic]) {
        CompiledExpression.compile(text, schema: schema, expecting: expectation)
    }

    /// Facts for evaluation tests: a typical evening.
    static func facts(_ overrides: [String: Value] = [:]) -> FactValues {
        var facts = FactValues(schema: schema)
        let base: [String: Value] = [
            "now": .time(21 * 3600 + 10 * 60), "today": .date(DateFormat.days("2026-06-29") ?? 0),
            "weekday": .string("mon"), "steps.today": .int(3240), "steps.yesterday": .int(7000),
            "steps.avg7": .int(5200), "steps.goal": .int(6000), "sleep.minutes": .int(330),
            "water.ml": .int(500), "water.goal": .int(1500), "completed": .int(4), "total": .int(8),
            "completion_rate": .number(0.5), "route": .string("recovery"), "risk": .string("medium"),
            "settings.quiet": .bool(false), "settings.tone": .string("calm_directive"),
            "routines.water.progress": .number(0.33), "recovery.items_text": .string("물 300ml, 양치, 300보"),
            "health.steps": .string("granted"), "notifications.sent_today": .int(1),
        ]
        for (name, value) in base.merging(overrides, uniquingKeysWith: { $1 }) {
            facts.set(name, value, in: schema)
        }
        return facts
    }

    static func evaluate(
        _ text: String, _ overrides: [String: Value] = [:], dayStart: Int = 4 * 3600,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Result<Value, EvaluationError>? {
        let (compiled, diagnostics) = compile(text)
        guard let compiled else {
            Issue.record("does not compile: \(diagnostics.map(\.message))", sourceLocation: sourceLocation)
            return nil
        }
        var context = EvaluationContext(facts: facts(overrides), dayStart: dayStart)
        do {
            return .success(try compiled.value(&context))
        } catch {
            return .failure(error)
        }
    }
}
