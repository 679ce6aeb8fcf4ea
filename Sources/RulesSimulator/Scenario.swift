import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// The real health data of a day (what HealthKit holds), from which each sync reads.
public struct TrueHealth: Sendable, Hashable {
    public var stepsPermission: HealthReading.Permission = .notDetermined
    public var sleepPermission: HealthReading.Permission = .notDetermined
    /// The night before, seconds since midnight (start may be before midnight).
    public var sleepStart: Int?
    public var sleepEnd: Int?
    /// Cumulative steps at wall times (logical-day order), interpolated linearly.
    public var steps: [(seconds: Int, steps: Int)] = []
    public var average7: Int?
    public var yesterday: Int?

    public static func == (a: TrueHealth, b: TrueHealth) -> Bool {
        a.stepsPermission == b.stepsPermission && a.sleepPermission == b.sleepPermission && a.sleepStart == b.sleepStart
            && a.sleepEnd == b.sleepEnd && a.steps.map(\.seconds) == b.steps.map(\.seconds)
            && a.steps.map(\.steps) == b.steps.map(\.steps) && a.average7 == b.average7 && a.yesterday == b.yesterday
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(steps.count) }

    /// Last night's sleep in minutes.
    public var sleepMinutes: Int? {
        guard let start = sleepStart, let end = sleepEnd else { return nil }
        return ((end - start) % 86_400 + 86_400) % 86_400 / 60
    }

    /// Steps at logical position `position` (seconds after the day's start): linear between
    /// samples, rounded down; 0 before the first, the last value after the last.
    public func steps(at position: Int, dayStart: Int) -> Int {
        let samples = steps.map { (logical(of: $0.seconds, dayStart: dayStart), $0.steps) }
        guard let first = samples.first else { return 0 }
        if position < first.0 { return 0 }
        for (a, b) in zip(samples, samples.dropFirst()) where position >= a.0 && position <= b.0 {
            if b.0 == a.0 { return b.1 }
            // Exact integers, rounded down (730 × 105 / 150 is 511, where doubles give 510):
            // counts are at most 10^9 and spans a day's seconds, so the product fits.
            let (quotient, remainder) = ((b.1 - a.1) * (position - a.0)).quotientAndRemainder(dividingBy: b.0 - a.0)
            return a.1 + quotient - (remainder < 0 ? 1 : 0)
        }
        return samples.last?.1 ?? 0
    }

    /// The final count of the day (yesterday's figure for the next day).
    public var finalSteps: Int { steps.last?.steps ?? 0 }

    /// What the app reads at a sync at logical position `position`.
    public func reading(at position: Int, dayStart: Int) -> HealthReading {
        let granted = stepsPermission == .granted
        let sleepGranted = sleepPermission == .granted
        return HealthReading(
            stepsPermission: stepsPermission, sleepPermission: sleepPermission,
            stepsToday: granted ? steps(at: position, dayStart: dayStart) : nil,
            stepsYesterday: granted ? yesterday : nil, stepsAverage7: granted ? average7 : nil,
            sleepMinutes: sleepGranted ? sleepMinutes : nil, sleepStart: sleepGranted ? sleepStart : nil,
            sleepEnd: sleepGranted ? sleepEnd : nil)
    }
}

/// Seconds after the logical day's start for a wall time (the early hours come last).
func logical(of seconds: Int, dayStart: Int) -> Int {
    seconds < dayStart ? seconds + 86_400 - dayStart : seconds - dayStart
}

/// One event of a scenario day.
public struct ScenarioEvent: Sendable {
    public enum Kind: Sendable {
        case app(refresh: Bool)
        case log(routine: String, value: Double, unit: RoutineUnit?, source: LogSource)
        case editLog(id: String, value: Double)
        case deleteLog(id: String)
        case check(routine: String, item: String)
        case uncheck(routine: String, item: String)
        case action(RouteAction)
        case toolCall(String)
        case notification(id: String, response: NotificationResponse)
        case settings([String: Value])
        case widget(WidgetIntent)
        /// The device moved to this time zone (an IANA name).
        case timeZone(String)
    }

    /// Wall time, seconds since midnight.
    public var seconds: Int
    public var kind: Kind
    public var origin: Origin
    /// The clock `seconds` is read in: the zone in force when the event happens (before a
    /// `timezone:` event's own change); nil: the day's.
    public var clock: LocalClock? = nil
}

/// An expectation of `rules test`.
public struct Expectation: Sendable {
    public enum Kind: Sendable {
        /// Delivered, optionally with this interruption level.
        case delivered(String, level: InterruptionLevel?)
        case suppressed(String, reason: GateReason?)
        case route(RouteKind)
        case risk(RiskLevel)
        case snapshot([(key: String, value: Value)])
        case day(DayResult)
        case notificationsDelivered(Int)
        /// `problem` records that day (events the engine could not apply, expressions that
        /// failed to evaluate). A day without this expectation expects none.
        case problems(Int)
        /// A tool call's verdict at that minute (and reason, when given).
        case verdict(ToolVerdict.Outcome, reason: String?)
        case streak(Int)
        case xp(Int)
        /// A condition that must hold at `at` (checked against the ruleset's schema).
        case that(CompiledExpression)
    }

    public var kind: Kind
    /// Wall time, seconds since midnight; nil means "any time that day" / "the day".
    public var seconds: Int?
    public var origin: Origin
    /// The expectation as written, for reports.
    public var text: String
    /// The clock `seconds` is read in (the zone in force then, on a day the zone changes);
    /// nil: the day's.
    public var clock: LocalClock? = nil
}

/// One simulated day.
public struct ScenarioDay: Sendable {
    public var date: Int
    public var health: TrueHealth
    /// The day's own `settings:`, for that day only (over the top level and earlier days'
    /// `settings` events).
    public var settings: [String: Value]
    public var events: [ScenarioEvent]
    public var expectations: [Expectation]
    public var origin: Origin
    /// The zone in force when the day starts (after earlier days' `timezone:` events); nil:
    /// the scenario's. Its health samples are wall times of this clock.
    public var clock: LocalClock? = nil
}

/// A scenario file (SPEC §8): one day or several, with expectations.
public struct Scenario: Sendable {
    public var name: String
    public var file: String
    public var clock: LocalClock
    public var timeZoneName: String
    /// Enabled routines; nil means every `default_enabled` routine.
    public var routines: [String]?
    public var days: [ScenarioDay]
    /// Top-level `settings:` of a multi-day scenario: the user's settings from the first
    /// day on (a one-day scenario's are its day's own).
    public var settings: [String: Value] = [:]
}
