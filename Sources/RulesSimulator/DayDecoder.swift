import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// Reads the days of a scenario in order: each day's date, health (carried over from the
/// day before), settings, events (in time order, zone changes and DST gaps accounted for)
/// and expectations.
struct DayDecoder: ScenarioDecoding {
    let ruleset: Ruleset
    /// The kinds (`steps`, `sleep`) whose permission a day so far (or the top-level health)
    /// stated, and those whose unread samples were already reported (once per scenario).
    var permissionStated: Set<String> = []
    var unreadReported: Set<String> = []
    /// The clock in force: the scenario's `timezone:`, then each `timezone:` event's (for
    /// reading wall times and times a DST change skips).
    var clock: LocalClock?

    mutating func day(
        _ fields: Fields, node: YAMLNode, health: inout TrueHealth, settings base: [String: Value], healthDefaults: YAMLNode? = nil,
        firstDay: Bool = true, _ reader: inout NodeReader
    ) -> ScenarioDay? {
        guard let date = date(fields, &reader) else { return nil }
        carryHealth(fields, into: &health, defaults: healthDefaults, firstDay: firstDay, &reader)
        let daySettings = fields["settings"].map { settings($0, &reader) } ?? [:]
        let dayStart = OperatorProfile.dayStart(base.merging(daySettings) { _, own in own }, ruleset)
        let dayClock = clock
        let (read, changes) = events(fields, date: date, dayStart: dayStart, &reader)
        let events = inInstantOrder(read, date: date, dayStart: dayStart, &reader)
        let expectations = expectations(fields, date: date, dayStart: dayStart, clock: dayClock, changes: changes, &reader)
        return ScenarioDay(
            date: date, health: health, settings: daySettings, events: events, expectations: expectations, origin: reader.origin(node),
            clock: dayClock)
    }

    /// The day's `date:`: a date the engine can live and close.
    private func date(_ fields: Fields, _ reader: inout NodeReader) -> Int? {
        guard let dateNode = fields["date"], let text = reader.string(dateNode, key: "date") else { return nil }
        guard let date = DateFormat.days(text) else {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.invalid_date", reader.file, dateNode, "'\(text)' is not a date", hint: "write YYYY-MM-DD, e.g. 2026-06-29"))
            return nil
        }
        guard InputLimits.simulatedDays.contains(date) else {
            reader.report(ScenarioDiagnostics.error("scenario.invalid_date", reader.file, dateNode, ScenarioLoader.outsideEngineDays(text)))
            return nil
        }
        return date
    }

    /// The day's health: carried over from the day before, then the top level's defaults and
    /// the day's own `health:` (an unread sample said once per scenario).
    private mutating func carryHealth(
        _ fields: Fields, into health: inout TrueHealth, defaults healthDefaults: YAMLNode?, firstDay: Bool, _ reader: inout NodeReader
    ) {
        // Health carries over from the day before (permissions, averages); steps and sleep
        // are each day's own.
        let previousFinal = health.steps.isEmpty ? nil : health.finalSteps
        health.steps = []
        health.sleepStart = nil
        health.sleepEnd = nil
        if let previousFinal { health.yesterday = previousFinal }
        var samples: (steps: YAMLNode?, sleep: YAMLNode?) = (nil, nil)
        // Top-level health is every day's default, key by key, but permission: it is the
        // first day's, and carries over from the day before unless a day says otherwise.
        for (node, permission) in [(healthDefaults, firstDay), (fields["health"], true)] {
            guard let node else { continue }
            let read = readHealth(node, into: &health, permission: permission, &reader)
            samples = (read.steps ?? samples.steps, read.sleep ?? samples.sleep)
        }
        for (kind, node) in [("steps", samples.steps), ("sleep", samples.sleep)] {
            guard let node, !permissionStated.contains(kind), unreadReported.insert(kind).inserted else { continue }
            reader.report(ScenarioDiagnostics.healthUnread(kind, reader.file, node))
        }
    }

