import Foundation
import ShippedRuleset
import Testing

@testable import RulesFit
@testable import RulesPopulation

/// `fit --check` measures the lived users one at a time, as each user's lines go out, and lets
/// them go; what it measures must be what reading them all and measuring afterwards gives.
@Suite struct FitCheckMeasureTests {
    final class Sides: @unchecked Sendable {
        let lock = NSLock()
        var whole: TelemetryReader
        var oneAtATime: TelemetryReader
        var measured: [(key: String, parts: [(Double, Double)])] = []
        var writes = 0
        var metrics: [(String, FitCheck.Parts)] = []
        init(_ dayStart: Int) {
            whole = TelemetryReader(dayStart: dayStart, mixed: .all)
            oneAtATime = whole
        }
    }

    @Test func usersMeasuredOneAtATimeAreUsersMeasuredAtTheEnd() throws {
        let ruleset = ShippedRuleset.ruleset
        let (real, _) = try PopulationFitTests.telemetry(PopulationFitTests.separated(seed: 4, users: 120, days: 7), randomize: 0.3)
        let metrics = FitCheck.metrics(real, dayStart: ruleset.dayStartsAt)
        #expect(metrics.count >= 20 && metrics.contains { $0.0.hasPrefix("trial.") }, "\(metrics.map(\.0))")
        let loaded = try PopulationTests.load(PopulationFitTests.separated(seed: 5, users: 90, days: 7), ruleset: ruleset)
        let population = try #require(loaded.population)
        var options = PopulationOptions(population: population, jobs: 2)
        options.randomize = 0.3
        let sides = Sides(ruleset.dayStartsAt)
        sides.metrics = metrics
        let blocks = TelemetryBlocks(count: options.users) { _ in
            TelemetryBlocks.BlockOutput(
                write: { text in
                    sides.lock.withLock {
                        sides.writes += 1
                        sides.whole.read(text: text, name: "whole")
                        sides.oneAtATime.read(text: text, name: "one")
                        for (key, user) in sides.oneAtATime.handOver() { sides.measured.append((key, sides.metrics.map { $0.1(user) })) }
                    }
                }, finish: { true })
        }
        _ = PopulationRun.run(population, ruleset: ruleset, options: options, telemetry: blocks)
        sides.whole.finish()
        #expect(sides.writes == 90 && sides.measured.count == 90 && sides.whole.users.count == 90)
        let atTheEnd = FitCheck.measured(sides.whole, metrics)
        let asTheyCame = FitCheck.measured(sides.measured, metrics: metrics.count)
        #expect(atTheEnd.count == metrics.count && asTheyCame.count == metrics.count)
        for (index, metric) in metrics.enumerated() {
            let same = zip(atTheEnd[index], asTheyCame[index]).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            #expect(same && atTheEnd[index].count == 90, "\(metric.0)")
        }
        // And the check's text, either way.
        let names = metrics.map(\.0)
        #expect(
            FitCheck(names: names, real: FitCheck.measured(real, metrics), fitted: asTheyCame).text
                == FitCheck(real: real, fitted: sides.whole, dayStart: ruleset.dayStartsAt).text)
    }
}
