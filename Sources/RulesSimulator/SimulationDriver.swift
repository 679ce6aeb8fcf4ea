import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// One run of a scenario, day by day: the engine, the device that delivers what the app
/// scheduled, the answers of a responder, and what goes to the sink. `Simulation.run` makes
/// one and runs it; each part of a day is a method of its own.
struct SimulationDriver<Sink: RecordSink> {
    let scenario: Scenario
    let ruleset: Ruleset
    let options: SimulationOptions
    /// Prepared once for the run: the engine, a resumed state and every restore share it.
    let ready: PreparedRuleset
    /// `--restore-each-event`'s round trip, with the run's switches.
    let restorer: Restorer
    var sink: Sink
    var engine: OperatorEngine
    var device: Device
    var records: [EngineRecord] = []
    var states: [AppState] = []
    var zones: [(from: Date, clock: LocalClock)] = []
    var problems: [(Origin, String)] = []
    /// Responses to a notification not yet delivered, by the problem's place: the type, when,
    /// and the day; explained at the day's end with when it was delivered, if it was.
    var notDelivered: [(problem: Int, type: String, at: Date, day: Int)] = []
    /// With a sink that takes days over: the closes of the day being handed over, and the
    /// logical day records were handed up to.
    var closes: [DayClose] = []
    var handedDay = Int.min
    /// Responses a responder has decided on, soonest first.
    var answers: [(time: Date, id: String, event: Answer.Event)] = []
    var dayEnd = Date.distantFuture
    var lastEventTime: Date?
    var lastEventState: EngineState?
    /// The user's settings from day to day: the top level's, then every `settings` event (a
    /// change from then on). A day's own settings hold for that day only.
    var carried: [String: Value]

    init(_ scenario: Scenario, ruleset: Ruleset, options: SimulationOptions, sink: Sink) {
        self.scenario = scenario
        self.ruleset = ruleset
        self.options = options
        self.sink = sink
        // A prepared ruleset is used only when it is this one.
        ready = options.prepared.flatMap { $0.ruleset.sha256 == ruleset.sha256 ? $0 : nil } ?? PreparedRuleset(ruleset)
        if let start = options.start, let resumed = OperatorEngine(prepared: ready, state: start) {
            engine = resumed
            if let routines = scenario.routines { engine.useRoutines(Set(routines)) }
        } else {
            var profile = OperatorProfile(ruleset: ruleset)
            if let routines = scenario.routines { profile.enabledRoutines = Set(routines) }
            engine = OperatorEngine(prepared: ready, clock: scenario.clock, profile: profile)
        }
        restorer = Restorer(options: options, prepared: ready)
        restorer.configure(&engine)
        device = Device(pending: engine.pending, verification: options.verification)
        carried = engine.profile.settings.merging(scenario.settings) { _, top in top }
    }

    /// Lives every day (up to `options.stop`) and returns the result.
    mutating func run() -> SimulationResult {
        let lastEventDay = scenario.days.lastIndex { !$0.events.isEmpty }
        for (index, day) in scenario.days.enumerated() {
            if live(day, index: index, lastEventDay: lastEventDay) { break }
        }
        return result()
    }

    /// The result of the run so far.
    func result() -> SimulationResult {
        let closed = records.compactMap { record -> DayClose? in
            if case .dayClosed(let close) = record.kind { return close }
            return nil
        }
        return SimulationResult(
            scenario: scenario, records: records, states: states, closedDays: closed, problems: problems, engine: engine, zones: zones,
            stateAfterLastEvent: lastEventState)
    }

