import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// The real health data of a day (what HealthKit holds), from which each sync reads.
package struct TrueHealth: Sendable, Hashable {
    package var stepsPermission: HealthReading.Permission = .notDetermined
    package var sleepPermission: HealthReading.Permission = .notDetermined
    /// The night before, seconds since midnight (start may be before midnight).
    package var sleepStart: Int?
    package var sleepEnd: Int?
    /// Cumulative steps at wall times (logical-day order), interpolated linearly.
    package var steps: [(seconds: Int, steps: Int)] = []
    package var average7: Int?
    package var yesterday: Int?

    package static func == (a: TrueHealth, b: TrueHealth) -> Bool {
        a.stepsPermission == b.stepsPermission && a.sleepPermission == b.sleepPermission && a.sleepStart == b.sleepStart
            && a.sleepEnd == b.sleepEnd && a.steps.map(\.seconds) == b.steps.map(\.seconds)
            && a.steps.map(\.steps) == b.steps.map(\.steps) && a.average7 == b.average7 && a.yesterday == b.yesterday
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(steps.count) }

    /// Last night's sleep in minutes.
    package var sleepMinutes: Int? {
        guard let start = sleepStart, let end = sleepEnd else { return nil }
        return ((end - start) % 86_400 + 86_400) % 86_400 / 60
    }

    /// Steps at logical position `position` (seconds after the day's start): linear between
    /// samples, rounded down; 0 before the first, the last value after the last.
    package func steps(at position: Int, dayStart: Int) -> Int {
        // The samples are read in place (a device model asks at every event and delivery:
        // an array of positions made per question was most of its cost).
        guard let first = steps.first else { return 0 }
        var a = (logical(of: first.seconds, dayStart: dayStart), first.steps)
        if position < a.0 { return 0 }
        for index in steps.indices.dropFirst() {
            let b = (logical(of: steps[index].seconds, dayStart: dayStart), steps[index].steps)
            if position >= a.0, position <= b.0 {
                if b.0 == a.0 { return b.1 }
                // Exact integers, rounded down (730 × 105 / 150 is 511, where doubles give 510):
                // counts are at most 10^9 and spans a day's seconds, so the product fits.
                let (quotient, remainder) = ((b.1 - a.1) * (position - a.0)).quotientAndRemainder(dividingBy: b.0 - a.0)
                return a.1 + quotient - (remainder < 0 ? 1 : 0)
            }
            a = b
        }
        return steps.last?.steps ?? 0
    }

    /// The final count of the day (yesterday's figure for the next day).
    package var finalSteps: Int { steps.last?.steps ?? 0 }

    /// What the app reads at a sync at logical position `position`.
    package func reading(at position: Int, dayStart: Int) -> HealthReading {
        let granted = stepsPermission == .granted
        let sleepGranted = sleepPermission == .granted
        return HealthReading(
            stepsPermission: stepsPermission, sleepPermission: sleepPermission,
            stepsToday: granted ? steps(at: position, dayStart: dayStart) : nil,
            stepsYesterday: granted ? yesterday : nil, stepsAverage7: granted ? average7 : nil,
            sleepMinutes: sleepGranted ? sleepMinutes : nil, sleepStart: sleepGranted ? sleepStart : nil,
            sleepEnd: sleepGranted ? sleepEnd : nil)
    }

    package init() {}
}

/// Seconds after the logical day's start for a wall time (the early hours come last).
package func logical(of seconds: Int, dayStart: Int) -> Int {
    seconds < dayStart ? seconds + 86_400 - dayStart : seconds - dayStart
}

/// One event of a scenario day.
package struct ScenarioEvent: Sendable {
    package enum Kind: Sendable {
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
    package var seconds: Int
    package var kind: Kind
    package var origin: Origin
    /// The clock `seconds` is read in: the zone in force when the event happens (before a
    /// `timezone:` event's own change); nil: the day's.
    package var clock: LocalClock? = nil

    package init(seconds: Int, kind: Kind, origin: Origin, clock: LocalClock? = nil) {
        self.seconds = seconds
        self.kind = kind
        self.origin = origin
        self.clock = clock
    }
}

/// An expectation of `rules test`.
package struct Expectation: Sendable {
    package enum Kind: Sendable {
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

    package var kind: Kind
    /// Wall time, seconds since midnight; nil means "any time that day" / "the day".
    package var seconds: Int?
    package var origin: Origin
    /// The expectation as written, for reports.
    package var text: String
    /// The clock `seconds` is read in (the zone in force then, on a day the zone changes);
    /// nil: the day's.
    package var clock: LocalClock? = nil
}

/// One simulated day.
package struct ScenarioDay: Sendable {
    package var date: Int
    package var health: TrueHealth
    /// The day's own `settings:`, for that day only (over the top level and earlier days'
    /// `settings` events).
    package var settings: [String: Value]
    package var events: [ScenarioEvent]
    package var expectations: [Expectation]
    package var origin: Origin
    /// The zone in force when the day starts (after earlier days' `timezone:` events); nil:
    /// the scenario's. Its health samples are wall times of this clock.
    package var clock: LocalClock? = nil

    package init(
        date: Int, health: TrueHealth, settings: [String: Value], events: [ScenarioEvent], expectations: [Expectation], origin: Origin,
        clock: LocalClock? = nil
    ) {
        self.date = date
        self.health = health
        self.settings = settings
        self.events = events
        self.expectations = expectations
        self.origin = origin
        self.clock = clock
    }
}

/// A scenario file (SPEC §8): one day or several, with expectations.
package struct Scenario: Sendable {
    package var name: String
    package var file: String
    package var clock: LocalClock
    package var timeZoneName: String
    /// Enabled routines; nil means every `default_enabled` routine.
    package var routines: [String]?
    package var days: [ScenarioDay]
    /// Top-level `settings:` of a multi-day scenario: the user's settings from the first
    /// day on (a one-day scenario's are its day's own).
    package var settings: [String: Value] = [:]

    package init(
        name: String, file: String, clock: LocalClock, timeZoneName: String, routines: [String]?, days: [ScenarioDay],
        settings: [String: Value] = [:]
    ) {
        self.name = name
        self.file = file
        self.clock = clock
        self.timeZoneName = timeZoneName
        self.routines = routines
        self.days = days
        self.settings = settings
    }
}
