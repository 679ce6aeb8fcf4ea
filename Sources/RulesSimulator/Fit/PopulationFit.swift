import Foundation
import RulesDiagnostics
import Ruleset

/// `rules population fit`: groups of users found in telemetry, and for each group the
/// population file's keys estimated from what its users did, each with its standard error.
package struct PopulationFit: Sendable {
    /// A fitted value with its standard error (nil when none is worked out).
    package struct Estimate: Sendable, Equatable {
        package var value: Double
        package var se: Double?
    }

    /// One app-open slot: the chance a day, when (wall minutes) and its spread.
    package struct Slot: Sendable, Equatable {
        package var p: Estimate
        package var at: Estimate
        package var sd: Double
    }

    /// One routine's logs.
    package struct Logs: Sendable, Equatable {
        package var routine: String
        package var p: Estimate
        package var value: Double
        package var count: Int
        package var at: Estimate
        package var sd: Double
    }

    package struct Group: Sendable {
        package var users: Int
        package var userDays: Int
        package var weight: Estimate
        package var routines: [String]
        package var steps: Estimate
        package var sleep: Estimate
        package var sleepMinutes: (mean: Estimate, sd: Double)?
        package var wake: (at: Estimate, sd: Double)?
        package var stepsPerDay: (mean: Estimate, sd: Double)?
        package var slots: [Slot]
        package var logs: [Logs]
        package var checks: [(routine: String, p: Estimate)]
        package var checkAt: (at: Estimate, sd: Double)?
        package var opened: Estimate
        package var ignored: Estimate
        package var skipToday: Estimate
        /// Act chances by type from the trial (delivered − withheld), with the half-life.
        package var acts: [(type: String, p: Estimate)]
        package var halfLife: Double?
        package var optOutType: Estimate
        /// Every notice switched off at the system level: the chance per delivery past `above`.
        package var optOutAll: (all: Estimate, above: Int)?
        /// What users set (from their settings lines before their first delivery).
        package var settings: [FittedSetting] = []
        /// The share of users whose device stopped showing notices (`notices` lines, off).
        package var noticesOff = Estimate(value: 0, se: nil)
        /// How much the users differ beyond their daily draws.
        package var between: BetweenUsers?
        /// Fatigue: deliveries a day before it, and the extra chance to ignore each one more.
        package var fatigue: (after: Int, perExtra: Estimate)?
        package var notes: [String]
    }

    package var groups: [Group]
    package var users: Int
    package var days: Int
    package var start: Int
    package var warnings: [String]

    /// What a fitted file leaves at the loader's defaults: a `tune` or `diff` whose verdict
    /// turns on these is not answered by the fitted file.
    package static let notFitted =
        "fitted only where the telemetry shows them (absent, so nobody in the fitted file has them): fatigue, where ignoring rises with a day's deliveries beyond two standard errors; opt_out.all, where someone's notices went off after a delivery; acts, where the trial ran (--randomize)"

    /// The fewest users a group may describe.
    package static let minimumGroup = 20

    /// Fits `reader`'s users against `ruleset`: `k` groups, or as many as the silhouette chooses.
    package init(_ reader: TelemetryReader, ruleset: Ruleset, k: Int?, seed: UInt64 = 7) {
        let keys = reader.users.keys.sorted()
        let users = keys.compactMap { reader.users[$0] }
        let features = FitFeatures(users, ruleset: ruleset)
        let labels = KMeans.groups(features.points, k: k, minimumSize: Self.minimumGroup, seed: seed)
        var fitted: [Group] = []
        for label in 0...(labels.max() ?? 0) {
            let members = zip(users, labels).filter { $0.1 == label }.map(\.0)
            guard !members.isEmpty else { continue }
            fitted.append(FitEstimates.group(members, of: users.count, ruleset: ruleset, dayStart: ruleset.dayStartsAt))
        }
        // Largest group first, so the file reads from the most common users down.
        groups = fitted.sorted { $0.users > $1.users }
        self.users = users.count
        // A population lives at most `Population.maxDays`, and within the engine's days.
        let span = Swift.max(1, reader.lastDay - reader.firstDay + 1)
        days = Swift.min(span, Population.maxDays, InputLimits.simulatedDays.upperBound - reader.firstDay + 1)
        start = reader.firstDay
        var warnings = Array(Set(fitted.flatMap(\.notes))).sorted()
        warnings.append(Self.notFitted)
        if days < span { warnings.append("the telemetry spans \(span) days; the fitted file lives the first \(days)") }
        if !reader.unknownKinds.isEmpty {
            warnings.append(
                "lines of unknown kinds were counted and skipped: \(reader.unknownKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
            )
        }
        self.warnings = warnings
    }
}

/// The per-user vectors users are grouped by, each dimension standardised over users: opens
/// a day in six four-hour windows, logs and ticks a day per routine, the share of notices
/// opened and ignored, sleep and steps (a user without them at the mean), and whether the user
/// keeps each routine (when the telemetry says).
struct FitFeatures {
    var points: [[Double]]

    init(_ users: [UserFeatures], ruleset: Ruleset) {
        let routines = Set(users.flatMap { $0.logs.keys }).sorted()
        let checklists = Set(users.flatMap { $0.ticks.keys }).sorted()
        // The routines users keep, when the telemetry says (`routine` lines): who keeps what
        // separates groups that log alike.
        let kept = Set(users.flatMap { $0.enabled ?? [] }).sorted()
        var raw: [[Double]] = users.map { user in
            let days = Double(Swift.max(1, user.days))
            var row = (0..<6).map { window in Double(user.opens[(window * 24)..<Swift.min(145, (window + 1) * 24)].reduce(0, +)) / days }
            row += routines.map { Double(user.logs[$0]?.count ?? 0) / days }
            row += checklists.map { Double(user.ticks[$0]?.count ?? 0) / days }
            let seen = Double(Swift.max(1, user.deliveries))
            row += [Double(user.opened) / seen, Double(user.ignored) / seen]
            row += [user.sleep[0] > 0 ? user.sleep[1] / user.sleep[0] : .nan, user.steps[0] > 0 ? user.steps[1] / user.steps[0] : .nan]
            row += kept.map { routine in user.enabled.map { $0.contains(routine) ? 1 : 0 } ?? .nan }
            return row
        }
        let d = raw.first?.count ?? 0
        for j in 0..<d {
            let column = raw.map { $0[j] }.filter { !$0.isNaN }
            let mean = column.isEmpty ? 0 : column.reduce(0, +) / Double(column.count)
            let variance = column.isEmpty ? 0 : column.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(column.count)
            let sd = variance.squareRoot()
            for i in raw.indices { raw[i][j] = sd > 0 && !raw[i][j].isNaN ? (raw[i][j] - mean) / sd : 0 }
        }
        points = raw
    }
}