    /// Lives one day: its settings, its events, then the device until the day closes. True
    /// when the run stopped in it.
    private mutating func live(_ day: ScenarioDay, index dayIndex: Int, lastEventDay: Int?) -> Bool {
        // The zone in force at the day's start (after earlier days' zone changes).
        let dayClock = day.clock ?? scenario.clock
        applySettings(of: day, clock: dayClock)
        let start = engine.profile.dayStart(ruleset)
        dayEnd = dayClock.instant(day: day.date + 1, seconds: start)
        answers.removeAll()
        // A day without any event still opens (and so closes and is judged).
        if engine.currentDay == nil {
            let open = dayClock.instant(day: day.date, seconds: start)
            // Opening records nothing of its own; a difference the switch found is told.
            for record in options.verification.step(&engine, at: open, { $0.openDay(at: open) }) {
                if case .problem(.memoMismatch, let message) = record.kind {
                    problems.append((Origin(file: scenario.file, location: .fileStart), message))
                }
            }
        }
        let truth = Simulation.truth(day, engine: engine, ruleset: ruleset)
        let looks = Looks(day, clock: dayClock, dayStart: start)
        for (eventIndex, event) in day.events.enumerated() {
            // Events happen in file order: one after a time a DST gap moved forward
            // (02:30 → 03:30) happens with it, not before it.
            let time = max(
                (event.clock ?? dayClock).instant(logicalDay: day.date, seconds: event.seconds, dayStart: start), lastEventTime ?? .distantPast)
            lastEventTime = time
            if let stop = options.stop, dayIndex == stop.day,
                logical(of: event.seconds, dayStart: start) > logical(of: stop.seconds, dayStart: start)
            {
                break
            }
            took(pass(until: time, truth: truth))
            happen(event, at: time, in: day, clock: dayClock, dayStart: start)
            if dayIndex == lastEventDay, eventIndex == day.events.count - 1 { lastEventState = engine.state }
            let next =
                eventIndex + 1 < day.events.count
                ? (day.events[eventIndex + 1].clock ?? dayClock).instant(
                    logicalDay: day.date, seconds: day.events[eventIndex + 1].seconds, dayStart: start) : Date.distantFuture
            keepState(at: time, until: next, day: day, looks: looks, last: eventIndex == day.events.count - 1)
        }
        if let stop = options.stop, dayIndex == stop.day {
            let end = dayClock.instant(logicalDay: day.date, seconds: stop.seconds, dayStart: start)
            records += pass(until: end, truth: truth)
            lastEventState = engine.state
            return true
        }
        // Let the device act until the day closes (its end read in the zone in force).
        let close = engine.clock.instant(day: day.date + 1, seconds: engine.profile.dayStart(ruleset))
        let closing = pass(until: close, truth: truth)
        restore()
        took(closing)
        explainNotDelivered(day.date)
        if sink.handsOverDays { handOver(day) }
        return false
    }

    /// The day's settings (the carried ones with its own over them), from the day's start.
    private mutating func applySettings(of day: ScenarioDay, clock: LocalClock) {
        let daySettings = carried.merging(day.settings) { _, own in own }
        guard daySettings != engine.profile.settings else { return }
        let start = clock.instant(day: day.date, seconds: engine.profile.dayStart(ruleset))
        took(pass(until: start, truth: Simulation.truth(day, engine: engine, ruleset: ruleset)))
        engine.useSettings(daySettings)
    }

    /// One event of the scenario: the engine's records of it, its problems, the settings it
    /// carries on and the zone it moves to.
    private mutating func happen(_ event: ScenarioEvent, at time: Date, in day: ScenarioDay, clock: LocalClock, dayStart start: Int) {
        // Where the day's health stands: the wall time it happens at (a time a DST change
        // skips happens the gap later).
        let position = logical(of: clock.local(time).seconds, dayStart: start)
        let reading = day.health.reading(at: position, dayStart: start)
        let output = options.verification.run(&engine, [Simulation.engineEvent(event.kind, reading: reading)], now: time).records
        for record in output {
            if case .problem(let code, let message) = record.kind {
                guard code == .notDelivered, case .notification(let id, _) = event.kind else {
                    problems.append((event.origin, message))
                    continue
                }
                notDelivered.append((problems.count, id, time, day.date))
                problems.append(
                    (
                        event.origin,
                        "scenario.not_delivered: no notification '\(id)' was delivered by \(TimeFormat.clock(clock.local(time).seconds)) that day"
                    ))
            }
        }
        if case .settings(let values) = event.kind {
            for (key, value) in values where engine.profile.settings[key] == value { carried[key] = value }
        }
        if case .timeZone = event.kind, output.contains(where: { if case .timeZoneChanged = $0.kind { true } else { false } }) {
            zones.append((time, engine.clock))
        }
        device.apply(output)
        restore()
        took(output)
    }

