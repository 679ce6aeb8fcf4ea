import Foundation
import RulesDiagnostics
import RulesPopulation
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
        let users = reader.users.keys.sorted().compactMap { reader.users[$0] }
        var points = FitPoints()
        for user in users { points.add(user) }
        var grouping = FitGrouping(points.points(order: Array(users.indices)), k: k, ruleset: ruleset, seed: seed)
        for (index, user) in users.enumerated() { grouping.add(user, at: index) }
        self.init(grouping, span: (reader.firstDay, reader.lastDay), unknownKinds: reader.unknownKinds, ruleset: ruleset)
    }

    /// The fit of users grouped and summed (`FitGrouping`), whose lines span `span` (first and
    /// last day) and held lines of `unknownKinds`.
    package init(_ grouping: FitGrouping, span: (first: Int, last: Int), unknownKinds: [String: Int], ruleset: Ruleset) {
        let fitted = grouping.sums.filter { $0.users > 0 }.map {
            FitEstimates.group($0, of: grouping.users, ruleset: ruleset, dayStart: ruleset.dayStartsAt)
        }
        // Largest group first, so the file reads from the most common users down.
        groups = fitted.sorted { $0.users > $1.users }
        users = grouping.users
        // A population lives at most `Population.maxDays`, and within the engine's days.
        let length = Swift.max(1, span.last - span.first + 1)
        days = Swift.min(length, Population.maxDays, InputLimits.simulatedDays.upperBound - span.first + 1)
        start = span.first
        var warnings = Array(Set(fitted.flatMap(\.notes))).sorted()
        warnings.append(Self.notFitted)
        if days < length { warnings.append("the telemetry spans \(length) days; the fitted file lives the first \(days)") }
        if !unknownKinds.isEmpty {
            warnings.append(
                "lines of unknown kinds were counted and skipped: \(unknownKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
            )
        }
        self.warnings = warnings
    }
}

/// Users grouped by their points (k-means on `FitPoints`, a user's index its place in key
/// order) and each group's sums, filled as the users are given again — in any order, as
/// often as a reader can give them (a features file is read twice rather than held).
package struct FitGrouping: Sendable {
    /// Each user's group, by index.
    let labels: [Int]
    private(set) var sums: [GroupSums]

    init(_ points: KMeans.Points, k: Int?, ruleset: Ruleset, seed: UInt64) {
        labels = KMeans.groups(points, k: k, minimumSize: PopulationFit.minimumGroup, seed: seed)
        sums = Array(repeating: GroupSums(ruleset: ruleset, dayStart: ruleset.dayStartsAt), count: (labels.max() ?? -1) + 1)
    }

    var users: Int { labels.count }

    /// Adds user `index` (its place in key order) to its group's sums.
    mutating func add(_ user: UserFeatures, at index: Int) {
        guard labels.indices.contains(index) else { return }
        sums[labels[index]].add(user)
    }
}
