import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// Reads scenario documents with the rule files' diagnostics quality: positions,
/// did-you-mean for keys, routines and notification types, typed values, times checked.
public struct ScenarioLoader {
    let ruleset: Ruleset
    var reader: NodeReader
    /// The kinds (`steps`, `sleep`) whose permission a day so far (or the top-level health)
    /// stated, and those whose unread samples were already reported (once per scenario).
    var permissionStated: Set<String> = []
    var unreadReported: Set<String> = []
    /// The clock in force: the scenario's `timezone:`, then each `timezone:` event's (for
    /// reading wall times and times a DST change skips).
    var clock: LocalClock?

    static let topKeys = ["name", "description", "date", "timezone", "settings", "routines", "health", "events", "expect", "days", "version"]
    static let dayKeys = ["date", "events", "health", "settings", "expect", "description"]
    static let eventKinds = [
        "app", "log", "edit_log", "delete_log", "check", "uncheck", "action", "tool_call", "notification", "settings", "widget", "timezone",
    ]
    static let expectationKinds = [
        "delivered", "suppressed", "route", "risk", "snapshot_at", "day", "notifications_delivered", "problems", "streak", "xp", "that",
        "verdict",
    ]
    public static let snapshotKeys = [
        "date", "steps_today", "steps_goal", "sleep_minutes", "water_ml", "water_goal_ml", "completed_routines",
        "total_routines", "today_completion_rate", "active_route_type", "risk_level", "character_line",
    ]

    /// Loads the scenario of a parsed document; nil with diagnostics when it has errors.
    public static func load(_ node: YAMLNode, file: String, source: SourceFile?, ruleset: Ruleset) -> (scenario: Scenario?, diagnostics: [Diagnostic])
    {
        var loader = ScenarioLoader(ruleset: ruleset, reader: NodeReader(file: file, source: source))
        let scenario = loader.scenario(node)
        let failed = loader.reader.diagnostics.contains { $0.severity == .error }
        return (failed ? nil : scenario, loader.reader.diagnostics)
    }

