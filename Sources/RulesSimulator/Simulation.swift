import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// What the app knew after the events of one minute: for expectations and explanations.
package struct AppState: Sendable {
    package var at: Date
    package var day: Int
    package var route: RouteKind?
    package var risk: RiskLevel?
    package var snapshot: DailySnapshot?
    /// The engine as it was, kept only where an expectation looks (keeping every one
    /// would force copies of the engine's arrays at every event).
    package var engine: OperatorEngine?
    /// Without the engine (a run kept for its expectations only): the explanations and facts
    /// the expectations of that moment read, taken then.
    var keptExplanations: [String: Explanation] = [:]
    var keptFacts: FactValues?
    /// Every explanation saved at that moment, by decision.
    package var explanations: [String: Explanation] { engine?.explanations ?? keptExplanations }
    /// The facts of the last app run (for `that:` expectations).
    package var facts: FactValues? { engine?.currentFacts() ?? keptFacts }
}

extension Expectation {
    /// What this expectation reads of the app's state at its moment: explanations by key,
    /// and whether the facts.
    var reads: (keys: [String], facts: Bool) {
        switch kind {
        case .route, .snapshot: (["route"], false)
        case .risk: (["risk"], false)
        case .that: ([], true)
        case .delivered(let type, _), .suppressed(let type, _): ([DecisionID.notification(type).name], false)
        case .verdict: (["tool"], false)
        default: ([], false)
        }
    }
}

/// The outcome of simulating a scenario: every record in time order, the app's state
/// after each event, and the closed days.
package struct SimulationResult: Sendable {
    package var scenario: Scenario
    package var records: [EngineRecord]
    package var states: [AppState]
    package var closedDays: [DayClose]
    /// Problems met while simulating (responses to undelivered notifications, …).
    package var problems: [(origin: Origin, message: String)]
    /// The engine at the end (or at `--at`), for read-outs.
    package var engine: OperatorEngine
    /// Where the user's clock changed zone (a `timezone:` event), in time order.
    package var zones: [(from: Date, clock: LocalClock)] = []

    /// The clock in force at `instant`: the scenario's until its first zone change.
    package func clock(at instant: Date) -> LocalClock {
        zones.last { $0.from <= instant }?.clock ?? scenario.clock
    }

    /// The engine's state after the scenario's last event (or at `--at`), as the app saved
    /// it then: before the device's later deliveries and the day's close. Nil without events.
    package var stateAfterLastEvent: EngineState?

    /// The `day_starts_at` in force at the end (a scenario's own setting, else the ruleset's).
    package var dayStart: Int { engine.profile.dayStart(engine.ruleset) }

    /// The records grouped by logical day (in one pass: linear in days and records), keeping
    /// those `include` accepts.
    package func recordsByDay(including include: (EngineRecord) -> Bool = { _ in true }) -> [Int: [EngineRecord]] {
        let start = dayStart
        var byDay: [Int: [EngineRecord]] = [:]
        var last = Int.min
        for record in records {
            // A day in progress keeps its date when the zone changes: days never go back.
            last = Swift.max(clock(at: record.at).logical(record.at, dayStart: start).day, last)
            if include(record) { byDay[last, default: []].append(record) }
        }
        return byDay
    }

    /// The state the app had at `time` (the last state saved at or before it). States are in
    /// time order: found by binary search (an expectation a day over 10,000 days scanned
    /// every state each time).
    package func state(at time: Date) -> AppState? {
        var low = 0
        var high = states.count
        while low < high {
            let middle = (low + high) / 2
            if states[middle].at <= time { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? states[low - 1] : nil
    }
}

/// Replays a scenario against a ruleset, modelling the device honestly: the app sees steps
/// only when it syncs (app runs and opened notifications, not widget actions), iOS
/// delivers what the last app run scheduled, and the widget shows the last saved snapshot.
package enum Simulation {
    /// Runs `scenario` as `options` say (where to stop, a responder, a saved state to go
    /// on from, the engine's switches), its records going to `sink` as they happen: a trace
    /// keeps all (`KeepingAll`), `rules test` what expectations read, day by day
    /// (`KeepingForExpectations`), a population nothing (`Streaming`).
    package static func run<Sink: RecordSink>(
        _ scenario: Scenario, ruleset: Ruleset, options: SimulationOptions = SimulationOptions(), sink: Sink
    ) -> SimulationResult {
        var driver = SimulationDriver(scenario, ruleset: ruleset, options: options, sink: sink)
        return driver.run()
    }

    /// Runs `scenario`, keeping every record and state.
    package static func run(_ scenario: Scenario, ruleset: Ruleset, options: SimulationOptions = SimulationOptions()) -> SimulationResult {
        run(scenario, ruleset: ruleset, options: options, sink: KeepingAll())
    }

    /// The engine after a round trip of its state through JSON into a fresh engine.
    static func restored(_ engine: OperatorEngine, prepared: PreparedRuleset) -> Result<OperatorEngine, RestoreFailure> {
        let data: Data
        do { data = try engine.state.encoded() } catch { return .failure(RestoreFailure("the engine state did not encode: \(error)")) }
        let load = EngineState.decode(data)
        guard let state = load.state else { return .failure(RestoreFailure(load.diagnostics.first?.message ?? "the engine state did not decode")) }
        // What was decided is the host's to keep (the app keeps none): the restored engine
        // adds its steps' decisions to the simulation's.
        guard let fresh = OperatorEngine(prepared: prepared, state: state, explainingOnFrom: engine) else {
            return .failure(RestoreFailure("the engine state's time zone is unknown"))
        }
        return .success(fresh)
    }

    struct RestoreFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The real health data at an instant of `day`.
    static func truth(_ day: ScenarioDay, engine: OperatorEngine, ruleset: Ruleset) -> (Date) -> HealthReading? {
        let clock = engine.clock
        let start = engine.profile.dayStart(ruleset)
        // Behind one reference: the closure's captures are handed down the device model's
        // calls, and the health data inline was copied (a retain per field) at each.
        let health = TruthBox(day.health)
        return { instant in
            let (_, seconds) = clock.local(instant)
            return health.value.reading(at: logical(of: seconds, dayStart: start), dayStart: start)
        }
    }

    private final class TruthBox: Sendable {
        let value: TrueHealth
        init(_ value: TrueHealth) { self.value = value }
    }

    static func engineEvent(_ kind: ScenarioEvent.Kind, reading: HealthReading) -> EngineEvent {
        switch kind {
        case .app: .appOpened(health: reading)
        case .log(let routine, let value, let unit, let source): .log(routine: routine, value: value, unit: unit, source: source)
        case .editLog(let id, let value): .editLog(id: id, value: value)
        case .deleteLog(let id): .deleteLog(id: id)
        case .check(let routine, let item): .check(routine: routine, item: item)
        case .uncheck(let routine, let item): .uncheck(routine: routine, item: item)
        case .action(let action): .action(action)
        // The host syncs when the engine accepts `sync_health_data`: the reading it would get.
        case .toolCall(let text): .toolCall(text, health: reading)
        case .notification(let id, let response): .notificationResponse(id: id, response: response, health: reading)
        case .settings(let values): .settings(values)
        case .widget(let intent): .widget(intent)
        case .timeZone(let name): .timeZoneChanged(name)
        }
    }
}
