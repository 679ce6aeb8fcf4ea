import Foundation
import Ruleset
import TestSupport
import Testing

@testable import RulesEngine

/// "After the route started" means after the app run that started it: only the log, tick or
/// tool call of that run itself does not count toward an item — a later run in the same minute
/// does.
@Suite struct RouteStartTests {
    typealias State = EngineStateTests

    /// An evening with nothing done: the 21:00 run starts the recovery route (water 300 ml and
    /// 양치; no steps permission, so the walking item is left out).
    func evening() throws -> OperatorEngine {
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: State.seoul, profile: OperatorProfile(ruleset: Shipped.ruleset))
        let denied = HealthReading(stepsPermission: .denied, sleepPermission: .granted, stepsToday: nil, stepsAverage7: nil, sleepMinutes: 420)
        engine.handle(.appOpened(health: denied), at: State.at(21))
        let route = try #require(engine.routeState)
        #expect(route.route == .recovery)
        #expect(route.items.map(\.routine).sorted() == ["skincare", "water"], "\(route.items)")
        return engine
    }

    @Test func aTickInALaterRunOfTheStartingMinuteCounts() throws {
        var engine = try evening()
        // Its own app run, after the one that started the route, in the same minute.
        engine.handle(.check(routine: "skincare", item: "양치"), at: State.at(21))
        let item = try #require(engine.routeState?.items.first { $0.routine == "skincare" })
        #expect(item.status == .completed, "\(item)")
        engine.handle(.log(routine: "water", value: 300, unit: nil, source: .manual), at: State.at(21))
        #expect(engine.routeState?.items.allSatisfy { $0.status == .completed } == true, "\(engine.routeState?.items ?? [])")
    }

    /// The starting run's own tick never counts: the route leaves out an item already ticked
    /// when it starts, so a tick that starts the route is not among its items.
    @Test func theStartingRunsOwnTickIsLeftOut() throws {
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: State.seoul, profile: OperatorProfile(ruleset: Shipped.ruleset))
        engine.handle(.check(routine: "skincare", item: "양치"), at: State.at(21))
        let route = try #require(engine.routeState)
        #expect(route.route == .recovery)
        #expect(!route.items.contains { $0.routine == "skincare" }, "\(route.items)")
    }
}