    /// A step's records: kept as the sink keeps them, and shown to it.
    private mutating func took(_ batch: [EngineRecord]) {
        options.afterRun?(engine)
        switch sink.keeping {
        case .all: records += batch
        case .expectations: records += batch.filter { EngineRecord.readByExpectations($0) }
        case .none: break
        }
        sink.step(batch, engine: engine)
    }

    /// The app's state after the event at `time` (until the next event at `next`): every
    /// one when all is kept; else only where an expectation looks, and the day's last (a
    /// later day without events reads it), holding only what those expectations read.
    private mutating func keepState(at time: Date, until next: Date, day: ScenarioDay, looks: Looks, last: Bool) {
        guard sink.keeping != .none else { return }
        let expectationsOnly = sink.keeping == .expectations
        let looked = looks.at.contains { $0.0 >= time && $0.0 < next }
        guard looked || !expectationsOnly || last else { return }
        var state = AppState(
            at: time, day: day.date, route: engine.routeState?.route, risk: engine.snapshot?.risk, snapshot: engine.snapshot,
            engine: looked && !expectationsOnly ? engine.forReading : nil)
        if expectationsOnly {
            // Only what this moment's expectations read: a long run keeps no engines.
            let due = looks.at.filter { $0.0 >= time && $0.0 < next }.map(\.1)
            let keys = Set(due.flatMap(\.keys) + (last ? looks.anytime : []))
            if !keys.isEmpty {
                let all = engine.explanations
                for key in keys.sorted() { state.keptExplanations[key] = all[key] }
            }
            if due.contains(where: \.facts) { state.keptFacts = engine.currentFacts() }
        }
        states.append(state)
    }

    /// Lets time pass until `time`: deliveries and (with a responder) the answers to them,
    /// one at a time in time order.
    private mutating func pass(until time: Date, truth: @escaping (Date) -> HealthReading?) -> [EngineRecord] {
        guard let responder = options.responder else { return deliver(until: time, truth: truth) }
        var out: [EngineRecord] = []
        while true {
            let delivery = device.pending.first?.scheduledAt
            if let answer = answers.first, answer.time <= time, delivery.map({ answer.time < $0 }) ?? true {
                answers.removeFirst()
                out += deliver(until: answer.time, truth: truth)
                let event: EngineEvent
                switch answer.event {
                case .response(let response): event = .notificationResponse(id: answer.id, response: response, health: truth(answer.time))
                case .log(let routine, let value): event = .log(routine: routine, value: value, unit: nil, source: .manual)
                case .check(let routine, let item): event = .check(routine: routine, item: item)
                case .settings(let values): event = .settings(values)
                }
                let response = options.verification.run(&engine, [event], now: answer.time).records
                // A setting the user changed stays changed on the days after, as a scenario's does.
                if case .settings(let values) = answer.event {
                    for (key, value) in values where engine.profile.settings[key] == value { carried[key] = value }
                }
                device.apply(response)
                restore()
                out += response
                options.afterRun?(engine)
                continue
            }
            guard let delivery, delivery <= time else { break }
            let delivered = deliver(until: delivery, truth: truth)
            out += delivered
            for record in delivered {
                guard case .notificationDelivered(let request, _) = record.kind else { continue }
                for answer in responder(request, engine) {
                    let at = record.at.addingTimeInterval(TimeInterval(answer.delay))
                    guard at < dayEnd else { continue }
                    let index = answers.firstIndex { $0.time > at } ?? answers.endIndex
                    answers.insert((at, request.id, answer.event), at: index)
                }
            }
        }
        return out + deliver(until: time, truth: truth)
    }

