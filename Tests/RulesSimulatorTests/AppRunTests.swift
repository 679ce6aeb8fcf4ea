import Foundation
import RulesEngine
import RulesExpression
import RulesSimulator
import RulesYAML
import Ruleset
import TestSupport
import Testing

/// What an app run is and reads, beyond what a scenario's expectations can say: a settings
/// change and a tool call are each one app run; after a westward trip the run reads `now` as
/// the day's start; a reminder delivered after its one-day setting is gone is evaluated, not
/// silently stale; a request after `skip_today` is refused, not a problem.
@Suite struct AppRunTests {
    static let ruleset = SimulatedDaysTests.ruleset

    static func run(_ yaml: String) throws -> SimulationResult {
        let scenario = try #require(SimulatedDaysTests.load(yaml).scenario)
        return Simulation.run(scenario, ruleset: ruleset)
    }

    static func appRuns(_ records: [EngineRecord]) -> [(cause: String, synced: Bool)] {
        records.compactMap { if case .appRun(let cause, let synced) = $0.kind { (cause.name, synced) } else { nil } }
    }

    @Test func aSettingsChangeIsAnAppRunWithItsCause() throws {
        let result = try Self.run(
            """
            name: settings
            date: 2026-07-06
            timezone: Asia/Seoul
            events:
              - { at: "08:00", app: open }
              - { at: "10:00", settings: { tone: cold_persistent } }
            """)
        #expect(Self.appRuns(result.records).map(\.cause) == ["open", "settings"])
        let trace = Trace.jsonLines(result, ruleset: Self.ruleset)
        #expect(trace.contains(#"{"at":"2026-07-06T10:00:00+09:00","kind":"app.run","cause":"settings","synced":false}"#))
    }

    /// `sync_health_data` accepted: one app run that syncs, not a tool run and an open.
    @Test func aToolCallIsOneAppRunWhateverTheToolDoes() throws {
        let result = try Self.run(
            """
            name: tool sync
            date: 2026-07-06
            timezone: Asia/Seoul
            health:
              permission: { steps: granted, sleep: granted }
              steps: { "07:00": 0, "12:00": 3000 }
            events:
              - { at: "12:00", tool_call: '{"name":"sync_health_data","arguments":{}}' }
              - { at: "12:10", tool_call: '{"name":"log_habit_event","arguments":{"routine":"water","value":250}}' }
            """)
        let runs = Self.appRuns(result.records)
        #expect(runs.map(\.cause) == ["tool_call", "tool_call"])
        #expect(runs.map(\.synced) == [true, false])
        let syncs = result.records.filter { if case .sync = $0.kind { true } else { false } }
        #expect(syncs.count == 1)
        #expect(result.states.last?.snapshot?.stepsToday == 3000)
    }

    /// The run at a westward change reads `now` as the day's start (04:00), and nothing it
    /// shows is dated before the day in progress.
    @Test(arguments: ["travel_new_york.yaml", "travel_date_line.yaml"])
    func aWestwardTripReadsTheDaysStartUntilTheClockReachesIt(_ name: String) throws {
        let scenario = try SimulatedDaysTests.scenario(name)
        let now = try #require(Self.ruleset.schema.fact(named: "now"))
        var atChange: [Value] = []
        _ = Simulation.run(
            scenario, ruleset: Self.ruleset,
            sink: KeepingAll { engine, records in
                if records.contains(where: { if case .timeZoneChanged = $0.kind { true } else { false } }), let facts = engine.currentFacts() {
                    atChange.append(facts[now.slot])
                }
            })
        #expect(atChange == [.time(4 * 3600)], "\(name)")
        let result = Simulation.run(scenario, ruleset: Self.ruleset)
        #expect(!result.records.contains { if case .riskChanged(_, .high) = $0.kind { true } else { false } }, "\(name)")
        #expect(!result.records.contains { if case .routeChanged(_, .recovery, _) = $0.kind { true } else { false } }, "\(name)")
        for record in result.records {
            if case .snapshot(let snapshot) = record.kind { #expect(DateFormat.string(snapshot.date) == "2026-07-06", "\(name)") }
        }
        #expect(result.closedDays.map { DateFormat.string($0.day) } == ["2026-07-06"])
    }

    /// The next day's reminder, planned while the one-day reminder setting held, is
    /// delivered with its condition evaluated for its routine: not stale, no problem.
    @Test func aReminderWhoseSettingIsGoneIsEvaluatedNotSilentlyStale() throws {
        let result = Simulation.run(try SimulatedDaysTests.scenario("reminder_one_day.yaml"), ruleset: Self.ruleset)
        let deliveries = result.records.compactMap { record -> (String, Bool)? in
            if case .notificationDelivered(let request, let stale) = record.kind { (request.id, stale) } else { nil }
        }
        #expect(deliveries.map(\.0) == ["routine_reminder.water.20260706", "routine_reminder.water.20260707"])
        #expect(deliveries.map(\.1) == [false, false])
        #expect(result.problems.isEmpty)
    }

    /// A condition that cannot be evaluated at the fire time is a problem naming its file
    /// and line, and does not hold.
    @Test func aConditionThatFailsAtTheFireTimeIsAProblem() throws {
        let engine = try #require(Self.engineLivingAReminder())
        let request = try #require(engine.pending.first { $0.type == "routine_reminder" })
        var other = request
        other.routine = "no_such_routine"
        let condition = engine.conditionAtFire(of: other, truth: nil)
        #expect(!condition.holds)
        #expect(condition.problems.count == 1)
        #expect(condition.problems.first?.contains("rules/notifications.yaml:") == true)
        #expect(condition.problems.first?.contains("routine.progress") == true)
        let fine = engine.conditionAtFire(of: request, truth: nil)
        #expect(fine.holds && fine.problems.isEmpty)
    }

    static func engineLivingAReminder() -> OperatorEngine? {
        guard let clock = LocalClock(identifier: "Asia/Seoul") else { return nil }
        var engine = OperatorEngine(ruleset: ruleset, clock: clock)
        engine.adopt(settings: ["routine_reminder": .bool(true), "reminders": .map(["water": .time(10 * 3600)])])
        _ = engine.run([.appOpened(health: nil)], now: clock.instant(day: DateFormat.days("2026-07-06") ?? 0, seconds: 8 * 3600))
        return engine
    }
}
