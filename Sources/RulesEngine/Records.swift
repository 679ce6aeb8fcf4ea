import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// One thing the engine did or decided, in time order: what the simulator prints and the
/// app may log (no sensitive values beyond what its surface allows).
///
/// Each kind has one home, this file: its case, its trace name and its presentation (the
/// JSON fields and the timeline line, written together in one function of `RecordShown`), so
/// a new kind is added here alone. (The HTML day report draws a day from a few kinds —
/// snapshots, routes, deliveries, responses, route items — rather than a row per record.)
public struct EngineRecord: Sendable, Hashable, Codable {
    /// The large payloads (a snapshot, a health reading, a log, a tool's verdict, a day's
    /// close) are `indirect`, kept behind a reference: records are appended and copied many
    /// times, and a record as large as its largest payload moved ~200 bytes each time.
    public enum Kind: Sendable, Hashable, Codable {
        case appRun(cause: RunCause, synced: Bool)
        indirect case sync(HealthReading?)
        indirect case log(HabitLog)
        indirect case logChanged(HabitLog, deleted: Bool)
        case check(routine: String, item: String, checked: Bool)
        case riskChanged(from: RiskLevel?, to: RiskLevel)
        case routeChanged(from: RouteKind?, to: RouteKind, reason: String)
        indirect case routeItemDone(RouteItemState)
        /// A recovery item left out when the route started (its routine is off, …).
        indirect case routeItemLeftOut(RouteItemLeftOut)
        case notificationScheduled(ScheduledNotification)
        case notificationCancelled(ScheduledNotification, reason: CancelReason)
        case notificationDelivered(ScheduledNotification, staleCondition: Bool)
        indirect case notificationSuppressed(SuppressedNotification)
        case notificationResponse(id: String, type: String, response: String)
        indirect case templateRendered(RenderedText)
        indirect case toolVerdict(ToolVerdict, log: HabitLog?)
        indirect case snapshot(DailySnapshot)
        indirect case dayClosed(DayClose)
        /// The settings an event set, with the values they took then.
        case settingsChanged([String: Value])
        /// A route request of the user's that changed nothing (the day was skipped).
        case routeRequestRefused(RouteAction, reason: RefusedRequest)
        /// The device reported a new time zone (IANA names): clock times read in `to` from now.
        case timeZoneChanged(from: String, to: String)
        /// The saved state was fitted to a changed ruleset.
        indirect case stateReconciled(Reconciliation)
        /// An event the engine could not apply (out of order, unknown routine, …).
        case problem(code: ProblemCode, message: String)
    }

    /// When it happened.
    public var at: Date
    /// What happened.
    public var kind: Kind

    /// A record of `kind` at `at`.
    public init(at: Date, kind: Kind) {
        self.at = at
        self.kind = kind
    }
}

extension EngineRecord.Kind {
    /// The record's kind as traces spell it (stable: tests and tools read it).
    public var name: String {
        switch self {
        case .appRun: "app.run"
        case .sync: "sync"
        case .log: "log"
        case .logChanged: "log.changed"
        case .check: "check"
        case .riskChanged: "risk.changed"
        case .routeChanged: "route.changed"
        case .routeItemDone: "route.item_done"
        case .routeItemLeftOut: "route.item_left_out"
        case .notificationScheduled: "notification.scheduled"
        case .notificationCancelled: "notification.cancelled"
        case .notificationDelivered: "notification.delivered"
        case .notificationSuppressed: "notification.suppressed"
        case .notificationResponse: "notification.response"
        case .templateRendered: "template.rendered"
        case .toolVerdict: "tool.verdict"
        case .snapshot: "snapshot"
        case .dayClosed: "day.closed"
        case .settingsChanged: "settings.changed"
        case .routeRequestRefused: "route.request_refused"
        case .timeZoneChanged: "timezone.changed"
        case .stateReconciled: "state.reconciled"
        case .problem: "problem"
        }
    }
}

