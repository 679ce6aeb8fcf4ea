import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// What the app knew after the events of one minute: for expectations and explanations.
public struct AppState: Sendable {
    public var at: Date
    public var day: Int
    public var route: RouteKind?
    public var risk: RiskLevel?
    public var snapshot: DailySnapshot?
    /// The engine as it was, kept only where an expectation looks (keeping every one
    /// would force copies of the engine's arrays at every event).
    public var engine: OperatorEngine?
    /// Without the engine (a run kept for its expectations only): the explanations and facts
    /// the expectations of that moment read, taken then.
    var keptExplanations: [String: Explanation] = [:]
    var keptFacts: FactValues?
    /// Every explanation saved at that moment, by decision.
    package var explanations: [String: Explanation] { engine?.explanations ?? keptExplanations }
    /// The facts of the last app run (for `that:` expectations).
    public var facts: FactValues? { engine?.currentFacts() ?? keptFacts }
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
public struct SimulationResult: Sendable {
    public var scenario: Scenario
    public var records: [EngineRecord]
    public var states: [AppState]
    public var closedDays: [DayClose]
    /// Problems met while simulating (responses to undelivered notifications, …).
    public var problems: [(origin: Origin, message: String)]
    /// The engine at the end (or at `--at`), for read-outs.
    public var engine: OperatorEngine
    /// Where the user's clock changed zone (a `timezone:` event), in time order.
    public var zones: [(from: Date, clock: LocalClock)] = []

    /// The clock in force at `instant`: the scenario's until its first zone change.
    public func clock(at instant: Date) -> LocalClock {
        zones.last { $0.from <= instant }?.clock ?? scenario.clock
    }

    /// The engine's state after the scenario's last event (or at `--at`), as the app saved
    /// it then: before the device's later deliveries and the day's close. Nil without events.
    public var stateAfterLastEvent: EngineState?

    /// The `day_starts_at` in force at the end (a scenario's own setting, else the ruleset's).
    public var dayStart: Int { engine.profile.dayStart(engine.ruleset) }

