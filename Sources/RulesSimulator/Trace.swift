import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// The simulation's records as JSON lines and as a readable timeline.
/// Kinds: `app.run`, `sync`, `log`, `log.changed`, `check`, `risk.changed`, `route.changed`,
/// `route.item_done`, `notification.scheduled`, `notification.cancelled`,
/// `notification.delivered`, `notification.suppressed`, `notification.response`,
/// `template.rendered`, `tool.verdict`, `snapshot`, `day.closed`, `settings.changed`, `route.request_refused`,
/// `route.item_left_out`, `state.reconciled`, `timezone.changed`, `problem`.
public enum Trace {
    public static func kind(_ record: EngineRecord) -> String { record.kind.name }

    /// One JSON object: `at`, `kind`, then the kind's fields in a fixed order.
    public static func json(_ record: EngineRecord, clock: LocalClock, ruleset: Ruleset) -> JSONValue {
        var members: [(String, JSONValue)] = [("at", .string(clock.iso8601(record.at))), ("kind", .string(kind(record)))]
        switch record.kind {
        case .appRun(let cause, let synced):
            members += [("cause", .string(cause.name)), ("synced", .bool(synced))]
        case .sync(let health):
            members += [
                ("steps_permission", .optional(health?.stepsPermission.rawValue)),
                ("sleep_permission", .optional(health?.sleepPermission.rawValue)),
                ("steps_today", .optional(health?.stepsToday)),
                ("sleep_known", .bool(health?.sleepMinutes != nil)),
                ("failed", .bool(health == nil)),
            ]
        case .log(let log):
            members += [("log", log.json(clock: clock, status: .completed))]
        case .logChanged(let log, let deleted):
            members += [("id", .string(log.id)), ("value", .number(log.value)), ("deleted", .bool(deleted))]
        case .check(let routine, let item, let checked):
            members += [("routine", .string(routine)), ("item", .string(item)), ("checked", .bool(checked))]
        case .riskChanged(let from, let to):
            members += [("from", .optional(from?.rawValue)), ("to", .string(to.rawValue))]
        case .routeChanged(let from, let to, let reason):
            members += [("from", .optional(from?.rawValue)), ("to", .string(to.rawValue)), ("reason", .string(reason))]
        case .routeItemDone(let item):
            members += [("item", .string(item.id)), ("routine", .string(item.routine))]
        case .notificationScheduled(let n):
            members += [("notification", n.json(clock: clock))]
        case .notificationCancelled(let n, let reason):
            members += [("id", .string(n.id)), ("type", .string(n.type)), ("reason", .string(reason.rawValue))]
        case .notificationDelivered(let n, let stale):
            members += [
                ("id", .string(n.id)), ("type", .string(n.type)), ("category", .string(n.category)),
                ("stale_condition", .bool(stale)), ("interruption_level", .string(n.interruptionLevel.rawValue)),
                ("relevance_score", .number(n.relevance)), ("title", .optional(n.title)), ("text", .string(n.text)),
                ("redacted", .bool(n.redacted)), ("thread_id", .string(n.threadID)), ("deep_link", .optional(n.deepLink)),
            ]
        case .notificationSuppressed(let s):
            members += [
                ("id", .string(s.id)), ("type", .string(s.type)), ("fire_at", .string(clock.iso8601(s.fireAt))),
                ("reason", .string(s.reason.rawValue)),
            ]
        case .notificationResponse(let id, let type, let response):
            members += [("id", .string(id)), ("type", .string(type)), ("response", .string(response))]
        case .templateRendered(let text):
            members += [
                ("template_id", .optional(text.templateID)), ("surface", .string(text.surface)), ("text", .string(text.text)),
                ("redacted", .bool(text.redacted)),
            ]
        case .toolVerdict(let verdict, let log):
            members += [
                ("tool", .optional(verdict.tool)), ("verdict", .string(verdict.outcome.rawValue)), ("reason", .optional(verdict.reason)),
                ("argument", .optional(verdict.argument)),
            ]
            if let log { members.append(("log", log.json(clock: clock, status: .completed))) }
        case .snapshot(let snapshot):
            if case .object(let fields) = snapshot.json(clock: clock) { members += fields }
        case .dayClosed(let close):
            members += [
                ("date", .string(DateFormat.string(close.day))), ("result", .string(close.result.rawValue)), ("streak", .int(close.streak)),
                ("xp", .int(close.xp)), ("xp_gained", .int(close.xpGained)),
                ("statuses", .object(close.statuses.keys.sorted().map { ($0, .string(close.statuses[$0]?.rawValue ?? "")) })),
            ]
        case .settingsChanged(let keys):
            members += [("settings", .array(keys.map(JSONValue.string)))]
        case .routeRequestRefused(let action, let reason):
            members += [("action", .string(action.rawValue)), ("reason", .string(reason.rawValue))]
        case .timeZoneChanged(let from, let to):
            members += [("from", .string(from)), ("to", .string(to))]
        case .routeItemLeftOut(let item):
            members += [("routine", .string(item.routine)), ("reason", .string(item.reason.rawValue))]
        case .stateReconciled(let change):
            members += [("subject", .string(change.subject.rawValue)), ("id", .string(change.id)), ("action", .string(change.action.rawValue))]
        case .problem(let code, let message):
            members += [("code", .string(code.rawValue)), ("message", .string(message))]
        }
        return .object(members)
    }

