import Foundation
import RulesDiagnostics
import RulesEngine
import Ruleset

/// A normal distribution to draw from: `mean` and standard deviation `sd`.
package struct Spread: Sendable, Hashable {
    package var mean: Double
    package var sd: Double

    package init(mean: Double, sd: Double) {
        self.mean = mean
        self.sd = sd
    }
}

/// A time of day to draw: `at` (seconds since midnight) with `sd` minutes of spread.
package struct TimeDraw: Sendable, Hashable {
    /// Probability per day (1 for draws that always happen).
    package var p: Double
    package var at: Int
    package var sdMinutes: Double

    package init(p: Double, at: Int, sdMinutes: Double) {
        self.p = p
        self.at = at
        self.sdMinutes = sdMinutes
    }
}

/// Habit logs a group makes: on a day (with probability `p`) `count` logs of `value`, each
/// at a time drawn around `at`.
package struct LogDraw: Sendable, Hashable {
    package var routine: String
    package var p: Double
    package var value: Double
    package var count: Int
    package var time: TimeDraw

    package init(routine: String, p: Double, value: Double, count: Int, time: TimeDraw) {
        self.routine = routine
        self.p = p
        self.value = value
        self.count = count
        self.time = time
    }
}

/// One group of a population: who its users are and how their days go.
package struct PopulationGroup: Sendable {
    package var name: String
    package var weight: Double
    /// Enabled routines; nil means every `default_enabled` routine.
    package var routines: [String]?
    /// Probability that HealthKit steps / sleep access is granted (else denied).
    package var stepsPermission: Double
    package var sleepPermission: Double
    /// Minutes slept the night before, clipped to 0…900; nil: HealthKit holds no sleep.
    package var sleepMinutes: Spread?
    /// When the night ends (the app reads sleep up to there).
    package var wake: TimeDraw
    /// A day's steps, clipped at 0, walked evenly from 07:00 to 23:00; nil: none.
    package var steps: Spread?
    package var appOpens: [TimeDraw]
    package var logs: [LogDraw]
    /// Probability that each item of a checklist routine is ticked, evenings.
    package var checks: [(routine: String, p: Double)]
    /// When the evening ticks happen.
    package var checkTime: TimeDraw
    /// Responses to each delivered notification: opened, ignored, else none.
    package var opened: Double
    package var ignored: Double
    package var skipToday: Double
    package var origin: Origin
    /// What notices make the group's users do, how that wears off, fatigue and opt-outs.
    package var behaviour = Behaviour()
    /// What the group's users set, drawn once per user.
    package var settings: [SettingDraw] = []
    /// How much the group's users differ from each other; nil: only by their daily draws.
    package var between: BetweenUsers? = nil

    package init(
        name: String, weight: Double, routines: [String]?, stepsPermission: Double, sleepPermission: Double, sleepMinutes: Spread?,
        wake: TimeDraw, steps: Spread?, appOpens: [TimeDraw], logs: [LogDraw], checks: [(routine: String, p: Double)], checkTime: TimeDraw,
        opened: Double, ignored: Double, skipToday: Double, origin: Origin, behaviour: Behaviour = Behaviour(), settings: [SettingDraw] = [],
        between: BetweenUsers? = nil
    ) {
        self.name = name
        self.weight = weight
        self.routines = routines
        self.stepsPermission = stepsPermission
        self.sleepPermission = sleepPermission
        self.sleepMinutes = sleepMinutes
        self.wake = wake
        self.steps = steps
        self.appOpens = appOpens
        self.logs = logs
        self.checks = checks
        self.checkTime = checkTime
        self.opened = opened
        self.ignored = ignored
        self.skipToday = skipToday
        self.origin = origin
        self.behaviour = behaviour
        self.settings = settings
        self.between = between
    }

    /// When a group wakes without `wake:`, and ticks its checklists without `check_at:`.
    package static let defaultWake = TimeDraw(p: 1, at: 7 * 3600, sdMinutes: 0)
    package static let defaultCheckTime = TimeDraw(p: 1, at: 21 * 3600 + 1800, sdMinutes: 45)
    /// The most minutes of sleep a night (`sleep_minutes`), and of spread a time may have (`sd`).
    package static let maxSleepMinutes = 900.0
    package static let maxSpreadMinutes = 24 * 60.0
}

