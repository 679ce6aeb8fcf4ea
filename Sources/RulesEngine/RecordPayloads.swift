import Foundation
import RulesExpression
import Ruleset

// What records carry: texts, gate and cancel reasons, run causes, problem codes, closes and verdicts.

/// A rendered text on a surface.
public struct RenderedText: Sendable, Hashable, Codable {
    /// The template rendered, nil for a fallback.
    public var templateID: String?
    /// The surface it was rendered for.
    public var surface: String
    /// The text shown.
    public var text: String
    /// True when a sensitive value was refused and the surface's fallback stands instead.
    public var redacted: Bool
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

extension CancelReason: Codable {
    /// Encoded as its trace spelling.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Reads the trace spelling back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        switch text {
        case "replanned": self = .replanned
        case "removed_from_ruleset": self = .removedFromRuleset
        default:
            guard let gate = GateReason(rawValue: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is no cancel reason")
            }
            self = .refused(gate)
        }
    }
}

/// A change made to a saved state so that it fits the ruleset it now runs under.
public struct Reconciliation: Sendable, Hashable, Codable {
    /// What kind of thing changed.
    public enum Subject: String, Sendable, Hashable, Codable {
        case ruleset, routine, notification, template, route, setting, log, item
    }

    /// What was done to it. Raw values are stable trace output.
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        /// The state now runs under this ruleset (its SHA-256's first 12 digits).
        case adopted
        /// A pending request of a removed notification type or template was cancelled.
        case cancelled
        /// A routine, type, log, ticked item, route item or setting value was dropped.
        case dropped
        /// A list or map setting lost the entries that no longer fit.
        case entriesDropped = "entries_dropped"
        /// A route the table no longer names was decided afresh.
        case decidedAfresh = "decided_afresh"
    }

    /// What kind of thing changed.
    public var subject: Subject
    /// The id of the routine, notification type, template, route, setting, log or item.
    public var id: String
    /// What was done.
    public var action: Action
}

/// Why the app ran (trace spelling: `open`, `log`, `edit_log`, `delete_log`, `check`,
/// `uncheck`, `widget:<intent>`, `action:<action>`, `tool_call`, `settings`, `timezone`,
/// `notification:<type>`, `notification_action:<action>`).
public enum RunCause: Sendable, Hashable, Codable {
    /// The user opened the app (or it refreshed): HealthKit synced.
    case open
    case log
    case editLog
    case deleteLog
    case check
    case uncheck
    /// A widget button.
    case widget(WidgetIntent)
    /// A route request of the user's.
    case action(RouteAction)
    /// A tool call of the on-device model (one run, whatever the tool does).
    case toolCall
    /// The user changed settings.
    case settings
    /// The device's time zone changed.
    case timezone
    /// The user opened a delivered notification of this type.
    case notification(type: String)
    /// The user chose one of a delivered notification's actions.
    case notificationAction(NotificationAction)

    /// The stable trace spelling.
    public var name: String {
        switch self {
        case .open: "open"
        case .log: "log"
        case .editLog: "edit_log"
        case .deleteLog: "delete_log"
        case .check: "check"
        case .uncheck: "uncheck"
        case .widget(let intent): "widget:" + intent.rawValue
        case .action(let action): "action:" + action.rawValue
        case .toolCall: "tool_call"
        case .settings: "settings"
        case .timezone: "timezone"
        case .notification(let type): "notification:" + type
        case .notificationAction(let action): "notification_action:" + action.rawValue
        }
    }
}

/// Why a user's route request changed nothing. Raw values are stable trace output.
public enum RefusedRequest: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user skipped today: the route and risk in force stay for the day.
    case daySkipped = "day_skipped"
}