    /// JSON lines for a whole simulation.
    public static func jsonLines(_ result: SimulationResult, ruleset: Ruleset) -> String {
        var writer = TraceWriter(format: .json, scenario: result.scenario, ruleset: ruleset, dayStart: result.dayStart)
        return writer.write(result.records)
    }

    /// The readable timeline: one line per record, grouped by day.
    public static func text(_ result: SimulationResult, ruleset: Ruleset) -> String {
        var writer = TraceWriter(format: .text, scenario: result.scenario, ruleset: ruleset, dayStart: result.dayStart)
        return writer.header + writer.write(result.records)
    }

    static func isDayClose(_ record: EngineRecord) -> Bool {
        if case .dayClosed = record.kind { return true }
        return false
    }

    static func number(_ value: Double) -> String { Value.formatNumber(value) }

    static func line(_ record: EngineRecord, clock: LocalClock) -> String? {
        switch record.kind {
        case .appRun(let cause, let synced):
            return "app run: \(cause.name)\(synced ? " (syncs HealthKit)" : "")"
        case .sync(let health):
            guard let health else { return "  sync failed: last values stay" }
            let steps =
                health.stepsPermission == .granted ? "\(health.stepsToday ?? 0) steps" : "steps \(health.stepsPermission.rawValue) (manual mode)"
            let sleep =
                health.sleepPermission == .granted
                ? (health.sleepMinutes == nil ? "no sleep data" : "sleep known") : "sleep \(health.sleepPermission.rawValue)"
            return "  sync: \(steps), \(sleep)"
        case .log(let log):
            return
                "  log: \(log.routine) +\(number(log.value))\(log.unit == .check ? "" : " " + log.unit.rawValue) (\(log.source.rawValue)) [\(log.id)]"
        case .logChanged(let log, let deleted):
            return deleted ? "  log deleted: \(log.id)" : "  log edited: \(log.id) = \(number(log.value))"
        case .check(let routine, let item, let checked):
            return "  \(checked ? "checked" : "unchecked"): \(routine) \(item)"
        case .riskChanged(let from, let to):
            return "  risk: \(from?.rawValue ?? "—") → \(to.rawValue)"
        case .routeChanged(let from, let to, let reason):
            return "  route: \(from?.rawValue ?? "—") → \(to.rawValue) (\(reason))"
        case .routeItemDone(let item):
            return "  route item done: \(item.id) \(item.routine)"
        case .notificationScheduled(let n):
            return "  scheduled \(n.id) for \(clock.iso8601(n.scheduledAt)) [\(n.interruptionLevel.rawValue)] \"\(n.text)\""
        case .notificationCancelled(let n, let reason):
            return "  cancelled \(n.id) (\(reason.rawValue))"
        case .notificationDelivered(let n, let stale):
            return "🔔 delivered \(n.type) [\(n.interruptionLevel.rawValue)] \"\(n.text)\"\(stale ? " — stale: the condition no longer holds" : "")"
        case .notificationSuppressed(let s):
            return "🔕 suppressed \(s.type) (\(s.reason.rawValue))"
        case .notificationResponse(_, let type, let response):
            return "notification \(type): \(response)"
        case .templateRendered(let text):
            return "  \(text.surface): \"\(text.text)\"\(text.redacted ? " (redacted)" : "") [\(text.templateID ?? "—")]"
        case .toolVerdict(let verdict, _):
            return
                "  tool \(verdict.tool ?? "?"): \(verdict.outcome.rawValue)\(verdict.reason.map { " (\($0))" } ?? "")\(verdict.argument.map { " [\($0)]" } ?? "")"
        case .snapshot(let s):
            let percent = Int((s.completionRate * 100).rounded())
            var text =
                "  snapshot: \(s.completedRoutines)/\(s.totalRoutines) (\(percent)%), steps \(s.stepsToday)/\(s.stepsGoal), water \(s.waterML)/\(s.waterGoalML)ml, route \(s.route.rawValue), risk \(s.risk.rawValue)"
            if let quest = s.quest {
                text += ", quest \(quest.currentSteps - quest.startSteps)/\(quest.targetDelta)\(quest.isCleared ? " cleared" : "")"
            }
            return text
        case .dayClosed(let close):
            return
                "day \(DateFormat.string(close.day)) closed: \(close.result.rawValue) · streak \(close.streak) · xp +\(close.xpGained) (\(close.xp))"
        case .settingsChanged(let keys):
            return "  settings changed: \(keys.joined(separator: ", "))"
        case .routeRequestRefused(let action, let reason):
            return "  route request refused: \(action.rawValue) (\(reason.rawValue): the route stays for the day)"
        case .timeZoneChanged(let from, let to):
            return "🌐 time zone: \(from) → \(to) (clock times from here are \(to)'s)"
        case .routeItemLeftOut(let item):
            return "  route item left out: \(item.routine) (\(item.reason.rawValue))"
        case .stateReconciled(let change):
            return "  ♻️ state fitted to the ruleset: \(change.subject.rawValue) \(change.id) \(change.action.rawValue)"
        case .problem(let code, let message):
            return "  ⚠️ \(message) [\(code.rawValue)]"
        }
    }
}