    /// The day's events as listed (each with the clock in force), checked to be in time order,
    /// and the zone changes among them (the instant, the clock from then on).
    private mutating func events(
        _ fields: Fields, date: Int, dayStart: Int, _ reader: inout NodeReader
    ) -> ([ScenarioEvent], [(at: Date, clock: LocalClock)]) {
        var events: [ScenarioEvent] = []
        var lastPosition = -1
        var lastInstant: Date?
        // Each zone change of the day: its instant and the clock from then on.
        var changes: [(at: Date, clock: LocalClock)] = []
        for eventNode in fields["events"].flatMap({ reader.list($0, key: "events") }) ?? [] {
            guard var event = EventDecoder(ruleset: ruleset).event(eventNode, &reader) else { continue }
            event.clock = clock
            let position = logical(of: event.seconds, dayStart: dayStart)
            let instant = clock?.instant(logicalDay: date, seconds: event.seconds, dayStart: dayStart)
            if let change = changes.last {
                // After a zone change, order is the instants' (wall times of another zone).
                if let instant, let previous = lastInstant, instant < previous {
                    reader.report(
                        ScenarioDiagnostics.error(
                            "scenario.out_of_order", reader.file, eventNode["at"] ?? eventNode,
                            "event at \(TimeFormat.clock(event.seconds)) (\(change.clock.timeZone.identifier)) comes before the event above it",
                            hint:
                                "times after a timezone: event are read in the new zone, on the same logical day; one past that day's end goes under the next day"
                        ))
                }
            } else if position < lastPosition {
                reader.report(
                    ScenarioDiagnostics.error(
                        "scenario.out_of_order", reader.file, eventNode["at"] ?? eventNode,
                        "event at \(TimeFormat.clock(event.seconds)) comes before the event above it",
                        hint: "list events in time order; times before \(TimeFormat.clock(dayStart)) are after midnight"))
            }
            lastPosition = max(lastPosition, position)
            if let instant { lastInstant = max(lastInstant ?? instant, instant) }
            if case .timeZone(let name) = event.kind, let instant, let next = LocalClock(identifier: name) {
                changes.append((instant, next))
                clock = next
            }
            events.append(event)
        }
        return (events, changes)
    }

    /// The day's expectations, each with the clock its time is read in.
    private func expectations(
        _ fields: Fields, date: Int, dayStart: Int, clock dayClock: LocalClock?, changes: [(at: Date, clock: LocalClock)],
        _ reader: inout NodeReader
    ) -> [Expectation] {
        var expectations: [Expectation] = []
        for expectNode in fields["expect"].flatMap({ reader.list($0, key: "expect") }) ?? [] {
            guard var expectation = ExpectationDecoder(ruleset: ruleset).expectation(expectNode, &reader) else { continue }
            // As the day's events after a zone change, a time is the new zone's wherever it
            // falls after the change there (a wall time a westward trip repeats is the later
            // one); a time before the change in the new zone is the old zone's.
            var zone = dayClock
            if let seconds = expectation.seconds {
                for change in changes where change.clock.instant(logicalDay: date, seconds: seconds, dayStart: dayStart) >= change.at {
                    zone = change.clock
                }
            }
            expectation.clock = zone
            if let seconds = expectation.seconds, let clock = zone, let runsAt = skipped(seconds, date: date, dayStart: dayStart, clock: clock) {
                reader.report(
                    ScenarioDiagnostics.dstGap(
                        reader.file, expectNode, time: TimeFormat.clock(seconds),
                        date: DateFormat.string(seconds % 86_400 < dayStart ? date + 1 : date),
                        zone: clock.timeZone.identifier, runsAt: TimeFormat.clock(runsAt), after: []))
            }
            expectations.append(expectation)
        }
        return expectations
    }

    /// The wall time `seconds` of logical day `date` becomes when `clock` skips it (a DST
    /// gap), nil when it exists.
    private func skipped(_ seconds: Int, date: Int, dayStart: Int, clock: LocalClock) -> Int? {
        let local = clock.local(clock.instant(logicalDay: date, seconds: seconds, dayStart: dayStart)).seconds
        return local == seconds % 86_400 ? nil : local
    }

