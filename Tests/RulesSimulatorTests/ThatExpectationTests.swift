import Foundation
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// `that:` expectations: a condition of the rule language on the facts after that minute's
/// events. A failure shows the value of every fact it read (and, for steps and sleep, when
/// HealthKit last synced); a condition that does not type-check is refused at load.
@Suite struct ThatExpectationTests {
    static let root = Fixtures.repositoryRoot()
    static let ruleset = Ruleset.load(directory: root).ruleset ?? Ruleset()

    static let day = """
        name: d
        date: 2026-07-10
        timezone: Asia/Seoul
        health:
          permission: { steps: granted, sleep: granted }
          sleep: { start: "02:00", end: "07:00" }
          steps: { "09:00": 1000, "18:00": 5000 }
        events:
          - { at: "08:00", app: open }
          - { at: "12:00", log: { routine: water, value: 500 } }
          - { at: "19:00", app: refresh }

        """

    /// (passed, expected, actual) of each expectation of `day` followed by `expect`.
    func outcomes(_ expect: String) throws -> [(Bool, String, String)] {
        let parsed = YAMLReader.parse(Self.day + "expect:\n" + expect, file: "d.yaml")
        let node = try #require(parsed.documents.first)
        let (scenario, diagnostics) = ScenarioLoader.load(node, file: "d.yaml", source: nil, ruleset: Self.ruleset)
        let loaded = try #require(scenario, "\(diagnostics.map(\.message))")
        return ExpectationChecker.check(Simulation.run(loaded, ruleset: Self.ruleset), ruleset: Self.ruleset).map {
            ($0.passed, $0.expected, $0.actual)
        }
    }

    @Test func aConditionThatHoldsPasses() throws {
        let results = try outcomes("  - { at: \"12:00\", that: \"water.ml >= 500 && route == \\\"light\\\"\" }\n")
        #expect(results.map(\.0) == [true], "\(results)")
    }

    /// A log is an app run without a sync: at 12:00 the app still knows 08:00's 0 steps, and
    /// the failure says so; after the 19:00 refresh it knows 5,000.
    @Test func aFailureShowsTheFactsItReadAndTheLastSync() throws {
        let results = try outcomes(
            "  - { at: \"12:00\", that: \"water.ml >= 500 && steps.today > 3000\" }\n  - { at: \"19:00\", that: \"steps.today > 3000\" }\n")
        #expect(results.count == 2)
        #expect(results.first?.0 == false)
        #expect(results.first?.1 == "water.ml >= 500 && steps.today > 3000 holds")
        #expect(results.first?.2 == "it does not (water.ml = 500, steps.today = 0, health.synced_at = 08:00)")
        #expect(results.last?.0 == true, "\(results)")
    }

    @Test func beforeTheFirstAppRunThereAreNoFacts() throws {
        let results = try outcomes("  - { at: \"07:00\", that: \"true\" }\n")
        #expect(results.first?.0 == false)
        #expect(results.first?.2 == "no app run before that time")
    }

    @Test func aConditionThatDoesNotTypeCheckIsRefusedAtItsPlace() throws {
        let parsed = YAMLReader.parse(Self.day + "expect:\n  - { at: \"12:00\", that: \"water.ml >= 5h\" }\n", file: "d.yaml")
        let node = try #require(parsed.documents.first)
        let (scenario, diagnostics) = ScenarioLoader.load(node, file: "d.yaml", source: nil, ruleset: Self.ruleset)
        #expect(scenario == nil)
        #expect(diagnostics.map { "\($0.location.line) \($0.code)" } == ["13 type.mismatch"], "\(diagnostics.map(\.message))")
    }
}
