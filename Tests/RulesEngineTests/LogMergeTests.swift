import Foundation
import RulesDiagnostics
import Ruleset
import Testing

@testable import RulesEngine

/// A day of many taps: past 64 logs the oldest half merges per routine and source, never across
/// the start of a recovery route; totals stay exact, the state small and decodable, and the
/// app's run with the state restored gives what the engine that lived the day gives.
@Suite struct LogMergeTests {
    static let clock = EngineStateTests.seoul
    static let day = EngineStateTests.day
    static func at(_ seconds: Int) -> Date { clock.instant(day: day, seconds: seconds) }

    @Test func aDayOfTenThousandTapsKeepsItsTotalsInASmallState() throws {
        let prepared = PreparedRuleset(Shipped.ruleset)
        var engine = try #require(OperatorEngine(prepared: prepared, state: EngineState(ruleset: Shipped.ruleset, clock: Self.clock)))
        engine.handle(.appOpened(health: EngineStateTests.health(steps: 500)), at: Self.at(8 * 3600))
        for index in 0..<5_000 {
            engine.handle(.log(routine: "water", value: 1, unit: nil, source: .manual), at: Self.at(9 * 3600 + index / 2))
            engine.handle(.log(routine: "study", value: 0.5, unit: nil, source: index % 2 == 0 ? .manual : .timer), at: Self.at(9 * 3600 + index / 2))
        }
        #expect(engine.habitLogs.count <= InputLimits.maxLogsPerDay)
        #expect(engine.snapshot?.waterML == 5_000)
        let data = try engine.state.encoded()
        #expect(data.count < 1_048_576, "\(data.count) bytes")
        let state = try #require(EngineState.decode(data).state)
        #expect(state == engine.state)
        let total = engine.habitLogs.filter { $0.routine == "study" }.reduce(0) { $0 + $1.value }
        #expect(total == 2_500)
        // A merged log keeps the last id of its run: later ids stay unique and in order.
        let numbers = engine.habitLogs.map(\.number)
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
    }

    /// Water logged before the recovery route started never counts toward its water item,
    /// merged or not; water logged after does.
    @Test func mergingNeverCrossesTheStartOfARecoveryRoute() throws {
        let prepared = PreparedRuleset(Shipped.ruleset)
        var engine = try #require(OperatorEngine(prepared: prepared, state: EngineState(ruleset: Shipped.ruleset, clock: Self.clock)))
        engine.handle(.appOpened(health: EngineStateTests.health(steps: 500)), at: Self.at(8 * 3600))
        for index in 0..<150 { engine.handle(.log(routine: "water", value: 1, unit: nil, source: .manual), at: Self.at(9 * 3600 + index)) }
        engine.handle(.action(.startRecovery), at: Self.at(21 * 3600))
        // 299 ml after the start, then enough study taps that the merged half holds water
        // from both sides of the start: the 300 ml item is not done, though 449 ml were logged.
        for index in 0..<299 { engine.handle(.log(routine: "water", value: 1, unit: nil, source: .manual), at: Self.at(21 * 3600 + 60 + index)) }
        for index in 0..<800 {
            engine.handle(.log(routine: "study", value: 1, unit: nil, source: .manual), at: Self.at(21 * 3600 + 400 + index / 10))
        }
        #expect(engine.habitLogs.count <= InputLimits.maxLogsPerDay)
        #expect(engine.habitLogs.filter { $0.routine == "water" }.count == 2)
        func waterItem(_ engine: OperatorEngine) -> RoutineStatus? {
            engine.routeState?.items.first { $0.routine == "water" }?.status
        }
        #expect(waterItem(engine) != .completed)
        engine.handle(.log(routine: "water", value: 1, unit: nil, source: .manual), at: Self.at(21 * 3600 + 500))
        #expect(waterItem(engine) == .completed)
        #expect(engine.snapshot?.waterML == 450)
        // The app's way, restored from the saved state, decides the same.
        var state = engine.state
        let effects = OperatorEngine.run(
            &state, [.log(routine: "water", value: 1, unit: nil, source: .manual)], prepared, now: Self.at(21 * 3600 + 600))
        #expect(state.snapshot?.waterML == 451)
        #expect(effects.records.contains { if case .problem = $0.kind { true } else { false } } == false)
    }
}