/// What a `problem` record reports: an event the engine could not apply, or an expression
/// that could not be evaluated. Raw values are stable trace output.
public enum ProblemCode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A setting value of the wrong type or out of its bounds.
    case invalidSetting = "event.invalid_setting"
    /// A log value that is not a number from 0 to 10^6.
    case invalidValue = "event.invalid_value"
    /// A response to a request that was never delivered.
    case notDelivered = "event.not_delivered"
    /// An event before the last app run.
    case outOfOrder = "event.out_of_order"
    /// A time outside the days the engine lives (2000–2199).
    case outOfRange = "event.out_of_range"
    /// A log in a unit its routine does not use.
    case unitMismatch = "event.unit_mismatch"
    /// A checklist item its routine does not have.
    case unknownItem = "event.unknown_item"
    /// An edit or deletion of a log that is not today's.
    case unknownLog = "event.unknown_log"
    /// A delivery of a request that is not pending.
    case unknownRequest = "event.unknown_request"
    /// A log or tick of a routine that is not enabled.
    case unknownRoutine = "event.unknown_routine"
    /// A setting the ruleset does not declare.
    case unknownSetting = "event.unknown_setting"
    /// A time zone name that is not IANA's.
    case unknownTimeZone = "event.unknown_timezone"
    /// An expression could not be evaluated (its type is left out of the plan, its entry skipped).
    case evaluation = "expression.evaluation"
    /// A saved state whose time zone this system does not know (the state is left as it was).
    case stateTimeZone = "state.unknown_time_zone"
    /// With `Verification.compared`: what the step decided with the memos differs from what
    /// it decides with everything recomputed (a defect of the engine, never of the input).
    case memoMismatch = "engine.memo_mismatch"
}

/// A recovery item the route did not take, and why.
public struct RouteItemLeftOut: Sendable, Hashable, Codable {
    /// Why an item was left out.
    public enum Reason: String, Sendable, Hashable, Codable {
        case routineNotEnabled = "routine_not_enabled"
        case noStepsPermission = "no_steps_permission"
        case alreadyDone = "already_done"
    }

    /// The routine of the item.
    public var routine: String
    /// Why.
    public var reason: Reason
}

/// A candidate refused by a gate.
public struct SuppressedNotification: Sendable, Hashable, Codable {
    /// The request id it would have had.
    public var id: String
    /// Its notification type.
    public var type: String
    /// Its routine, for a per-routine type.
    public var routine: String?
    /// When it would have fired.
    public var fireAt: Date
    /// The logical day it belonged to.
    public var day: Int
    /// The gate that refused it.
    public var reason: GateReason
}

/// The close of a logical day.
public struct DayClose: Sendable, Hashable, Codable {
    /// The logical day closed.
    public var day: Int
    /// Its result.
    public var result: DayResult
    /// The streak after it.
    public var streak: Int
    /// XP gained at the close.
    public var xpGained: Int
    /// XP in all after it.
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
    /// The enabled routines' ids, each once: with `routineStatuses`, what `statuses` is made
    /// from, read without making a dictionary.
    public internal(set) var routineIDs: [String]
    /// The status of the routine at the same place in `routineIDs`.
    public internal(set) var routineStatuses: [RoutineStatus]

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
public struct ToolVerdict: Sendable, Hashable, Codable {
    /// Whether the call is applied, needs a question first, or is refused.
    public enum Outcome: String, Sendable, Hashable, Codable {
        case accepted, clarify, rejected
    }

    /// Why a call was rejected, in the order the checks run. Raw values are stable output.
    public enum Rejection: String, Sendable, Hashable, CaseIterable, Codable, Error {
        case tooLarge = "too_large"
        case malformedJSON = "malformed_json"
        case tooDeep = "too_deep"
        case unknownTool = "unknown_tool"
        case unknownArgument = "unknown_argument"
        case wrongType = "wrong_type"
        case outOfRange = "out_of_range"
        case unitMismatch = "unit_mismatch"
    }

    /// The tool named, when the call named one.
    public var tool: String?
    /// The verdict.
    public var outcome: Outcome
    /// Set when the outcome is `rejected`.
    public var rejection: Rejection?
    /// The argument that decided (for `clarify`: the one to ask for), when one did.
    public var argument: String?

    /// A verdict.
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