/// Writes a simulation's records as they come — JSON lines or the readable timeline —
/// holding only the clock in force and the day it showed last, so a command can stream a run
/// of any length (memory does not grow with it). A `timezone.changed` record switches the
/// clock for itself and what follows.
public struct TraceWriter: Sendable {
    public enum Format: Sendable { case json, text }

    let format: Format
    let ruleset: Ruleset
    let scenario: Scenario
    let dayStart: Int
    var clock: LocalClock
    var currentDay: Int?

    /// `dayStart`: the `day_starts_at` the timeline groups days by.
    public init(format: Format, scenario: Scenario, ruleset: Ruleset, dayStart: Int, clock: LocalClock? = nil) {
        self.format = format
        self.scenario = scenario
        self.ruleset = ruleset
        self.dayStart = dayStart
        self.clock = clock ?? scenario.clock
    }

    /// The timeline's first line (nothing for JSON lines). Names and texts from files never
    /// start a line of their own (TextRenderer.oneLine).
    public var header: String {
        guard format == .text else { return "" }
        return TextRenderer.oneLine("\(scenario.name) — \(scenario.file) (\(scenario.timeZoneName))") + "\n"
    }

    /// The text of `records`, in order.
    public mutating func write(_ records: [EngineRecord]) -> String {
        var out = ""
        for record in records {
            if case .timeZoneChanged(_, let to) = record.kind, let next = LocalClock(identifier: to) { clock = next }
            switch format {
            case .json: out += Trace.json(record, clock: clock, ruleset: ruleset).rendered() + "\n"
            case .text: out += line(record)
            }
        }
        return out
    }

    private mutating func line(_ record: EngineRecord) -> String {
        var out = ""
        let (calendarDay, seconds) = clock.local(record.at)
        // A day in progress keeps its date when the zone changes (never back a day).
        let logicalDay = Swift.max(seconds < dayStart ? calendarDay - 1 : calendarDay, currentDay ?? Int.min)
        if currentDay != logicalDay, !Trace.isDayClose(record) {
            currentDay = logicalDay
            out += "\n== \(DateFormat.string(logicalDay)) (\(DateFormat.weekday(logicalDay)))\n"
        }
        guard let text = Trace.line(record, clock: clock) else { return out }
        return out + "\(TimeFormat.clock(seconds))  \(TextRenderer.oneLine(text))\n"
    }
}
