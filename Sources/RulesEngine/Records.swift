import Foundation
import RulesExpression
import Ruleset

/// A rendered text on a surface.
public struct RenderedText: Sendable, Hashable, Codable {
    public var templateID: String?
    public var surface: String
    public var text: String
    /// True when a sensitive value was refused and the surface's fallback stands instead.
    public var redacted: Bool
}

/// A notification request as scheduled with iOS (seed 8.4 plus SPEC §5.6's fields).
///
/// Its fields live behind one immutable reference: requests are copied into plans, records
/// and dictionaries many times per app run, and a copy of eighteen fields retained each
/// one. Setting a field makes a new box (requests are made once and rarely changed).
/// Equality, hashing and the JSON form are the fields', as before.
public struct ScheduledNotification: Sendable, Hashable, Codable {
    struct Fields: Sendable, Hashable, Codable {
        var id: String
        var type: String
        var routine: String?
        var scheduledAt: Date
        var day: Int
        var status: String
        var deepLink: String?
        var templateID: String
        var sensitive: Bool
        var createdReason: String
        var interruptionLevel: InterruptionLevel
        var relevance: Double
        var threadID: String
        var category: String
        var actions: [NotificationAction]
        var title: String?
        var text: String
        var redacted: Bool
    }

    final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    init(
        id: String,
        type: String,
        routine: String?,
        scheduledAt: Date,
        day: Int,
        status: String,
        deepLink: String?,
        templateID: String,
        sensitive: Bool,
        createdReason: String,
        interruptionLevel: InterruptionLevel,
        relevance: Double,
        threadID: String,
        category: String,
        actions: [NotificationAction],
        title: String?,
        text: String,
        redacted: Bool
    ) {
        box = Box(
            Fields(
                id: id, type: type, routine: routine, scheduledAt: scheduledAt, day: day, status: status, deepLink: deepLink, templateID: templateID,
                sensitive: sensitive, createdReason: createdReason, interruptionLevel: interruptionLevel, relevance: relevance, threadID: threadID,
                category: category, actions: actions, title: title, text: text, redacted: redacted))
    }

    /// Changes one field: a new box, so copies made before keep their values.
    private mutating func change(_ edit: (inout Fields) -> Void) {
        var fields = box.fields
        edit(&fields)
        box = Box(fields)
    }

    /// Stable request id: `<type>.<yyyyMMdd>` or `<type>.<routine>.<yyyyMMdd>`.
    public var id: String {
        get { box.fields.id }
        set { change { $0.id = newValue } }
    }
    public var type: String {
        get { box.fields.type }
        set { change { $0.type = newValue } }
    }
    public var routine: String? {
        get { box.fields.routine }
        set { change { $0.routine = newValue } }
    }
    public var scheduledAt: Date {
        get { box.fields.scheduledAt }
        set { change { $0.scheduledAt = newValue } }
    }
    /// Logical day the candidate belongs to.
    public var day: Int {
        get { box.fields.day }
        set { change { $0.day = newValue } }
    }
    public var status: String {
        get { box.fields.status }
        set { change { $0.status = newValue } }
    }
    public var deepLink: String? {
        get { box.fields.deepLink }
        set { change { $0.deepLink = newValue } }
    }
    public var templateID: String {
        get { box.fields.templateID }
        set { change { $0.templateID = newValue } }
    }
    public var sensitive: Bool {
        get { box.fields.sensitive }
        set { change { $0.sensitive = newValue } }
    }
    public var createdReason: String {
        get { box.fields.createdReason }
        set { change { $0.createdReason = newValue } }
    }
    public var interruptionLevel: InterruptionLevel {
        get { box.fields.interruptionLevel }
        set { change { $0.interruptionLevel = newValue } }
    }
    /// 0…1; 0.2 when weakened to passive.
    public var relevance: Double {
        get { box.fields.relevance }
        set { change { $0.relevance = newValue } }
    }
    public var threadID: String {
        get { box.fields.threadID }
        set { change { $0.threadID = newValue } }
    }
    public var category: String {
        get { box.fields.category }
        set { change { $0.category = newValue } }
    }
    public var actions: [NotificationAction] {
        get { box.fields.actions }
        set { change { $0.actions = newValue } }
    }
    public var title: String? {
        get { box.fields.title }
        set { change { $0.title = newValue } }
    }
    public var text: String {
        get { box.fields.text }
        set { change { $0.text = newValue } }
    }
    public var redacted: Bool {
        get { box.fields.redacted }
        set { change { $0.redacted = newValue } }
    }

    public static func == (lhs: ScheduledNotification, rhs: ScheduledNotification) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    public init(from decoder: any Decoder) throws { box = Box(try Fields(from: decoder)) }

    public func encode(to encoder: any Encoder) throws { try box.fields.encode(to: encoder) }
}

/// The gate that refused a notification candidate (SPEC order: `disabled`, `skipped`,
/// `condition_false`, `completed`, `quiet_hours`, `daily_cap`, `category_cooldown`,
/// `weakened`, `stale`; then iOS's pending limit). Raw values are stable trace output.
public enum GateReason: String, Sendable, Hashable, Codable, CaseIterable {
    case disabled, skipped
    case conditionFalse = "condition_false"
    case completed
    case quietHours = "quiet_hours"
    case dailyCap = "daily_cap"
    case categoryCooldown = "category_cooldown"
    case weakened, stale
    case maxPending = "max_pending"
}