/// How a record shows in a trace: its JSON fields (after `at` and `kind`) and its line in
/// the readable timeline.
public struct RecordPresentation: Sendable {
    /// The kind's JSON fields, in their fixed order.
    public var fields: [(String, JSONValue)]
    /// The kind's line in the readable timeline (one line; the writer keeps it so).
    public var line: String
}

extension EngineRecord.Kind {
    /// The record as traces show it, its times in `clock`.
    public func presentation(clock: LocalClock) -> RecordPresentation {
        switch self {
        case .appRun(let cause, let synced): RecordShown.appRun(cause, synced)
        case .sync(let health): RecordShown.sync(health)
        case .log(let log): RecordShown.log(log, clock)
        case .logChanged(let log, let deleted): RecordShown.logChanged(log, deleted)
        case .check(let routine, let item, let checked): RecordShown.check(routine, item, checked)
        case .riskChanged(let from, let to): RecordShown.riskChanged(from, to)
        case .routeChanged(let from, let to, let reason): RecordShown.routeChanged(from, to, reason)
        case .routeItemDone(let item): RecordShown.routeItemDone(item)
        case .routeItemLeftOut(let item): RecordShown.routeItemLeftOut(item)
        case .notificationScheduled(let request): RecordShown.notificationScheduled(request, clock)
        case .notificationCancelled(let request, let reason): RecordShown.notificationCancelled(request, reason)
        case .notificationDelivered(let request, let stale): RecordShown.notificationDelivered(request, stale)
        case .notificationSuppressed(let suppressed): RecordShown.notificationSuppressed(suppressed, clock)
        case .notificationResponse(let id, let type, let response): RecordShown.notificationResponse(id, type, response)
        case .templateRendered(let text): RecordShown.templateRendered(text)
        case .toolVerdict(let verdict, let log): RecordShown.toolVerdict(verdict, log, clock)
        case .snapshot(let snapshot): RecordShown.snapshot(snapshot, clock)
        case .dayClosed(let close): RecordShown.dayClosed(close)
        case .settingsChanged(let values): RecordShown.settingsChanged(values.keys.sorted())
        case .routeRequestRefused(let action, let reason): RecordShown.routeRequestRefused(action, reason)
        case .timeZoneChanged(let from, let to): RecordShown.timeZoneChanged(from, to)
        case .stateReconciled(let change): RecordShown.stateReconciled(change)
        case .problem(let code, let message): RecordShown.problem(code, message)
        }
    }
}

/// Each kind's presentation: its JSON fields and its line, side by side.
private enum RecordShown {
    typealias Shown = RecordPresentation

    static func number(_ value: Double) -> String { Value.formatNumber(value) }

    static func appRun(_ cause: RunCause, _ synced: Bool) -> Shown {
        Shown(
            fields: [("cause", .string(cause.name)), ("synced", .bool(synced))],
            line: "app run: \(cause.name)\(synced ? " (syncs HealthKit)" : "")")
    }

    static func sync(_ health: HealthReading?) -> Shown {
        let fields: [(String, JSONValue)] = [
            ("steps_permission", .optional(health?.stepsPermission.rawValue)),
            ("sleep_permission", .optional(health?.sleepPermission.rawValue)),
            ("steps_today", .optional(health?.stepsToday)),
            ("sleep_known", .bool(health?.sleepMinutes != nil)),
            ("failed", .bool(health == nil)),
        ]
        guard let health else { return Shown(fields: fields, line: "  sync failed: last values stay") }
        let steps =
            health.stepsPermission == .granted ? "\(health.stepsToday ?? 0) steps" : "steps \(health.stepsPermission.rawValue) (manual mode)"
        let sleep =
            health.sleepPermission == .granted
            ? (health.sleepMinutes == nil ? "no sleep data" : "sleep known") : "sleep \(health.sleepPermission.rawValue)"
        return Shown(fields: fields, line: "  sync: \(steps), \(sleep)")
    }

    static func log(_ log: HabitLog, _ clock: LocalClock) -> Shown {
        Shown(
            fields: [("log", log.json(clock: clock, status: .completed))],
            line:
                "  log: \(log.routine) +\(number(log.value))\(log.unit == .check ? "" : " " + log.unit.rawValue) (\(log.source.rawValue)) [\(log.id)]"
        )
    }

