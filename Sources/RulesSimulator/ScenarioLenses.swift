import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// What the scenarios say about each rule, for an editor's code lenses: each scenario's
/// expectations passed and failed, each notification type's delivery days, and for each
/// threshold of a condition the days whose app runs saw its fact on each side.
package struct ScenarioLenses: Sendable {
    package struct Threshold: Sendable, Hashable {
        /// Where the condition is (`rules/route.yaml`, its line).
        package var file: String
        package var line: Int
        /// `sleep.minutes < 360`.
        package var text: String
        /// Days on which an app run saw a value where it holds, and where it fails.
        package var holdsDays: Int
        package var failsDays: Int
        /// The values seen nearest the constant where it holds and where it fails.
        package var nearestHolding: String?
        package var nearestFailing: String?
    }

    /// Per scenario file: expectations passed and failed.
    package var scenarios: [String: (passed: Int, failed: Int)] = [:]
    /// Per notification type: days delivered.
    package var delivered: [String: Int] = [:]
    /// Scenario days lived.
    package var days = 0
    package var thresholds: [Threshold] = []

    package init() {}

    /// Lives every scenario (file name and scenario) under `ruleset`.
    package static func compute(_ scenarios: [(file: String, scenario: Scenario)], ruleset: Ruleset) -> ScenarioLenses {
        var lenses = ScenarioLenses()
        var sites: [(file: String, line: Int, threshold: RulesExpression.Threshold, text: String)] = []
        func add(_ expression: CompiledExpression?, _ origin: Origin?) {
            guard let expression, let origin else { return }
            for threshold in RulesExpression.Threshold.extract(from: expression.typed) {
                sites.append((origin.file, origin.location.line, threshold, threshold.text(in: expression.source)))
            }
        }
        for entry in ruleset.route { add(entry.when, entry.whenOrigin) }
        for entry in ruleset.risk { add(entry.when, entry.whenOrigin) }
        for entry in ruleset.judgement?.day ?? [] { add(entry.when, entry.whenOrigin) }
        for rule in ruleset.notifications { add(rule.when, rule.whenOrigin) }
        var sides = Array(repeating: (holds: Set<String>(), fails: Set<String>()), count: sites.count)
        var nearest = Array(repeating: NearestSides(), count: sites.count)
        let schema = ruleset.perRoutineSchema
        for (file, scenario) in scenarios {
            var outcomes: [ExpectationResult] = []
            var deliveredDays: [String: Set<Int>] = [:]
            _ = Simulation.run(
                scenario, ruleset: ruleset,
                sink: KeepingForExpectations(
                    observe: { engine, records in
                        for record in records {
                            if case .notificationDelivered(let n, _) = record.kind { deliveredDays[n.type, default: []].insert(n.day) }
                        }
                        guard let facts = engine.currentFacts(), let day = engine.currentDay else { return }
                        for (index, site) in sites.enumerated() {
                            for value in RuleCoverage.values(of: site.threshold.fact, in: facts, schema: schema, ruleset: ruleset) {
                                guard let holds = nearest[index].see(value, site.threshold, dayStart: ruleset.dayStartsAt) else { continue }
                                if holds { sides[index].holds.insert("\(file)#\(day)") } else { sides[index].fails.insert("\(file)#\(day)") }
                            }
                        }
                    }, dayDone: { outcomes += ExpectationChecker.check($0, ruleset: ruleset) }))
            lenses.scenarios[file] = (outcomes.count { $0.passed }, outcomes.count { !$0.passed })
            lenses.days += scenario.days.count
            for (type, days) in deliveredDays { lenses.delivered[type, default: 0] += days.count }
        }
        lenses.thresholds = sites.enumerated().map { index, site in
            Threshold(
                file: site.file, line: site.line, text: site.text, holdsDays: sides[index].holds.count, failsDays: sides[index].fails.count,
                nearestHolding: nearest[index].holds.map(RuleCoverage.shown),
                nearestFailing: nearest[index].fails.map(RuleCoverage.shown))
        }
        return lenses
    }
}