    /// The day's events in the order of their instants (stable): an event at a time a DST
    /// change skips happens the gap later, with a warning naming when — after any events
    /// listed below it that now come first.
    private func inInstantOrder(_ events: [ScenarioEvent], date: Int, dayStart: Int, _ reader: inout NodeReader) -> [ScenarioEvent] {
        let instants = events.compactMap { event in event.clock?.instant(logicalDay: date, seconds: event.seconds, dayStart: dayStart) }
        guard instants.count == events.count else { return events }
        let moved = events.map { event in event.clock.flatMap { skipped(event.seconds, date: date, dayStart: dayStart, clock: $0) } }
        guard moved.contains(where: { $0 != nil }) else { return events }
        // The first event after each index that is not itself in a gap: from there on (times
        // listed in order, past the gap) instants increase, so the events a moved one now
        // follows are a run found by binary search — linear in events, however many move.
        var nextKept = [Int](repeating: events.count, count: events.count + 1)
        for index in events.indices.reversed() { nextKept[index] = moved[index] == nil ? index : nextKept[index + 1] }
        for (index, event) in events.enumerated() {
            guard let clock = event.clock, let runsAt = moved[index] else { continue }
            var low = nextKept[index + 1]
            var high = events.count
            let first = low
            while low < high {
                let middle = (low + high) / 2
                if instants[middle] < instants[index] { low = middle + 1 } else { high = middle }
            }
            var overtaken = (first..<min(low, first + 3)).map { TimeFormat.clock(events[$0].seconds) }
            if low - first > 3 { overtaken.append("\(low - first - 3) more") }
            let node = YAMLNode(.scalar("", .plain), range: SourceRange(at: event.origin.location))
            reader.report(
                ScenarioDiagnostics.dstGap(
                    reader.file, node, time: TimeFormat.clock(event.seconds),
                    date: DateFormat.string(event.seconds % 86_400 < dayStart ? date + 1 : date), zone: clock.timeZone.identifier,
                    runsAt: TimeFormat.clock(runsAt), after: overtaken))
        }
        let order = events.indices.sorted { (instants[$0], $0) < (instants[$1], $1) }
        return order.map { events[$0] }
    }

    /// Reads `health:` into `health`; returns the keys of its steps and sleep samples.
    /// `permission`: whether its `permission:` applies (the top level's applies to the first day only).
    private mutating func readHealth(
        _ node: YAMLNode, into health: inout TrueHealth, permission apply: Bool, _ reader: inout NodeReader
    ) -> (steps: YAMLNode?, sleep: YAMLNode?) {
        guard let fields = reader.fields(node, "health", allowed: ["permission", "sleep", "steps", "avg7", "yesterday"]) else { return (nil, nil) }
        if apply, let permission = fields["permission"], let p = reader.fields(permission, "permission", allowed: ["steps", "sleep"]) {
            if let steps: HealthReading.Permission = p["steps"].flatMap({ reader.choice($0, key: "steps", what: "permission") }) {
                health.stepsPermission = steps
                permissionStated.insert("steps")
            }
            if let sleep: HealthReading.Permission = p["sleep"].flatMap({ reader.choice($0, key: "sleep", what: "permission") }) {
                health.sleepPermission = sleep
                permissionStated.insert("sleep")
            }
        }
        let samples = (steps: fields.keys["steps"], sleep: fields.keys["sleep"])
        if let sleep = fields["sleep"], let s = reader.fields(sleep, "sleep", allowed: ["start", "end"], required: ["start", "end"]) {
            health.sleepStart = s["start"].flatMap { reader.time($0, key: "start") }
            health.sleepEnd = s["end"].flatMap { reader.time($0, key: "end") }
        }
        if let steps = fields["steps"] {
            guard let pairs = steps.pairs else {
                reader.report(
                    RulesetDiagnostics.wrongType(
                        reader.file, steps, expected: "a mapping of times to step counts", hint: "steps: { \"07:00\": 0, \"12:00\": 2000 }"))
                return samples
            }
            // A day's samples replace the top-level ones; they never add to them.
            health.steps = []
            for pair in pairs {
                guard let time = reader.time(pair.key, key: "steps"), let count = reader.int(pair.value, key: "steps", minimum: 0) else { continue }
                health.steps.append((time, count))
            }
        }
        if let avg = fields["avg7"] { health.average7 = reader.int(avg, key: "avg7", minimum: 0) }
        if let yesterday = fields["yesterday"] { health.yesterday = reader.int(yesterday, key: "yesterday", minimum: 0) }
        return samples
    }
}