    static func logChanged(_ log: HabitLog, _ deleted: Bool) -> Shown {
        Shown(
            fields: [("id", .string(log.id)), ("value", .number(log.value)), ("deleted", .bool(deleted))],
            line: deleted ? "  log deleted: \(log.id)" : "  log edited: \(log.id) = \(number(log.value))")
    }

    static func check(_ routine: String, _ item: String, _ checked: Bool) -> Shown {
        Shown(
            fields: [("routine", .string(routine)), ("item", .string(item)), ("checked", .bool(checked))],
            line: "  \(checked ? "checked" : "unchecked"): \(routine) \(item)")
    }

    static func riskChanged(_ from: RiskLevel?, _ to: RiskLevel) -> Shown {
        Shown(
            fields: [("from", .optional(from?.rawValue)), ("to", .string(to.rawValue))],
            line: "  risk: \(from?.rawValue ?? "—") → \(to.rawValue)")
    }

    static func routeChanged(_ from: RouteKind?, _ to: RouteKind, _ reason: String) -> Shown {
        Shown(
            fields: [("from", .optional(from?.rawValue)), ("to", .string(to.rawValue)), ("reason", .string(reason))],
            line: "  route: \(from?.rawValue ?? "—") → \(to.rawValue) (\(reason))")
    }

    static func routeItemDone(_ item: RouteItemState) -> Shown {
        Shown(
            fields: [("item", .string(item.id)), ("routine", .string(item.routine))],
            line: "  route item done: \(item.id) \(item.routine)")
    }

    static func routeItemLeftOut(_ item: RouteItemLeftOut) -> Shown {
        Shown(
            fields: [("routine", .string(item.routine)), ("reason", .string(item.reason.rawValue))],
            line: "  route item left out: \(item.routine) (\(item.reason.rawValue))")
    }

    static func notificationScheduled(_ n: ScheduledNotification, _ clock: LocalClock) -> Shown {
        Shown(
            fields: [("notification", n.json(clock: clock))],
            line: "  scheduled \(n.id) for \(clock.iso8601(n.scheduledAt)) [\(n.interruptionLevel.rawValue)] \"\(n.text)\"")
    }

    static func notificationCancelled(_ n: ScheduledNotification, _ reason: CancelReason) -> Shown {
        Shown(
            fields: [("id", .string(n.id)), ("type", .string(n.type)), ("reason", .string(reason.rawValue))],
            line: "  cancelled \(n.id) (\(reason.rawValue))")
    }

    static func notificationDelivered(_ n: ScheduledNotification, _ stale: Bool) -> Shown {
        Shown(
            fields: [
                ("id", .string(n.id)), ("type", .string(n.type)), ("category", .string(n.category)),
                ("stale_condition", .bool(stale)), ("interruption_level", .string(n.interruptionLevel.rawValue)),
                ("relevance_score", .number(n.relevance)), ("title", .optional(n.title)), ("text", .string(n.text)),
                ("redacted", .bool(n.redacted)), ("thread_id", .string(n.threadID)), ("deep_link", .optional(n.deepLink)),
            ],
            line: "🔔 delivered \(n.type) [\(n.interruptionLevel.rawValue)] \"\(n.text)\"\(stale ? " — stale: the condition no longer holds" : "")")
    }

    static func notificationSuppressed(_ s: SuppressedNotification, _ clock: LocalClock) -> Shown {
        Shown(
            fields: [
                ("id", .string(s.id)), ("type", .string(s.type)), ("fire_at", .string(clock.iso8601(s.fireAt))),
                ("reason", .string(s.reason.rawValue)),
            ],
            line: "🔕 suppressed \(s.type) (\(s.reason.rawValue))")
    }

    static func notificationResponse(_ id: String, _ type: String, _ response: String) -> Shown {
        Shown(
            fields: [("id", .string(id)), ("type", .string(type)), ("response", .string(response))],
            line: "notification \(type): \(response)")
    }

