import RulesDiagnostics
import RulesExpression
import TestSupport
import Testing

/// Random inputs: nothing traps, and evaluation is deterministic.
@Suite struct GeneratedInputTests {
    /// The tests' seeded generator, so failures reproduce.
    typealias Generator = SeededGenerator

    static let tokens = [
        "now", "21:00", "24:00", "&&", "||", "!", "(", ")", "[", "]", ",", "sleep.minutes", "??", "420", "<",
        ">=", "==", "!=", "\"recovery\"", "route", "completion_rate", "0.6", "60%", "+", "-", "*", "/", "90m",
        "1h30m", "min", "max(", "clamp(", "?", ":", "in", "true", "false", "routines.water.progress", ".", "0",
        "-9223372036854775807", "9223372036854775807", "steps.today", "\"", "25:00", "x", "count(", "\\", "#",
    ]

    @Test func randomTokenStringsNeverTrap() {
        var generator = Generator(state: 42)
        var compiledCount = 0
        var refusedCount = 0
        for _ in 0..<5_000 {
            let count = generator.next(12) + 1
            let text = (0..<count).map { _ in generator.pick(Self.tokens) }.joined(separator: " ")
            // A trap would end the run here; what comes back is a verdict, the same each time.
            let (compiled, diagnostics) = TestSchema.compile(text)
            let again = TestSchema.compile(text)
            #expect((compiled == nil) == (again.0 == nil) && diagnostics.map(\.message) == again.1.map(\.message), "\(text)")
            guard let compiled else {
                // Refused with a reason, never silently.
                #expect(!diagnostics.isEmpty, "\(text)")
                refusedCount += 1
                continue
            }
            compiledCount += 1
            var context = EvaluationContext(facts: TestSchema.facts())
            var second = EvaluationContext(facts: TestSchema.facts())
            func outcome(_ context: inout EvaluationContext) -> String {
                do { return "value \(try compiled.value(&context))" } catch { return "error \(error)" }
            }
            #expect(outcome(&context) == outcome(&second), "\(text)")
        }
        // The strings reach both the checker's refusals and the evaluator.
        #expect(compiledCount > 50 && refusedCount > 1_000, "compiled \(compiledCount), refused \(refusedCount)")
    }

    /// Random well-typed trees, built from typed fragments, evaluate without trapping
    /// and give the same value twice.
    @Test func randomWellTypedTreesEvaluateDeterministically() {
        var generator = Generator(state: 7)
        func number(_ depth: Int) -> String {
            if depth == 0 {
                return generator.pick(["steps.today", "1", "0", "2.5", "completion_rate", "(sleep.minutes ?? 420)", "-3", "9223372036854775807"])
            }
            let op = generator.pick(["+", "-", "*", "/"])
            return "(\(number(depth - 1)) \(op) \(number(depth - 1)))"
        }
        func condition(_ depth: Int) -> String {
            if depth == 0 {
                return generator.pick(["true", "now >= 21:00", "route == \"light\"", "risk in [\"high\"]", "(sleep.minutes ?? 1) > 0"])
            }
            switch generator.next(4) {
            case 0: return "(\(condition(depth - 1)) && \(condition(depth - 1)))"
            case 1: return "(\(condition(depth - 1)) || \(condition(depth - 1)))"
            case 2: return "!(\(condition(depth - 1)))"
            default: return "(\(number(depth - 1)) \(generator.pick(["<", "<=", ">", ">=", "==", "!="])) \(number(depth - 1)))"
            }
        }
        for index in 0..<2_000 {
            let text = condition(generator.next(4))
            let (compiled, diagnostics) = TestSchema.compile(text, .condition)
            guard let compiled else {
                // A divisor that reads no fact and folds to zero (`/ 0`, `/ (2.5 - 2.5)`) is
                // refused at load (type.division_by_zero); a divisor that is zero only at run
                // time is still evaluated below.
                if !diagnostics.isEmpty, diagnostics.allSatisfy({ $0.code == "type.division_by_zero" }), text.contains(" / ") { continue }
                Issue.record("well-typed tree did not check: \(text): \(diagnostics.map(\.message))")
                continue
            }
            let facts = TestSchema.facts(["sleep.minutes": index % 3 == 0 ? .unknown : .int(index)])
            var first = EvaluationContext(facts: facts)
            var second = EvaluationContext(facts: facts)
            let a = Result { () throws(EvaluationError) -> Value in try compiled.value(&first) }
            let b = Result { () throws(EvaluationError) -> Value in try compiled.value(&second) }
            #expect(a == b, "\(text)")
        }
    }
}
