import Foundation
import RulesExpression
import Ruleset

/// What the app reads from HealthKit at a sync (seed 5.5). `denied` and "no data" are
/// real states: steps are 0 and sleep unknown, and the app falls back to manual input.
public struct HealthReading: Sendable, Hashable, Codable {
    /// A HealthKit permission as iOS reports it.
    public enum Permission: String, Sendable, Hashable, CaseIterable, Codable {
        case granted, denied
        case notDetermined = "not_determined"
    }

    /// Steps permission at the sync.
    public var stepsPermission: Permission
    /// Sleep permission at the sync.
    public var sleepPermission: Permission
    /// Steps so far today (nil: no data).
    public var stepsToday: Int?
    /// Yesterday's steps, when known.
    public var stepsYesterday: Int?
    /// The average of the last 7 days' steps, when known.
    public var stepsAverage7: Int?
    /// Last night's sleep in minutes (nil: no data).
    public var sleepMinutes: Int?
    /// Sleep window, seconds since local midnight.
    public var sleepStart: Int?
    /// When last night's sleep ended (seconds since midnight), when known.
    public var sleepEnd: Int?

    /// A reading.
    public init(
        stepsPermission: Permission = .notDetermined, sleepPermission: Permission = .notDetermined,
        stepsToday: Int? = nil, stepsYesterday: Int? = nil, stepsAverage7: Int? = nil,
        sleepMinutes: Int? = nil, sleepStart: Int? = nil, sleepEnd: Int? = nil
    ) {
        self.stepsPermission = stepsPermission
        self.sleepPermission = sleepPermission
        self.stepsToday = stepsToday
        self.stepsYesterday = stepsYesterday
        self.stepsAverage7 = stepsAverage7
        self.sleepMinutes = sleepMinutes
        self.sleepStart = sleepStart
        self.sleepEnd = sleepEnd
    }
}

extension HealthReading {
    /// The reading with every value inside what a day can hold (steps 0…10^9, minutes
    /// 0…1,440, times of day 0…86,400 s): a host's impossible number never reaches the
    /// engine's arithmetic.
    var bounded: HealthReading {
        func clamp(_ value: Int?, _ upper: Int) -> Int? { value.map { Swift.min(Swift.max($0, 0), upper) } }
        var copy = self
        copy.stepsToday = clamp(stepsToday, 1_000_000_000)
        copy.stepsYesterday = clamp(stepsYesterday, 1_000_000_000)
        copy.stepsAverage7 = clamp(stepsAverage7, 1_000_000_000)
        copy.sleepMinutes = clamp(sleepMinutes, 1_440)
        copy.sleepStart = clamp(sleepStart, 86_400)
        copy.sleepEnd = clamp(sleepEnd, 86_400)
        return copy
    }
}

/// Where a habit log came from (seed 8.2).
public enum LogSource: String, Sendable, Hashable, CaseIterable, Codable {
    case healthkit, manual, widget
    case slmTool = "slm_tool"
    case timer
    case notificationAction = "notification_action"
}

/// The user's route requests (seed 9.5).
public enum RouteAction: String, Sendable, Hashable, CaseIterable, Codable {
    case reduceRoute = "reduce_route"
    case startRecovery = "start_recovery"
    case skipToday = "skip_today"
}

/// The quick-log widget's intents (seed 7.6).
public enum WidgetIntent: String, Sendable, Hashable, CaseIterable, Codable {
    case logWater250 = "log_water_250"
    case completeSupplement = "complete_supplement"
    case completeSkincare = "complete_skincare"
    case startRecovery = "start_recovery"
}

/// How the user answered a delivered notification.
public enum NotificationResponse: Sendable, Hashable {
    case opened
    case ignored
    case action(NotificationAction)
}

/// Something that happens to the app. Every case but `notificationIgnored` and
/// `notificationDelivered`… is an app run (SPEC §5.1): risk, route, snapshot and plan are
/// recomputed at its time. Runs that sync HealthKit carry the reading the app got.
public enum EngineEvent: Sendable {
    /// `app: open` / `app: refresh`: syncs HealthKit (`health`, nil if the sync failed).
    case appOpened(health: HealthReading?)
    case log(routine: String, value: Double, unit: RoutineUnit?, source: LogSource)
    /// Changes the value of an earlier log.
    case editLog(id: String, value: Double)
    case deleteLog(id: String)
    case check(routine: String, item: String)
    case uncheck(routine: String, item: String)
    case widget(WidgetIntent)
    case action(RouteAction)
    /// A proposed tool call from the on-device model, as JSON text: one app run whatever the
    /// tool does. `health` is the reading the host got when it performed an accepted
    /// `sync_health_data` (nil: no sync); the run syncs it.
    case toolCall(String, health: HealthReading? = nil)
    /// The user's answer to a delivered notification; `opened` syncs HealthKit.
    case notificationResponse(id: String, response: NotificationResponse, health: HealthReading?)
    /// New setting values from now on.
    case settings([String: Value])
    /// The device moved to another time zone (an IANA name). Not an app run of the user's,
    /// but the app re-plans: the logical day in progress keeps its date, and from now on
    /// clock times, quiet hours, `at:` times and `day_starts_at` are read in the new zone;
    /// a day whose end has already passed there closes first.
    case timeZoneChanged(String)
    /// iOS delivered the pending request `id` (not an app run: the app learns it from the
    /// notification center). `staleCondition`: its condition no longer held at delivery.
    case notificationDelivered(id: String, staleCondition: Bool)
}