    static func templateRendered(_ text: RenderedText) -> Shown {
        Shown(
            fields: [
                ("template_id", .optional(text.templateID)), ("surface", .string(text.surface)), ("text", .string(text.text)),
                ("redacted", .bool(text.redacted)),
            ],
            line: "  \(text.surface): \"\(text.text)\"\(text.redacted ? " (redacted)" : "") [\(text.templateID ?? "—")]")
    }

    static func toolVerdict(_ verdict: ToolVerdict, _ log: HabitLog?, _ clock: LocalClock) -> Shown {
        var fields: [(String, JSONValue)] = [
            ("tool", .optional(verdict.tool)), ("verdict", .string(verdict.outcome.rawValue)), ("reason", .optional(verdict.reason)),
            ("argument", .optional(verdict.argument)),
        ]
        if let log { fields.append(("log", log.json(clock: clock, status: .completed))) }
        return Shown(
            fields: fields,
            line:
                "  tool \(verdict.tool ?? "?"): \(verdict.outcome.rawValue)\(verdict.reason.map { " (\($0))" } ?? "")\(verdict.argument.map { " [\($0)]" } ?? "")"
        )
    }

    static func snapshot(_ s: DailySnapshot, _ clock: LocalClock) -> Shown {
        var fields: [(String, JSONValue)] = []
        if case .object(let members) = s.json(clock: clock) { fields = members }
        let percent = Int((s.completionRate * 100).rounded())
        var line =
            "  snapshot: \(s.completedRoutines)/\(s.totalRoutines) (\(percent)%), steps \(s.stepsToday)/\(s.stepsGoal), water \(s.waterML)/\(s.waterGoalML)ml, route \(s.route.rawValue), risk \(s.risk.rawValue)"
        if let quest = s.quest {
            line += ", quest \(quest.currentSteps - quest.startSteps)/\(quest.targetDelta)\(quest.isCleared ? " cleared" : "")"
        }
        return Shown(fields: fields, line: line)
    }

    static func dayClosed(_ close: DayClose) -> Shown {
        Shown(
            fields: [
                ("date", .string(DateFormat.string(close.day))), ("result", .string(close.result.rawValue)), ("streak", .int(close.streak)),
                ("xp", .int(close.xp)), ("xp_gained", .int(close.xpGained)),
                ("statuses", .object(close.statuses.keys.sorted().map { ($0, .string(close.statuses[$0]?.rawValue ?? "")) })),
            ],
            line:
                "day \(DateFormat.string(close.day)) closed: \(close.result.rawValue) · streak \(close.streak) · xp +\(close.xpGained) (\(close.xp))")
    }

    static func settingsChanged(_ keys: [String]) -> Shown {
        Shown(fields: [("settings", .array(keys.map(JSONValue.string)))], line: "  settings changed: \(keys.joined(separator: ", "))")
    }

    static func routeRequestRefused(_ action: RouteAction, _ reason: RefusedRequest) -> Shown {
        Shown(
            fields: [("action", .string(action.rawValue)), ("reason", .string(reason.rawValue))],
            line: "  route request refused: \(action.rawValue) (\(reason.rawValue): the route stays for the day)")
    }

    static func timeZoneChanged(_ from: String, _ to: String) -> Shown {
        Shown(fields: [("from", .string(from)), ("to", .string(to))], line: "🌐 time zone: \(from) → \(to) (clock times from here are \(to)'s)")
    }

    static func stateReconciled(_ change: Reconciliation) -> Shown {
        Shown(
            fields: [("subject", .string(change.subject.rawValue)), ("id", .string(change.id)), ("action", .string(change.action.rawValue))],
            line: "  ♻️ state fitted to the ruleset: \(change.subject.rawValue) \(change.id) \(change.action.rawValue)")
    }

    static func problem(_ code: ProblemCode, _ message: String) -> Shown {
        Shown(fields: [("code", .string(code.rawValue)), ("message", .string(message))], line: "  ⚠️ \(message) [\(code.rawValue)]")
    }
}