    /// The records grouped by logical day (in one pass: linear in days and records), keeping
    /// those `include` accepts.
    public func recordsByDay(including include: (EngineRecord) -> Bool = { _ in true }) -> [Int: [EngineRecord]] {
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
    public func state(at time: Date) -> AppState? {
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
public enum Simulation {
    /// Runs `scenario`; with `stop` (a day index and wall time) stops there.
    /// `observe` is called after every event and every day close with the engine and the
    /// records of that step (coverage uses it). With `restoreEachEvent` the engine's state
    /// goes to JSON and back into a fresh engine after every event and delivery, as the app
    /// does between runs: the records must not change.
    ///
    /// `responder` answers delivered notifications as a user would (a population's users): its
    /// answer comes as a response event `delay` seconds after the delivery, in time order with
    /// the other events and deliveries, if it falls within the same logical day. Without
    /// `retain`, records and states are only passed to `observe` (a population keeps none).
    /// `prepared`, when given for this ruleset, spares the engine working out its tables.
    /// `recordsKept: .decisions` keeps only the records of decisions (see `RecordsKept`).
    /// `expectationsOnly` keeps what `ExpectationChecker` reads and nothing more: records of
    /// deliveries, suppressions, problems, tool verdicts and day closes, and the app's state
    /// only where an expectation looks (a long run holds a fraction of its records).
    /// `dayDone`, when given, is handed each day's part of the run when the day has closed —
    /// a result of that one day: its records, its states (after the last one of the day
    /// before) and its close — and the run keeps nothing of a day after that:
    /// expectations checked day by day hold one day at a time, however long the run.
    /// `verification` is the engine's switch (`Verification`): `.recomputed` works out again
    /// everything an app run could keep from an earlier one (the records must not change);
    /// `.compared` does both at every step and records a difference as a problem.
    /// `explains: false` keeps nothing to explain (`OperatorEngine.explains`; a population's
    /// users): the records are the same.
    /// `start`: a saved state to go on from (as the app saved it; its clock must be the
    /// scenario's) instead of a fresh one; the scenario's `routines:` and settings apply
    /// over the state's, and iOS holds what the state says is pending.
    public static func run(
        _ scenario: Scenario, ruleset: Ruleset, stop: (day: Int, seconds: Int)? = nil, restoreEachEvent: Bool = false,
        observe: ((OperatorEngine, [EngineRecord]) -> Void)? = nil,
        responder: ((ScheduledNotification) -> (delay: Int, response: NotificationResponse)?)? = nil, retain: Bool = true,
        prepared: PreparedRuleset? = nil, recordsKept: RecordsKept = .all, start: EngineState? = nil, verification: Verification = .memoised,
        explains: Bool = true,
        expectationsOnly: Bool = false, dayDone: ((SimulationResult) -> Void)? = nil
    ) -> SimulationResult {
        // Prepared once for the run (a prepared ruleset is used only when it is this one): the
        // engine, a resumed state and every restore share it.
        let ready = prepared.flatMap { $0.ruleset.sha256 == ruleset.sha256 ? $0 : nil } ?? PreparedRuleset(ruleset)
        var engine: OperatorEngine
        if let start, let resumed = OperatorEngine(prepared: ready, state: start) {
            engine = resumed
            if let routines = scenario.routines { engine.useRoutines(Set(routines)) }
        } else {
            var profile = OperatorProfile(ruleset: ruleset)
            if let routines = scenario.routines { profile.enabledRoutines = Set(routines) }
            engine = OperatorEngine(prepared: ready, clock: scenario.clock, profile: profile)
        }
        engine.recordsKept = recordsKept
        engine.verification = verification
        engine.explains = explains
        var device = Device(pending: engine.pending)
        var records: [EngineRecord] = []
        var states: [AppState] = []
        var zones: [(from: Date, clock: LocalClock)] = []
        // With `dayDone`: the day's close, and the logical day records were handed up to.
        var closes: [DayClose] = []
        var handedDay = Int.min
        /// The records a result keeps (all, or what expectations read).
        func kept(_ batch: [EngineRecord]) -> [EngineRecord] {
            guard expectationsOnly else { return batch }
            return batch.filter { record in
                switch record.kind {
                case .notificationDelivered, .notificationSuppressed, .problem, .toolVerdict, .dayClosed, .timeZoneChanged: true
                default: false
                }
            }
        }
        var problems: [(Origin, String)] = []
        let clock = scenario.clock
        func restore(_ engine: inout OperatorEngine) {
            guard restoreEachEvent else { return }
            switch restored(engine, prepared: ready) {
            case .success(var fresh):
                fresh.recordsKept = recordsKept
                fresh.verification = verification
                fresh.explains = explains
                engine = fresh
            case .failure(let failure): problems.append((Origin(file: scenario.file, location: .fileStart), "state.restore: \(failure)"))
            }
        }
        func finish() -> SimulationResult {
            let closed = records.compactMap { record -> DayClose? in
                if case .dayClosed(let close) = record.kind { return close }
                return nil
            }
            return SimulationResult(
                scenario: scenario, records: records, states: states, closedDays: closed, problems: problems, engine: engine,
                zones: zones, stateAfterLastEvent: lastEventState)
        }
        // Responses a responder has decided on, soonest first.
        var answers: [(time: Date, id: String, response: NotificationResponse)] = []
        var dayEnd = Date.distantFuture
        /// Lets time pass until `time`: deliveries and (with a responder) the answers to them,
        /// one at a time in time order.
        func pass(until time: Date, truth: @escaping (Date) -> HealthReading?) -> [EngineRecord] {
            guard let responder else { return device.run(&engine, until: time, truth: truth, after: restore) }
            var out: [EngineRecord] = []
            while true {
                let delivery = device.pending.first?.scheduledAt
                if let answer = answers.first, answer.time <= time, delivery.map({ answer.time < $0 }) ?? true {
                    answers.removeFirst()
                    out += device.run(&engine, until: answer.time, truth: truth, after: restore)
                    let response = engine.records(
                        of: [.notificationResponse(id: answer.id, response: answer.response, health: truth(answer.time))], now: answer.time)
                    device.apply(response)
                    restore(&engine)
                    out += response
                    continue
                }
                guard let delivery, delivery <= time else { break }
                let delivered = device.run(&engine, until: delivery, truth: truth, after: restore)
                out += delivered
                for record in delivered {
                    guard case .notificationDelivered(let request, _) = record.kind, let answer = responder(request) else { continue }
                    let at = record.at.addingTimeInterval(TimeInterval(answer.delay))
                    guard at < dayEnd else { continue }
                    let index = answers.firstIndex { $0.time > at } ?? answers.endIndex
                    answers.insert((at, request.id, answer.response), at: index)
                }
            }
            return out + device.run(&engine, until: time, truth: truth, after: restore)
        }
        var lastEventTime: Date?
        var lastEventState: EngineState?
        let lastEventDay = scenario.days.lastIndex { !$0.events.isEmpty }
        // The user's settings from day to day: the top level's, then every `settings` event
        // (a change from then on). A day's own settings hold for that day only.
        var carried = engine.profile.settings.merging(scenario.settings) { _, top in top }
        for (dayIndex, day) in scenario.days.enumerated() {
            // The zone in force at the day's start (after earlier days' zone changes).
            let dayClock = day.clock ?? clock
            let truthFunction = truth(day, engine: engine, ruleset: ruleset)
            let daySettings = carried.merging(day.settings) { _, own in own }
            if daySettings != engine.profile.settings {
                // They hold from the day's start.
                let start = dayClock.instant(day: day.date, seconds: engine.profile.dayStart(ruleset))
                let passed = pass(until: start, truth: truthFunction)
                if retain { records += kept(passed) }
                observe?(engine, passed)
                engine.useSettings(daySettings)
            }
            let start = engine.profile.dayStart(ruleset)
            dayEnd = dayClock.instant(day: day.date + 1, seconds: start)
            answers.removeAll()
            // A day without any event still opens (and so closes and is judged).
            if engine.currentDay == nil { engine.openDay(at: dayClock.instant(day: day.date, seconds: start)) }
            let health = day.health
            let dayTruth = truth(day, engine: engine, ruleset: ruleset)
            // Instants where an expectation reads the app's state.
            let looking = day.expectations.compactMap { expectation in
                expectation.seconds.map {
                    ((expectation.clock ?? dayClock).instant(logicalDay: day.date, seconds: $0, dayStart: start), expectation.reads)
                }
            }
            let looks = looking.map(\.0)
            // Explanations an expectation without a moment may read (the day's last state has them).
            let anytime = day.expectations.filter { $0.seconds == nil }.flatMap(\.reads.keys)
            for (eventIndex, event) in day.events.enumerated() {
                // Events happen in file order: one after a time a DST gap moved forward
                // (02:30 → 03:30) happens with it, not before it.
                let time = max(
                    (event.clock ?? dayClock).instant(logicalDay: day.date, seconds: event.seconds, dayStart: start), lastEventTime ?? .distantPast)
                lastEventTime = time
                if let stop, dayIndex == stop.day, logical(of: event.seconds, dayStart: start) > logical(of: stop.seconds, dayStart: start) { break }
                let delivered = pass(until: time, truth: dayTruth)
                if retain { records += kept(delivered) }
                observe?(engine, delivered)
                // Where the day's health stands: the wall time it happens at (a time a DST
                // change skips happens the gap later).
                let position = logical(of: dayClock.local(time).seconds, dayStart: start)
                let reading = health.reading(at: position, dayStart: start)
                let output = engine.records(of: [engineEvent(event.kind, reading: reading)], now: time)
                for record in output {
                    if case .problem(let code, let message) = record.kind {
                        problems.append((event.origin, code == .notDelivered ? "scenario.not_delivered: \(message)" : message))
                    }
                }
                if case .settings(let values) = event.kind {
                    for (key, value) in values where engine.profile.settings[key] == value { carried[key] = value }
                }
                if case .timeZone = event.kind, output.contains(where: { if case .timeZoneChanged = $0.kind { true } else { false } }) {
                    zones.append((time, engine.clock))
                }
                device.apply(output)
                restore(&engine)
                if retain { records += kept(output) }
                observe?(engine, output)
                if dayIndex == lastEventDay, eventIndex == day.events.count - 1 { lastEventState = engine.state }
                let next =
                    eventIndex + 1 < day.events.count
                    ? (day.events[eventIndex + 1].clock ?? dayClock).instant(
                        logicalDay: day.date, seconds: day.events[eventIndex + 1].seconds, dayStart: start) : Date.distantFuture
                let looked = looks.contains { $0 >= time && $0 < next }
                // (A day's last state too: a later day without events reads it.)
                guard retain, looked || !expectationsOnly || eventIndex == day.events.count - 1 else { continue }
                var state = AppState(
                    at: time, day: day.date, route: engine.routeState?.route, risk: engine.snapshot?.risk, snapshot: engine.snapshot,
                    engine: looked && !expectationsOnly ? engine.forReading : nil)
                if expectationsOnly {
                    // Only what this moment's expectations read: a long run keeps no engines.
                    let due = looking.filter { $0.0 >= time && $0.0 < next }.map(\.1)
                    let keys = Set(due.flatMap(\.keys) + (eventIndex == day.events.count - 1 ? anytime : []))
                    if !keys.isEmpty {
                        let all = engine.explanations
                        for key in keys.sorted() { state.keptExplanations[key] = all[key] }
                    }
                    if due.contains(where: \.facts) { state.keptFacts = engine.currentFacts() }
                }
                states.append(state)
            }
            if let stop, dayIndex == stop.day {
                let end = dayClock.instant(logicalDay: day.date, seconds: stop.seconds, dayStart: start)
                records += pass(until: end, truth: dayTruth)
                lastEventState = engine.state
                return finish()
            }
            // Let the device act until the day closes (its end read in the zone in force).
            let close = engine.clock.instant(day: day.date + 1, seconds: engine.profile.dayStart(ruleset))
            let closing = pass(until: close, truth: dayTruth)
            restore(&engine)
            if retain { records += kept(closing) }
            observe?(engine, closing)
            if let dayDone { handOver(day, to: dayDone) }
        }
        return finish()

        /// Hands `day`'s part of the run over and forgets it (records of later days, which a
        /// close at a day's start can bring along, stay for their day).
        func handOver(_ day: ScenarioDay, to dayDone: (SimulationResult) -> Void) {
            let dayStart = engine.profile.dayStart(ruleset)
            var mine: [EngineRecord] = []
            var later: [EngineRecord] = []
            for record in records {
                let clock = zones.last { $0.from <= record.at }?.clock ?? scenario.clock
                handedDay = Swift.max(clock.logical(record.at, dayStart: dayStart).day, handedDay)
                if case .dayClosed(let close) = record.kind, close.day == day.date { closes.append(close) }
                if handedDay <= day.date { mine.append(record) } else { later.append(record) }
            }
            var part = scenario
            part.days = [day]
            dayDone(
                SimulationResult(
                    scenario: part, records: mine, states: states, closedDays: closes, problems: [], engine: engine, zones: zones,
                    stateAfterLastEvent: nil))
            records = later
            states = states.last.map { [$0] } ?? []
            closes = []
        }
    }

    /// The engine after a round trip of its state through JSON into a fresh engine.
    static func restored(_ engine: OperatorEngine, prepared: PreparedRuleset) -> Result<OperatorEngine, RestoreFailure> {
        let data: Data
        do { data = try engine.state.encoded() } catch { return .failure(RestoreFailure("the engine state did not encode: \(error)")) }
        let load = EngineState.decode(data)
        guard let state = load.state else { return .failure(RestoreFailure(load.diagnostics.first?.message ?? "the engine state did not decode")) }
        guard var fresh = OperatorEngine(prepared: prepared, state: state) else {
            return .failure(RestoreFailure("the engine state's time zone is unknown"))
        }
        // What was decided is the host's to keep (the app keeps none): the restored engine
        // adds its steps' decisions to the simulation's.
        fresh.decisions = engine.decisions
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
        let health = day.health
        return { instant in
            let (_, seconds) = clock.local(instant)
            return health.reading(at: logical(of: seconds, dayStart: start), dayStart: start)
        }
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