    /// The device's deliveries until `time`, the engine restored after each when asked.
    private mutating func deliver(until time: Date, truth: @escaping (Date) -> HealthReading?) -> [EngineRecord] {
        guard restorer.restoresEachEvent else { return device.run(&engine, until: time, truth: truth) { _ in } }
        let restorer = restorer
        var failures: [String] = []
        let out = device.run(&engine, until: time, truth: truth) { engine in
            if let failure = restorer.restore(&engine) { failures.append(failure) }
        }
        for failure in failures { problems.append((Origin(file: scenario.file, location: .fileStart), failure)) }
        return out
    }

    /// The engine restored from its saved state, when the options ask for it.
    private mutating func restore() {
        if restorer.restoresEachEvent, let failure = restorer.restore(&engine) {
            problems.append((Origin(file: scenario.file, location: .fileStart), failure))
        }
    }

    /// Hands `day`'s part of the run over and forgets it (records of later days, which a
    /// close at a day's start can bring along, stay for their day).
    /// A response that came before its notice: "not delivered by 20:30" says when the response
    /// was; the day's records say whether the notice came later ("delivered at 21:00"), which
    /// is what a moved notice looks like.
    private mutating func explainNotDelivered(_ date: Int) {
        for entry in notDelivered where entry.day == date {
            let later = records.first { record in
                guard record.at > entry.at, case .notificationDelivered(let request, _) = record.kind else { return false }
                return (request.type == entry.type || request.id == entry.type) && request.day == date
            }
            guard let later, entry.problem < problems.count else { continue }
            let clock = zones.last { $0.from <= later.at }?.clock ?? scenario.clock
            problems[entry.problem].1 += " (delivered at \(TimeFormat.clock(clock.local(later.at).seconds)))"
        }
        notDelivered.removeAll { $0.day == date }
    }

    private mutating func handOver(_ day: ScenarioDay) {
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
        let taken = sink.dayClosed(
            SimulationResult(
                scenario: part, records: mine, states: states, closedDays: closes, problems: [], engine: engine, zones: zones,
                stateAfterLastEvent: nil))
        guard taken else { return }
        records = later
        states = states.last.map { [$0] } ?? []
        closes = []
    }
}

/// Where the expectations of a day look: the instants they read the app's state at (with
/// what they read), and the explanations an expectation without a moment may read (the
/// day's last state has them).
struct Looks {
    var at: [(Date, (keys: [String], facts: Bool))]
    var anytime: [String]

    init(_ day: ScenarioDay, clock: LocalClock, dayStart start: Int) {
        at = day.expectations.compactMap { expectation in
            expectation.seconds.map {
                ((expectation.clock ?? clock).instant(logicalDay: day.date, seconds: $0, dayStart: start), expectation.reads)
            }
        }
        anytime = day.expectations.filter { $0.seconds == nil }.flatMap(\.reads.keys)
    }
}

/// The round trip of `--restore-each-event`: the engine's state through JSON into a fresh
/// engine with the run's switches.
struct Restorer {
    let restoresEachEvent: Bool
    let prepared: PreparedRuleset
    let recordsKept: RecordsKept
    let explains: Bool

    init(options: SimulationOptions, prepared: PreparedRuleset) {
        restoresEachEvent = options.restoreEachEvent
        self.prepared = prepared
        recordsKept = options.recordsKept
        explains = options.explains
    }

    /// The run's switches on `engine`.
    func configure(_ engine: inout OperatorEngine) {
        engine.recordsKept = recordsKept
        engine.explains = explains
    }

    /// Restores `engine` when the options ask for it; the failure's text when it fails (the
    /// engine then goes on as it was).
    func restore(_ engine: inout OperatorEngine) -> String? {
        guard restoresEachEvent else { return nil }
        switch Simulation.restored(engine, prepared: prepared) {
        case .success(var fresh):
            configure(&fresh)
            engine = fresh
            return nil
        case .failure(let failure): return "state.restore: \(failure)"
        }
    }
}

extension EngineRecord {
    /// Whether expectations read a record of this kind (a run that keeps only what they read
    /// keeps these). Outside the generic driver, so filtering captures no metatype.
    static func readByExpectations(_ record: EngineRecord) -> Bool {
        switch record.kind {
        case .notificationDelivered, .notificationSuppressed, .problem, .toolVerdict, .dayClosed, .timeZoneChanged: true
        default: false
        }
    }
}