/// A population file (`populations/*.yaml`): synthetic users the engine lives day by day.
package struct Population: Sendable {
    package var name: String
    package var file: String
    package var seed: UInt64
    package var users: Int
    package var days: Int
    /// The first logical day (days since 1970-01-01).
    package var start: Int
    package var timeZoneName: String
    package var clock: LocalClock
    package var groups: [PopulationGroup]
    /// SHA-256 (hex) of the file's canonical content (comments and layout aside): shards
    /// merge only when they lived the same population, whatever its name says.
    package var sha256: String

    package init(
        name: String, file: String, seed: UInt64, users: Int, days: Int, start: Int, timeZoneName: String, clock: LocalClock,
        groups: [PopulationGroup], sha256: String
    ) {
        self.name = name
        self.file = file
        self.seed = seed
        self.users = users
        self.days = days
        self.start = start
        self.timeZoneName = timeZoneName
        self.clock = clock
        self.groups = groups
        self.sha256 = sha256
    }

    /// Bounds of a population file: a run is users × days user-days.
    package static let maxUsers = 10_000_000
    package static let maxDays = 3_660
    package static let maxGroups = 100
    package static let maxDrawsPerGroup = 100
    package static let maxLogsPerDraw = 100

    /// Whether `days` days from `start` all lie within the days the engine lives and closes.
    package static func livesWithinEngineDays(start: Int, days: Int) -> Bool {
        InputLimits.simulatedDays.contains(start) && InputLimits.simulatedDays.contains(start + Swift.max(days, 1) - 1)
    }

    /// The most events a run may live (users × days × a day's events at most): about an hour
    /// of both cores of a laptop. Past it the run is refused before it starts.
    package static let maxEvents = 2_000_000_000
    /// The most events one user's days may hold: a user is generated whole, so this bounds
    /// a run's memory (about 100 MB), whatever the users.
    package static let maxEventsPerUser = 2_000_000

    /// The most events a user of any group can have in a day: app opens, logs (each
    /// `count`), checklist ticks, a skip, and a response to each delivery (at most the
    /// policy's daily cap) — with acts, each delivery's act too (an opening, a log or every
    /// item of a checklist ticked) and a type switched off.
    package func maxEventsPerDay(ruleset: Ruleset) -> Int {
        let mostItems = ruleset.routines.map(\.items.count).max() ?? 0
        return groups.map { group in
            let ticks = group.checks.reduce(0) { $0 + (ruleset.routine($1.routine)?.items.count ?? 0) }
            let perDelivery = group.behaviour.isEmpty ? 1 : 3 + mostItems
            let settings = group.settings.isEmpty ? 0 : 1
            return group.appOpens.count + group.logs.reduce(0) { $0 + $1.count } + ticks + 1 + settings + ruleset.policy.maxPerDay * perDelivery
        }.max() ?? 0
    }

    /// Why `users` users over `days` days are too much work, or nil. Counted without
    /// overflow: every factor is bounded, and the products are compared by division.
    package func workProblem(users: Int, days: Int, ruleset: Ruleset) -> String? {
        let perDay = Swift.max(1, maxEventsPerDay(ruleset: ruleset))
        if days > Self.maxEventsPerUser / perDay {
            return
                "a user lives up to \(perDay) events a day, \(days) days: past \(Self.maxEventsPerUser) events a user; give fewer days or fewer draws"
        }
        if users > Self.maxEvents / (perDay * days) {
            return
                "\(users) users × \(days) days × up to \(perDay) events a day is past the bound of \(Self.maxEvents) events (hours of work); give fewer users or days, or split the run with --shard"
        }
        return nil
    }
}

extension Population {
    /// What differs between two populations' values (where each was read from aside: file,
    /// origins, hash): `groups.1.logs` and the like, empty when they draw the same users. The
    /// fit checks its file against the values it wrote this way.
    package func differences(from other: Population) -> [String] {
        var out: [String] = []
        func compare<T: Equatable>(_ name: String, _ a: T, _ b: T) { if a != b { out.append(name) } }
        compare("name", name, other.name)
        compare("seed", seed, other.seed)
        compare("users", users, other.users)
        compare("days", days, other.days)
        compare("start", start, other.start)
        compare("timezone", timeZoneName, other.timeZoneName)
        compare("groups", groups.count, other.groups.count)
        for (index, (a, b)) in zip(groups, other.groups).enumerated() {
            let at = "groups.\(index)."
            compare(at + "name", a.name, b.name)
            compare(at + "weight", a.weight, b.weight)
            compare(at + "routines", a.routines, b.routines)
            compare(at + "permission", [a.stepsPermission, a.sleepPermission], [b.stepsPermission, b.sleepPermission])
            compare(at + "sleep_minutes", a.sleepMinutes, b.sleepMinutes)
            compare(at + "wake", a.wake, b.wake)
            compare(at + "steps", a.steps, b.steps)
            compare(at + "app_opens", a.appOpens, b.appOpens)
            compare(at + "logs", a.logs, b.logs)
            if a.checks.map(\.routine) != b.checks.map(\.routine) || a.checks.map(\.p) != b.checks.map(\.p) { out.append(at + "checks") }
            compare(at + "check_at", a.checkTime, b.checkTime)
            compare(at + "response", [a.opened, a.ignored], [b.opened, b.ignored])
            compare(at + "skip_today", a.skipToday, b.skipToday)
            compare(at + "behaviour", a.behaviour, b.behaviour)
            compare(at + "settings", a.settings, b.settings)
            compare(at + "between_users", a.between, b.between)
        }
        return out
    }
}
