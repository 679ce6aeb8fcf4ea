import Foundation
import RulesExpression
import Ruleset

/// A rendered text on a surface.
public struct RenderedText: Sendable, Hashable {
    public var templateID: String?
    public var surface: String
    public var text: String
    /// True when a sensitive value was refused and the surface's fallback stands instead.
    public var redacted: Bool
}

/// A notification request as scheduled with iOS (seed 8.4 plus SPEC §5.6's fields).
public struct ScheduledNotification: Sendable, Hashable {
    /// Stable request id: `<type>.<yyyyMMdd>` or `<type>.<routine>.<yyyyMMdd>`.
    public var id: String
    public var type: String
    public var routine: String?
    public var scheduledAt: Date
    /// Logical day the candidate belongs to.
    public var day: Int
    public var status: String
    public var deepLink: String?
    public var templateID: String
    public var sensitive: Bool
    public var createdReason: String
    public var interruptionLevel: InterruptionLevel
    /// 0…1; 0.2 when weakened to passive.
    public var relevance: Double
    public var threadID: String
    public var category: String
    public var actions: [NotificationAction]
    public var title: String?
    public var text: String
    public var redacted: Bool
}

/// A candidate refused by a gate.
public struct SuppressedNotification: Sendable, Hashable {
    public var id: String
    public var type: String
    public var routine: String?
    public var fireAt: Date
    public var day: Int
    /// `disabled`, `condition_false`, `completed`, `quiet_hours`, `daily_cap`,
    /// `category_cooldown`, `weakened`, `stale`, `max_pending`, `skipped`.
    public var reason: String
}

/// The close of a logical day.
public struct DayClose: Sendable, Hashable {
    public var day: Int
    public var result: DayResult
    public var streak: Int
    public var xpGained: Int
    public var xp: Int
    public var statuses: [String: RoutineStatus]
}

/// A tool call's verdict (SPEC §5.8).
public struct ToolVerdict: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        case accepted, clarify, rejected
    }

    public var tool: String?
    public var outcome: Outcome
    /// Why it was rejected (`malformed_json`, `unknown_tool`, …) or what to ask.
    public var reason: String?
    /// The argument that decided, when one did.
    public var argument: String?
}

/// One thing the engine did or decided, in time order: what the simulator prints and the
/// app may log (no sensitive values beyond what its surface allows).
public struct EngineRecord: Sendable {
    public enum Kind: Sendable {
        case appRun(cause: String, synced: Bool)
        case sync(HealthReading?)
        case log(HabitLog)
        case logChanged(HabitLog, deleted: Bool)
        case check(routine: String, item: String, checked: Bool)
        case riskChanged(from: RiskLevel?, to: RiskLevel)
        case routeChanged(from: RouteKind?, to: RouteKind, reason: String)
        case routeItemDone(RouteItemState)
        case notificationScheduled(ScheduledNotification)
        case notificationCancelled(ScheduledNotification, reason: String)
        case notificationDelivered(ScheduledNotification, staleCondition: Bool)
        case notificationSuppressed(SuppressedNotification)
        case notificationResponse(id: String, type: String, response: String)
        case templateRendered(RenderedText)
        case toolVerdict(ToolVerdict, log: HabitLog?)
        case snapshot(DailySnapshot)
        case dayClosed(DayClose)
        case settingsChanged([String])
        /// An event the engine could not apply (out of order, unknown routine, …).
        case problem(code: String, message: String)
    }

    public var at: Date
    public var kind: Kind
}
