/// The built-in facts every ruleset has, in slot order: one vocabulary from which the fact
/// schema (names, types, `??` hints) and the engine's slot layout are both derived.
public enum BuiltInFact: Int, Sendable, CaseIterable {
    case now
    case today
    case weekday
    case stepsToday
    case stepsYesterday
    case stepsAverage7
    case stepsGoal
    case sleepMinutes
    case sleepStart
    case sleepEnd
    case healthSteps
    case healthSleep
    case healthSyncedAt
    case waterML
    case waterGoal
    case completed
    case total
    case completionRate
    case route
    case risk
    case recoveryCompleted
    case recoveryItemsText
    case recoveryRemainingText
    case recoveryItemCount
    case questStart
    case questTarget
    case questClear
    case questCurrent
    case questRemaining
    case questProgress
    case sentToday
    case streakDays
    case event

    /// The name expressions use.
    public var name: String {
        switch self {
        case .now: "now"
        case .today: "today"
        case .weekday: "weekday"
        case .stepsToday: "steps.today"
        case .stepsYesterday: "steps.yesterday"
        case .stepsAverage7: "steps.avg7"
        case .stepsGoal: "steps.goal"
        case .sleepMinutes: "sleep.minutes"
        case .sleepStart: "sleep.start"
        case .sleepEnd: "sleep.end"
        case .healthSteps: "health.steps"
        case .healthSleep: "health.sleep"
        case .healthSyncedAt: "health.synced_at"
        case .waterML: "water.ml"
        case .waterGoal: "water.goal"
        case .completed: "completed"
        case .total: "total"
        case .completionRate: "completion_rate"
        case .route: "route"
        case .risk: "risk"
        case .recoveryCompleted: "recovery.completed"
        case .recoveryItemsText: "recovery.items_text"
        case .recoveryRemainingText: "recovery.remaining_text"
        case .recoveryItemCount: "recovery.item_count"
        case .questStart: "quest.steps.start"
        case .questTarget: "quest.steps.target"
        case .questClear: "quest.steps.clear"
        case .questCurrent: "quest.steps.current"
        case .questRemaining: "quest.steps.remaining"
        case .questProgress: "quest.steps.progress"
        case .sentToday: "notifications.sent_today"
        case .streakDays: "streak.days"
        case .event: "event"
        }
    }

    /// Its type.
    public var type: ExpressionType {
        switch self {
        case .now: .time
        case .today: .date
        case .weekday: .enumeration(.weekday)
        case .stepsToday: .int
        case .stepsYesterday: .int
        case .stepsAverage7: .int
        case .stepsGoal: .int
        case .sleepMinutes: .optional(.int)
        case .sleepStart: .optional(.time)
        case .sleepEnd: .optional(.time)
        case .healthSteps: .enumeration(.permission)
        case .healthSleep: .enumeration(.permission)
        case .healthSyncedAt: .optional(.time)
        case .waterML: .int
        case .waterGoal: .int
        case .completed: .int
        case .total: .int
        case .completionRate: .number
        case .route: .enumeration(.route)
        case .risk: .enumeration(.risk)
        case .recoveryCompleted: .bool
        case .recoveryItemsText: .optional(.string)
        case .recoveryRemainingText: .optional(.string)
        case .recoveryItemCount: .int
        case .questStart: .optional(.int)
        case .questTarget: .optional(.int)
        case .questClear: .optional(.int)
        case .questCurrent: .optional(.int)
        case .questRemaining: .optional(.int)
        case .questProgress: .optional(.number)
        case .sentToday: .int
        case .streakDays: .int
        case .event: .enumeration(.event)
        }
    }

    /// A sensible default to show in the `??` hint of an optional fact.
    public var suggestedDefault: String? {
        switch self {
        case .sleepMinutes: "420"
        case .sleepStart, .healthSyncedAt: "00:00"
        case .sleepEnd: "07:00"
        case .recoveryItemsText, .recoveryRemainingText: "\"\""
        case .questStart, .questTarget, .questClear, .questCurrent, .questRemaining, .questProgress: "0"
        default: nil
        }
    }
}