/// Why a pending request was cancelled.
public enum CancelReason: Sendable, Hashable {
    /// A gate refuses it now.
    case refused(GateReason)
    /// The new plan no longer holds it (its time or day moved, or it is no candidate now).
    case replanned
    /// Its notification type or template is gone after a ruleset change.
    case removedFromRuleset

    /// The stable trace spelling: the gate's code, `replanned` or `removed_from_ruleset`.
    public var rawValue: String {
        switch self {
        case .refused(let gate): gate.rawValue
        case .replanned: "replanned"
        case .removedFromRuleset: "removed_from_ruleset"
        }
    }
}

/// A change made to a saved state so that it fits the ruleset it now runs under.
public struct Reconciliation: Sendable, Hashable {
    /// What kind of thing changed.
    public enum Subject: String, Sendable, Hashable, Codable {
        case ruleset, routine, notification, template, route, setting, log, item
    }

    public var subject: Subject
    /// The id of the routine, notification type, template, route, setting, log or item.
    public var id: String
    /// What was done: `dropped`, `cancelled`, `defaulted`, `decided_afresh`, `adopted`.
    public var action: String
}

/// A recovery item the route did not take, and why.
public struct RouteItemLeftOut: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        case routineNotEnabled = "routine_not_enabled"
        case noStepsPermission = "no_steps_permission"
        case alreadyDone = "already_done"
    }

    public var routine: String
    public var reason: Reason
}

/// A candidate refused by a gate.
public struct SuppressedNotification: Sendable, Hashable, Codable {
    public var id: String
    public var type: String
    public var routine: String?
    public var fireAt: Date
    public var day: Int
    public var reason: GateReason
}

/// The close of a logical day.
public struct DayClose: Sendable, Hashable {
    public var day: Int
    public var result: DayResult
    public var streak: Int
    public var xpGained: Int
    public var xp: Int
    /// Each enabled routine's status, by id (made when asked: a close keeps them as a list
    /// in ruleset order, which hashing ten ids at every close cost more than).
    public var statuses: [String: RoutineStatus] {
        get { Dictionary(zip(routineIDs, routineStatuses), uniquingKeysWith: { a, _ in a }) }
        set {
            routineIDs = newValue.keys.sorted()
            routineStatuses = routineIDs.map { newValue[$0] ?? .notStarted }
        }
    }
    var routineIDs: [String]
    var routineStatuses: [RoutineStatus]

    init(day: Int, result: DayResult, streak: Int, xpGained: Int, xp: Int, routineIDs: [String], routineStatuses: [RoutineStatus]) {
        self.day = day
        self.result = result
        self.streak = streak
        self.xpGained = xpGained
        self.xp = xp
        self.routineIDs = routineIDs
        self.routineStatuses = routineStatuses
    }
}

/// A tool call's verdict: the model proposes, the engine decides.
public struct ToolVerdict: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        case accepted, clarify, rejected
    }

    /// Why a call was rejected, in the order the checks run. Raw values are stable output.
    public enum Rejection: String, Sendable, Hashable, CaseIterable, Error {
        case tooLarge = "too_large"
        case malformedJSON = "malformed_json"
        case tooDeep = "too_deep"
        case unknownTool = "unknown_tool"
        case unknownArgument = "unknown_argument"
        case wrongType = "wrong_type"
        case outOfRange = "out_of_range"
        case unitMismatch = "unit_mismatch"
    }

    public var tool: String?
    public var outcome: Outcome
    /// Set when the outcome is `rejected`.
    public var rejection: Rejection?
    /// The argument that decided (for `clarify`: the one to ask for), when one did.
    public var argument: String?

    public init(tool: String?, outcome: Outcome, rejection: Rejection? = nil, argument: String? = nil) {
        self.tool = tool
        self.outcome = outcome
        self.rejection = rejection
        self.argument = argument
    }

    /// The reason as traces print it: the rejection's code, or `ask for <argument>`.
    public var reason: String? {
        switch outcome {
        case .rejected: rejection?.rawValue
        case .clarify: argument.map { "ask for \($0)" }
        case .accepted: nil
        }
    }
}

/// One thing the engine did or decided, in time order: what the simulator prints and the
/// app may log (no sensitive values beyond what its surface allows).
public struct EngineRecord: Sendable {
    /// The large payloads (a snapshot, a health reading, a log, a tool's verdict, a day's
    /// close) are `indirect`, kept behind a reference: records are appended and copied many
    /// times, and a record as large as its largest payload moved ~200 bytes each time.
    public enum Kind: Sendable {
        case appRun(cause: String, synced: Bool)
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
        case settingsChanged([String])
        /// The device reported a new time zone (IANA names): clock times read in `to` from now.
        case timeZoneChanged(from: String, to: String)
        /// The saved state was fitted to a changed ruleset.
        indirect case stateReconciled(Reconciliation)
        /// An event the engine could not apply (out of order, unknown routine, …).
        case problem(code: String, message: String)
    }

    public var at: Date
    public var kind: Kind
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
        case .timeZoneChanged: "timezone.changed"
        case .stateReconciled: "state.reconciled"
        case .problem: "problem"
        }
    }
}
