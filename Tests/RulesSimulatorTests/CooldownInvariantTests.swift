import Foundation
import RulesEngine
import Ruleset
import TestSupport
import Testing

@testable import RulesSimulator

/// The cooldown invariant is the rule's own words — less than `category_cooldown` after the
/// last delivery of the category is a violation, whatever the day — checked on a trace the
/// engine made (none) and on the same trace judged by a ruleset it was not made under.
@Suite struct CooldownInvariantTests {
    static func violations(_ records: [EngineRecord], ruleset: Ruleset) -> [Invariants.Violation] {
        var invariants = Invariants(ruleset: ruleset, clock: LocalClock(identifier: "Asia/Seoul") ?? LocalClock(timeZone: .current))
        return records.flatMap { invariants.check($0) }.filter { $0.kind == .withinCooldown }
    }

    @Test(arguments: ["ignored_week.yaml", "daily_cap.yaml"])
    func theEnginesDeliveriesKeepTheCooldownAndALongerOneIsCaught(_ name: String) throws {
        let text = try String(contentsOfFile: Fixtures.repositoryRoot() + "/scenarios/" + name, encoding: .utf8)
        let scenario = try #require(SimulatedDaysTests.load(text).scenario)
        let records = Simulation.run(scenario, ruleset: SimulatedDaysTests.ruleset).records
        #expect(Self.violations(records, ruleset: SimulatedDaysTests.ruleset).isEmpty)
        // A world known to be wrong: the same deliveries under a cooldown of two days.
        var longer = SimulatedDaysTests.ruleset
        longer.policy.categoryCooldown = 48 * 3600
        var seen: [String: Int] = [:]
        for record in records { if case .notificationDelivered(let request, _) = record.kind { seen[request.category, default: 0] += 1 } }
        let repeated = seen.values.reduce(0) { $0 + Swift.max(0, $1 - 1) }
        #expect(repeated > 0, "\(name) delivers no category twice")
        let caught = Self.violations(records, ruleset: longer)
        #expect(caught.count == repeated, "\(caught.map(\.what))")
    }
}