    /// `timezone:` (default Asia/Seoul): the name and its clock, nil after a diagnostic
    /// when the name is not an IANA zone. Scenarios and populations read it alike.
    static func timeZone(_ node: YAMLNode?, _ reader: inout NodeReader) -> (name: String, clock: LocalClock?) {
        guard let node, let text = reader.string(node, key: "timezone") else { return ("Asia/Seoul", LocalClock(identifier: "Asia/Seoul")) }
        let clock = LocalClock(identifier: text)
        if clock == nil {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.unknown_timezone", reader.file, node, "'\(text)' is not an IANA time zone",
                    hint: LocalClock.zoneHint(for: text)))
        }
        return (text, clock)
    }

    mutating func scenario(_ node: YAMLNode) -> Scenario? {
        guard let fields = reader.fields(node, "a scenario", allowed: Self.topKeys) else { return nil }
        if let version = fields["version"], version.scalar != "1" {
            reader.report(
                RulesetDiagnostics.error(
                    "ruleset.unsupported_version", reader.file, version, "version '\(version.scalar ?? "")' is not supported",
                    hint: "write version: 1"))
        }
        let name = fields["name"].flatMap { reader.string($0, key: "name") } ?? (reader.file as NSString).lastPathComponent
        let (zoneName, clock) = ScenarioLoader.timeZone(fields["timezone"], &reader)
        self.clock = clock
        var routines: [String]?
        if let routinesNode = fields["routines"], let items = reader.list(routinesNode, key: "routines") {
            routines = items.compactMap { routineID($0, key: "routines") }
        }
        // Top-level settings of a multi-day scenario (a single day reads its own, once).
        let baseSettings = fields["days"] == nil ? [:] : fields["settings"].map { settings($0) } ?? [:]
        var days: [ScenarioDay] = []
        var health = TrueHealth()
        if let daysNode = fields["days"] {
            for key in ["date", "events", "expect"] where fields[key] != nil {
                if let keyNode = fields.keys[key] {
                    reader.report(
                        RulesetDiagnostics.error(
                            "ruleset.unknown_key", reader.file, keyNode, "'\(key)' goes inside each entry of 'days' in a multi-day scenario"))
                }
            }
            for dayNode in reader.list(daysNode, key: "days") ?? [] {
                guard let dayFields = reader.fields(dayNode, "a scenario day", allowed: Self.dayKeys, required: ["date"]) else { continue }
                // Top-level `health:` and `settings:` are every day's defaults.
                if let day = self.day(
                    dayFields, node: dayNode, health: &health, settings: baseSettings, healthDefaults: fields["health"], firstDay: days.isEmpty)
                {
                    days.append(day)
                }
            }
        } else {
            guard let dateNode = fields["date"] else {
                reader.report(RulesetDiagnostics.missingKey(reader.file, node, key: "date", in: "a scenario", hint: "or 'days:' with a date each"))
                return nil
            }
            _ = dateNode
            // The day's fields are the scenario's own: its settings are read once, there.
            if let day = self.day(fields, node: node, health: &health, settings: [:]) { days.append(day) }
        }
        for (a, b) in zip(days, days.dropFirst()) where b.date <= a.date {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.out_of_order", reader.file, YAMLNode(.scalar("", .plain), range: SourceRange(at: b.origin.location)),
                    "day \(DateFormat.string(b.date)) does not come after \(DateFormat.string(a.date))"))
        }
        guard let clock else { return nil }
        return Scenario(name: name, file: reader.file, clock: clock, timeZoneName: zoneName, routines: routines, days: days, settings: baseSettings)
    }

    /// The message for a date the engine cannot live and close.
    public static func outsideEngineDays(_ date: String) -> String {
        let days = InputLimits.simulatedDays
        return
            "\(date) is outside the days a simulation can live and close (\(DateFormat.string(days.lowerBound)) to \(DateFormat.string(days.upperBound)): each day closes at the next one's start)"
    }

    private mutating func day(
        _ fields: Fields, node: YAMLNode, health: inout TrueHealth, settings base: [String: Value], healthDefaults: YAMLNode? = nil,
        firstDay: Bool = true
    ) -> ScenarioDay? {
        guard let dateNode = fields["date"], let text = reader.string(dateNode, key: "date") else { return nil }
        guard let date = DateFormat.days(text) else {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.invalid_date", reader.file, dateNode, "'\(text)' is not a date", hint: "write YYYY-MM-DD, e.g. 2026-06-29"))
            return nil
        }
        guard InputLimits.simulatedDays.contains(date) else {
            reader.report(ScenarioDiagnostics.error("scenario.invalid_date", reader.file, dateNode, Self.outsideEngineDays(text)))
            return nil
        }
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
            let read = readHealth(node, into: &health, permission: permission)
            samples = (read.steps ?? samples.steps, read.sleep ?? samples.sleep)
        }
        for (kind, node) in [("steps", samples.steps), ("sleep", samples.sleep)] {
            guard let node, !permissionStated.contains(kind), unreadReported.insert(kind).inserted else { continue }
            reader.report(ScenarioDiagnostics.healthUnread(kind, reader.file, node))
        }
        let daySettings = fields["settings"].map { settings($0) } ?? [:]
        let dayStart = OperatorProfile.dayStart(base.merging(daySettings) { _, own in own }, ruleset)
        let dayClock = clock
        var events: [ScenarioEvent] = []
        var lastPosition = -1
        var lastInstant: Date?
        // Each zone change of the day: its instant and the clock from then on.
        var changes: [(at: Date, clock: LocalClock)] = []
        for eventNode in fields["events"].flatMap({ reader.list($0, key: "events") }) ?? [] {
            guard var event = event(eventNode) else { continue }
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
        events = inInstantOrder(events, date: date, dayStart: dayStart)
        var expectations: [Expectation] = []
        for expectNode in fields["expect"].flatMap({ reader.list($0, key: "expect") }) ?? [] {
            guard var expectation = expectation(expectNode) else { continue }
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
        return ScenarioDay(
            date: date, health: health, settings: daySettings, events: events, expectations: expectations, origin: reader.origin(node),
            clock: dayClock)
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
    private mutating func inInstantOrder(_ events: [ScenarioEvent], date: Int, dayStart: Int) -> [ScenarioEvent] {
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
    private mutating func readHealth(_ node: YAMLNode, into health: inout TrueHealth, permission apply: Bool) -> (steps: YAMLNode?, sleep: YAMLNode?)
    {
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

    private mutating func settings(_ node: YAMLNode) -> [String: Value] {
        guard let pairs = node.pairs else {
            reader.report(RulesetDiagnostics.wrongType(reader.file, node, expected: "a mapping of settings"))
            return [:]
        }
        var values: [String: Value] = [:]
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            guard let declaration = ruleset.settings.declaration(key) else {
                reader.report(RulesetDiagnostics.unknownKey(reader.file, pair.key, in: "settings", allowed: ruleset.settings.map(\.key)))
                continue
            }
            if let value = ruleset.value(of: pair.value, type: declaration.type, key: key, reader: &reader) { values[key] = value }
        }
        return values
    }

    private mutating func routineID(_ node: YAMLNode, key: String) -> String? {
        ScenarioLoader.routineID(node, key: key, ruleset: ruleset, &reader)
    }

    /// A routine id of `ruleset`, else nil after a diagnostic with did-you-mean (scenarios and
    /// populations name routines alike).
    static func routineID(_ node: YAMLNode, key: String, ruleset: Ruleset, _ reader: inout NodeReader) -> String? {
        guard let id = reader.string(node, key: key) else { return nil }
        guard ruleset.routine(id) != nil else {
            let ids = ruleset.routines.map(\.id)
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.unknown_routine", reader.file, node, "no routine '\(id)'",
                    hint: Suggestions.nearest(to: id, among: ids).map { "did you mean '\($0)'?" } ?? "routines are: \(ids.joined(separator: ", "))"))
            return nil
        }
        return id
    }

    private mutating func notificationID(_ node: YAMLNode, key: String) -> String? {
        guard let id = reader.string(node, key: key) else { return nil }
        guard ruleset.notification(id) != nil else {
            let ids = ruleset.notifications.map(\.id)
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.unknown_notification", reader.file, node, "no notification type '\(id)'",
                    hint: Suggestions.nearest(to: id, among: ids).map { "did you mean '\($0)'?" } ?? "types are: \(ids.joined(separator: ", "))"))
            return nil
        }
        return id
    }

    /// The one kind key of an event or expectation mapping.
    private mutating func kind(_ fields: Fields, _ node: YAMLNode, among kinds: [String], what: String) -> String? {
        let present = kinds.filter { fields[$0] != nil }
        guard present.count == 1, let kind = present.first else {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.event_kind", reader.file, node,
                    present.isEmpty ? "\(what) says nothing to do" : "\(what) has several kinds: \(present.joined(separator: ", "))",
                    hint: "give exactly one of: \(kinds.joined(separator: ", "))"))
            return nil
        }
        return kind
    }

    private mutating func event(_ node: YAMLNode) -> ScenarioEvent? {
        guard let fields = reader.fields(node, "an event", allowed: ["at", "response"] + Self.eventKinds, required: ["at"]),
            let seconds = fields["at"].flatMap({ reader.time($0, key: "at") }),
            let kindName = kind(fields, node, among: Self.eventKinds, what: "this event"), let value = fields[kindName]
        else { return nil }
        let origin = reader.origin(node)
        func make(_ kind: ScenarioEvent.Kind?) -> ScenarioEvent? { kind.map { ScenarioEvent(seconds: seconds % 86_400, kind: $0, origin: origin) } }
        if kindName != "notification", let response = fields.keys["response"] {
            reader.report(RulesetDiagnostics.unknownKey(reader.file, response, in: "a \(kindName) event", allowed: ["at", kindName]))
        }
        switch kindName {
        case "app":
            guard let mode = reader.choice(value, key: "app", what: "app event", allowed: ["open", "refresh"]) else { return nil }
            return make(.app(refresh: mode == "refresh"))
        case "log":
            guard let log = reader.fields(value, "a log", allowed: ["routine", "value", "unit", "source"], required: ["routine", "value"]),
                let routine = log["routine"].flatMap({ routineID($0, key: "routine") }),
                let amount = log["value"].flatMap({ reader.number($0, key: "value", minimum: 0, maximum: InputLimits.maxLogValue) })
            else { return nil }
            let unit: RoutineUnit? = log["unit"].flatMap { reader.choice($0, key: "unit", what: "unit") }
            let source: LogSource = log["source"].flatMap { reader.choice($0, key: "source", what: "log source") } ?? .manual
            return make(.log(routine: routine, value: amount, unit: unit, source: source))
        case "edit_log":
            guard let edit = reader.fields(value, "an edit", allowed: ["id", "value"], required: ["id", "value"]),
                let id = edit["id"].flatMap({ reader.string($0, key: "id") }),
                let amount = edit["value"].flatMap({ reader.number($0, key: "value", minimum: 0, maximum: InputLimits.maxLogValue) })
            else { return nil }
            return make(.editLog(id: id, value: amount))
        case "delete_log":
            return reader.string(value, key: "delete_log").flatMap { make(.deleteLog(id: $0)) }
        case "check", "uncheck":
            guard let check = reader.fields(value, "a checklist tick", allowed: ["routine", "item"], required: ["routine", "item"]),
                let routine = check["routine"].flatMap({ routineID($0, key: "routine") }),
                let item = check["item"].flatMap({ reader.string($0, key: "item") })
            else { return nil }
            if let definition = ruleset.routine(routine), !definition.items.contains(item), let itemNode = check["item"] {
                reader.report(
                    RulesetDiagnostics.unknownReference(
                        reader.file, itemNode, kind: "checklist item of '\(routine)'", name: item, known: definition.items))
                return nil
            }
            return make(kindName == "check" ? .check(routine: routine, item: item) : .uncheck(routine: routine, item: item))
        case "action":
            return (reader.choice(value, key: "action", what: "route action") as RouteAction?).flatMap { make(.action($0)) }
        case "tool_call":
            return reader.scalar(value, key: "tool_call", expected: "JSON text").flatMap { make(.toolCall($0)) }
        case "notification":
            guard let id = notificationID(value, key: "notification") else { return nil }
            guard let responseNode = fields["response"] else {
                reader.report(
                    RulesetDiagnostics.missingKey(
                        reader.file, node, key: "response", in: "a notification event", hint: "opened, ignored or an action"))
                return nil
            }
            guard let text = reader.string(responseNode, key: "response") else { return nil }
            let response: NotificationResponse
            switch text {
            case "opened": response = .opened
            case "ignored": response = .ignored
            default:
                guard let action = NotificationAction(rawValue: text) else {
                    reader.report(
                        RulesetDiagnostics.unknownValue(
                            reader.file, responseNode, what: "response",
                            allowed: ["opened", "ignored"] + NotificationAction.allCases.map(\.rawValue)))
                    return nil
                }
                response = .action(action)
            }
            return make(.notification(id: id, response: response))
        case "settings":
            return make(.settings(settings(value)))
        case "timezone":
            guard let name = reader.string(value, key: "timezone") else { return nil }
            guard LocalClock(identifier: name) != nil else {
                reader.report(
                    ScenarioDiagnostics.error(
                        "scenario.unknown_timezone", reader.file, value, "'\(name)' is not an IANA time zone",
                        hint: LocalClock.zoneHint(for: name)))
                return nil
            }
            return make(.timeZone(name))
        default:
            return (reader.choice(value, key: "widget", what: "widget intent") as WidgetIntent?).flatMap { make(.widget($0)) }
        }
    }

    private mutating func expectation(_ node: YAMLNode) -> Expectation? {
        let allowed = ["at", "reason", "level"] + Self.expectationKinds + Self.snapshotKeys
        guard let fields = reader.fields(node, "an expectation", allowed: allowed),
            let kindName = kind(fields, node, among: Self.expectationKinds, what: "this expectation"), let value = fields[kindName]
        else { return nil }
        var seconds = fields["at"].flatMap { reader.time($0, key: "at") }
        let origin = reader.origin(node)
        let text = Self.describe(node)
        func make(_ kind: Expectation.Kind?) -> Expectation? { kind.map { Expectation(kind: $0, seconds: seconds, origin: origin, text: text) } }
        let extra = Set(fields.values.keys).subtracting(
            ["at", kindName] + (kindName == "suppressed" || kindName == "verdict" ? ["reason"] : []) + (kindName == "delivered" ? ["level"] : [])
                + (kindName == "snapshot_at" ? Self.snapshotKeys : []))
        for key in extra.sorted() {
            if let keyNode = fields.keys[key] {
                reader.report(RulesetDiagnostics.unknownKey(reader.file, keyNode, in: "a '\(kindName)' expectation", allowed: ["at", kindName]))
            }
        }
        switch kindName {
        case "delivered":
            let level: InterruptionLevel? = fields["level"].flatMap { reader.choice($0, key: "level", what: "interruption level") }
            return notificationID(value, key: "delivered").flatMap { make(.delivered($0, level: level)) }
        case "suppressed":
            let reasons = GateReason.allCases.map(\.rawValue)
            let reason = fields["reason"].flatMap { reader.choice($0, key: "reason", what: "suppression reason", allowed: reasons) }.flatMap(
                GateReason.init(rawValue:))
            return notificationID(value, key: "suppressed").flatMap { make(.suppressed($0, reason: reason)) }
        case "route":
            return (reader.choice(value, key: "route", what: "route") as RouteKind?).flatMap { make(.route($0)) }
        case "risk":
            return (reader.choice(value, key: "risk", what: "risk level") as RiskLevel?).flatMap { make(.risk($0)) }
        case "day":
            return (reader.choice(value, key: "day", what: "day result") as DayResult?).flatMap { make(.day($0)) }
        case "notifications_delivered":
            return reader.int(value, key: "notifications_delivered", minimum: 0).flatMap { make(.notificationsDelivered($0)) }
        case "problems":
            return reader.int(value, key: "problems", minimum: 0).flatMap { make(.problems($0)) }
        case "streak":
            return reader.int(value, key: "streak", minimum: 0).flatMap { make(.streak($0)) }
        case "xp":
            return reader.int(value, key: "xp", minimum: 0).flatMap { make(.xp($0)) }
        case "verdict":
            guard
                let outcome = reader.choice(value, key: "verdict", what: "verdict", allowed: ["accepted", "clarify", "rejected"]).flatMap(
                    ToolVerdict.Outcome.init(rawValue:))
            else { return nil }
            let reason = fields["reason"].flatMap { reader.string($0, key: "reason") }
            return make(.verdict(outcome, reason: reason))
        case "that":
            return reader.expression(value, key: "that", schema: ruleset.schema, expecting: .condition).flatMap { make(.that($0)) }
        default:
            seconds = reader.time(value, key: "snapshot_at")
            var checks: [(String, Value)] = []
            for key in Self.snapshotKeys {
                guard let node = fields[key] else { continue }
                switch key {
                case "date", "active_route_type", "risk_level", "character_line":
                    if let text = reader.scalar(node, key: key, expected: "text") { checks.append((key, .string(text))) }
                case "sleep_minutes" where node.isNull:
                    checks.append((key, .unknown))
                default:
                    if let number = reader.number(node, key: key) { checks.append((key, .number(number))) }
                }
            }
            if checks.isEmpty {
                reader.report(
                    RulesetDiagnostics.missingKey(
                        reader.file, node, key: "a snapshot key", in: "a snapshot_at expectation",
                        hint: "e.g. completed_routines: 4, today_completion_rate: 0.5"))
            }
            return make(.snapshot(checks))
        }
    }

    /// `{ at: "21:30", delivered: recovery_route }` as written (flow style).
    static func describe(_ node: YAMLNode) -> String {
        guard let pairs = node.pairs else { return node.scalar ?? "" }
        return "{ " + pairs.map { "\($0.key.scalar ?? ""): \($0.value.scalar ?? "…")" }.joined(separator: ", ") + " }"
    }
}
