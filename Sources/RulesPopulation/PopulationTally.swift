import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesSimulator
import Ruleset

/// Counts of whole numbers (deliveries in a user-day, a streak, XP): exact under merging,
/// and every quantile is read from it, so shards merged give what one run gives.
package struct Histogram: Sendable, Equatable {
    package private(set) var counts: [Int: Int] = [:]

    package init() {}

    package mutating func add(_ value: Int, count: Int = 1) { counts[value, default: 0] += count }

    package mutating func merge(_ other: Histogram) {
        for (value, count) in other.counts { add(value, count: count) }
    }

    package var total: Int { counts.values.reduce(0, +) }
    package var sorted: [(value: Int, count: Int)] { counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    /// The nearest-rank quantile: the least value with at least `q` of the counts at or below it.
    package func quantile(_ q: Double) -> Int {
        let total = self.total
        guard total > 0 else { return 0 }
        let rank = Swift.max(1, Int((q * Double(total)).rounded(.up)))
        var seen = 0
        for (value, count) in sorted {
            seen += count
            if seen >= rank { return value }
        }
        return sorted.last?.value ?? 0
    }

    package var mean: Double {
        let total = self.total
        guard total > 0 else { return 0 }
        let sum = counts.reduce(0.0) { $0 + Double($1.key) * Double($1.value) }
        return (sum / Double(total) * 100).rounded() / 100
    }

    package var max: Int { counts.keys.max() ?? 0 }

    /// `{mean, p50, p90, p99, max, histogram: [[value, count], …]}`.
    package func json(p99: Bool = true) -> JSONValue {
        var fields: [(String, JSONValue)] = [("mean", .number(mean)), ("p50", .int(quantile(0.5))), ("p90", .int(quantile(0.9)))]
        if p99 { fields.append(("p99", .int(quantile(0.99)))) }
        fields.append(("max", .int(max)))
        fields.append(("histogram", .array(sorted.map { .array([.int($0.value), .int($0.count)]) })))
        return .object(fields)
    }
}

/// The first user-day (by user, then day) that broke an invariant: replayable with
/// `rules population … --user N`.
package struct InvariantExample: Sendable, Equatable {
    package var user: Int
    package var day: Int
    package var what: String

    func precedes(_ other: InvariantExample) -> Bool { (user, day) < (other.user, other.day) }
}

/// Everything a population run counts, aggregated as users are lived (memory does not grow
/// with the number of users) and merged exactly across jobs and shards.
package struct PopulationTally: Sendable, Equatable {
    package var users = 0
    package var userDays = 0
    /// Deliveries per notification type.
    package var delivered: [String: Int] = [:]
    /// User-days on which a type was suppressed, by type and gate.
    package var suppressed: [String: [String: Int]] = [:]
    package var deliveriesPerUserDay = Histogram()
    /// User-days by the route they ended on (`none`: no app run decided one).
    package var routes: [String: Int] = [:]
    /// Route changes by reason (the first decision of a day is not a change).
    package var routeChanges: [String: Int] = [:]
    package var dayResults: [String: Int] = [:]
    package var streak = Histogram()
    package var xp = Histogram()
    /// Users by the most deliveries they got in one day ("how many users ever got 3 a day?").
    package var busiestDay = Histogram()
    /// The same, group by group (by the population file's group names).
    package var groups: [String: GroupTally] = [:]
    package var invariants: [String: Int] = [:]
    package var examples: [String: InvariantExample] = [:]
    /// What users who answer the operator did (nil: no group has behaviour keys and nothing
    /// was randomised, so the report is as it always was).
    package var answers: AnswersTally?
    /// The product numbers' sums over users (each user added once, by `PopulationRun.live`).
    package var product = ProductFigures()

    package init() {}

    package mutating func merge(_ other: PopulationTally) {
        users += other.users
        userDays += other.userDays
        for (key, value) in other.delivered { delivered[key, default: 0] += value }
        for (type, reasons) in other.suppressed {
            for (reason, count) in reasons { suppressed[type, default: [:]][reason, default: 0] += count }
        }
        deliveriesPerUserDay.merge(other.deliveriesPerUserDay)
        for (key, value) in other.routes { routes[key, default: 0] += value }
        for (key, value) in other.routeChanges { routeChanges[key, default: 0] += value }
        for (key, value) in other.dayResults { dayResults[key, default: 0] += value }
        streak.merge(other.streak)
        xp.merge(other.xp)
        busiestDay.merge(other.busiestDay)
        for (name, group) in other.groups { groups[name, default: GroupTally()].merge(group) }
        for (key, value) in other.invariants { invariants[key, default: 0] += value }
        for (key, example) in other.examples { note(key, example) }
        product.merge(other.product)
        if let theirs = other.answers {
            var mine = answers ?? AnswersTally()
            mine.merge(theirs)
            answers = mine
        }
    }

    mutating func note(_ kind: String, _ example: InvariantExample) {
        if let current = examples[kind], !example.precedes(current) { return }
        examples[kind] = example
    }

    package var violations: Int { invariants.values.reduce(0, +) }

    /// Users with at least `n` deliveries on some day: a row for every n from 1 to the busiest
    /// day when that is at most `everyCountUpTo`, else (only a crafted result has such days) a
    /// row for each count present. The work is bounded by the histogram's entries, never by
    /// its values: a day of 10^12 deliveries is one row, not 10^12.
    package var usersWithADayOfAtLeast: [(deliveries: Int, users: Int)] {
        let present = busiestDay.sorted.filter { $0.value >= 1 }
        guard let most = present.last?.value else { return [] }
        let counts = most <= Self.everyCountUpTo ? Array(1...most) : present.map(\.value)
        var rows: [(deliveries: Int, users: Int)] = []
        var atLeast = 0
        var next = present.count - 1
        for n in counts.reversed() {
            while next >= 0, present[next].value >= n {
                atLeast += present[next].count
                next -= 1
            }
            rows.append((n, atLeast))
        }
        return rows.reversed()
    }

    /// Up to this many deliveries on a busiest day, every count gets a row.
    static let everyCountUpTo = 100

    /// Every notification type delivered or suppressed, sorted.
    package var types: [String] { Set(delivered.keys).union(suppressed.keys).sorted() }
}

/// One group's part of a population: its users, their days and deliveries, and their
/// busiest days.
package struct GroupTally: Sendable, Equatable {
    package var users = 0
    package var userDays = 0
    package var deliveries = 0
    package var busiestDay = Histogram()

    package init() {}

    package mutating func merge(_ other: GroupTally) {
        users += other.users
        userDays += other.userDays
        deliveries += other.deliveries
        busiestDay.merge(other.busiestDay)
    }

    /// Users of the group with at least `n` deliveries on some day.
    package func usersWithADayOfAtLeast(_ n: Int) -> Int { busiestDay.counts.filter { $0.key >= n }.values.reduce(0, +) }
}

/// Counts one user's records into the user's own tally (`tally`), day by day. The tally is
/// held here, not passed in: the record sink then makes one access a step to what it
/// captured, not two (each a run-time exclusivity check).
struct UserTally {
    let user: Int
    /// The user's own small tally, merged once into the job's.
    var tally = PopulationTally()
    var invariants: Invariants
    var deliveredToday = 0
    /// The day's suppressions counted, by type and reason (a day has a few: searched, not
    /// hashed as a joined string made at every record).
    var suppressedToday: [(type: String, reason: GateReason)] = []
    var route: RouteKind?
    /// Deliveries on each day, in order (for `rules diff --population`).
    var deliveriesByDay: [Int] = []

    init(user: Int, ruleset: Ruleset, clock: LocalClock) {
        self.user = user
        invariants = Invariants(ruleset: ruleset, clock: clock)
    }

    mutating func count(_ records: [EngineRecord]) {
        // By index: a record copied out of the array retains its payload.
        for index in records.indices {
            for violation in invariants.check(records[index]) {
                tally.invariants[violation.kind.rawValue, default: 0] += 1
                tally.note(violation.kind.rawValue, InvariantExample(user: user, day: violation.day, what: violation.what))
            }
            switch records[index].kind {
            case .notificationDelivered(let request, _):
                tally.delivered[request.type, default: 0] += 1
                deliveredToday += 1
            case .notificationSuppressed(let suppressed):
                if !suppressedToday.contains(where: { $0.reason == suppressed.reason && $0.type == suppressed.type }) {
                    suppressedToday.append((suppressed.type, suppressed.reason))
                    tally.suppressed[suppressed.type, default: [:]][suppressed.reason.rawValue, default: 0] += 1
                }
            case .routeChanged(let from, let to, let reason):
                if from != nil { tally.routeChanges[reason, default: 0] += 1 }
                route = to
            case .dayClosed(let close):
                tally.userDays += 1
                tally.dayResults[close.result.rawValue, default: 0] += 1
                tally.routes[route?.rawValue ?? "none", default: 0] += 1
                tally.deliveriesPerUserDay.add(deliveredToday)
                deliveriesByDay.append(deliveredToday)
                deliveredToday = 0
                suppressedToday.removeAll(keepingCapacity: true)
                route = nil
                invariants.currentDay = close.day + 1
            default:
                break
            }
        }
    }

    /// The user's end: streak and XP, and the user's part of their group.
    mutating func finish(_ engine: OperatorEngine, group: String?) {
        tally.users += 1
        tally.streak.add(engine.profile.streakDays)
        tally.xp.add(engine.profile.xp)
        tally.busiestDay.add(deliveriesByDay.max() ?? 0)
        guard let group else { return }
        var mine = GroupTally()
        mine.users = 1
        mine.userDays = deliveriesByDay.count
        mine.deliveries = deliveriesByDay.reduce(0, +)
        mine.busiestDay.add(deliveriesByDay.max() ?? 0)
        tally.groups[group, default: GroupTally()].merge(mine)
    }
}
