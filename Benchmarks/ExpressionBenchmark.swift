import Foundation
import RulesExpression

/// ns per evaluation of typical conditions, against a hand-written Swift closure reading
/// the same facts from the same `FactValues`, in the same run.
enum ExpressionBenchmark {
    static let schema = FactSchema.standard(
        routineIDs: ["steps", "sleep", "water", "study"], settings: [("quiet", .bool)])

    struct Case {
        var source: String
        var native: (inout EvaluationContext) -> Bool
    }

    static func slot(_ name: String) -> Int { schema.fact(named: name)?.slot ?? 0 }

    static func cases() -> [Case] {
        let now = slot("now")
        let rate = slot("completion_rate")
        let quiet = slot("settings.quiet")
        let sleep = slot("sleep.minutes")
        let water = slot("routines.water.progress")
        return [
            Case(source: "now >= 21:00 && completion_rate < 0.6 && !settings.quiet") { context in
                guard case .time(let t) = context.facts[now], case .number(let r) = context.facts[rate], case .bool(let q) = context.facts[quiet]
                else { return false }
                let logical = t >= 4 * 3600 ? t - 4 * 3600 : t + 20 * 3600
                return logical >= 17 * 3600 && r < 0.6 && !q
            },
            Case(source: "(sleep.minutes ?? 420) < 360 || routines.water.progress >= 1.0") { context in
                var minutes = 420
                if case .int(let m) = context.facts[sleep] { minutes = m }
                if minutes < 360 { return true }
                guard case .number(let p) = context.facts[water] else { return false }
                return p >= 1.0
            },
        ]
    }

    /// 1,024 fact sets with varying time, rate, sleep (sometimes unknown) and progress.
    static func factSets() -> [FactValues] {
        var state: UInt64 = 1
        func random() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        return (0..<1024).map { _ in
            var facts = FactValues(schema: schema)
            facts.set("now", .time(Int(random() % 86_400)), in: schema)
            facts.set("completion_rate", .number(Double(random() % 100) / 100), in: schema)
            facts.set("settings.quiet", .bool(random() % 4 == 0), in: schema)
            facts.set("sleep.minutes", random() % 5 == 0 ? .unknown : .int(Int(random() % 600)), in: schema)
            facts.set("routines.water.progress", .number(Double(random() % 150) / 100), in: schema)
            return facts
        }
    }

    static func run() {
        let sets = factSets()
        let rounds = 400
        let evaluations = Double(sets.count * rounds)
        for benchmarkCase in cases() {
            guard let compiled = CompiledExpression.compile(benchmarkCase.source, schema: schema, expecting: .condition).expression else {
                print("expression.eval: \(benchmarkCase.source) did not compile")
                continue
            }
            // Both must agree on every fact set before they are timed.
            for facts in sets {
                var context = EvaluationContext(facts: facts)
                let interpreted = (try? compiled.isTrue(&context)) ?? false
                precondition(interpreted == benchmarkCase.native(&context), "benchmark disagrees on \(benchmarkCase.source)")
            }
            var contexts = sets.map { EvaluationContext(facts: $0) }
            var hits = 0
            let interpreted = Measure.best(runs: 5) {
                for _ in 0..<rounds {
                    for index in contexts.indices where (try? compiled.isTrue(&contexts[index])) == true { hits += 1 }
                }
            }
            let native = Measure.best(runs: 5) {
                for _ in 0..<rounds {
                    for index in contexts.indices where benchmarkCase.native(&contexts[index]) { hits += 1 }
                }
            }
            blackHole(hits)
            let interpretedNs = interpreted / evaluations * 1e9
            let nativeNs = native / evaluations * 1e9
            print("expression.eval: \(benchmarkCase.source)")
            print(
                "  interpreted: \(Measure.format(interpretedNs, decimals: 1)) ns   closure: \(Measure.format(nativeNs, decimals: 1)) ns   ratio: \(Measure.format(interpretedNs / nativeNs, decimals: 1))x (goal <= 10x)"
            )
        }
    }
}
