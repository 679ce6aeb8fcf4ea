import Foundation
import RulesDiagnostics

/// The handful of numbers a product manager reads first — routines done and notices a
/// user-day, success and failed days, users who switched a notice type or every notice off —
/// each with its 95 % interval over users (Student's t with users − 1 degrees of freedom).
///
/// Users are not kept: for each quantity x of a user with d user-days the tally holds Σx, Σx²
/// and Σxd, with Σd and Σd², which is all a ratio's linearised variance (per user-day) or a
/// share's (per user) needs. They add across jobs and shards, and a result file carries them
/// (`product.sums`) so `rules population merge` keeps the intervals.
package struct ProductFigures: Sendable, Equatable {
    /// The quantities, in the order of the sums.
    package enum Quantity: Int, CaseIterable, Sendable {
        case completions, success, failed, deliveries, typeOff, allOff

        var key: String {
            switch self {
            case .completions: "routines_done_per_user_day"
            case .success: "success_days"
            case .failed: "failed_days"
            case .deliveries: "notices_per_user_day"
            case .typeOff: "users_who_switched_a_type_off"
            case .allOff: "users_who_switched_every_notice_off"
            }
        }

        var words: String {
            switch self {
            case .completions: "routines done a user-day"
            case .success: "success days"
            case .failed: "failed days"
            case .deliveries: "notices a user-day"
            case .typeOff: "users who switched a notice type off"
            case .allOff: "users who switched every notice off"
            }
        }

        /// A share of users (0/1 a user), not a ratio over user-days.
        var perUser: Bool { self == .typeOff || self == .allOff }
        /// Shown as a percentage.
        var isShare: Bool { self != .completions && self != .deliveries }
        /// Known only for users who answer (completions and opt-outs are counted there).
        var needsAnswers: Bool { self == .completions || perUser }
    }

    /// users, Σd, Σd², then for each quantity Σx, Σx², Σxd.
    package private(set) var sums: [Int] = Array(repeating: 0, count: 3 + 3 * Quantity.allCases.count)

    package init() {}

    /// From a result file's `sums` (nil: not that many whole numbers from 0 to the bound).
    package init?(sums: [Int]) {
        guard sums.count == 3 + 3 * Quantity.allCases.count, sums.allSatisfy({ (0...ClusteredDifference.maxSum).contains($0) }) else { return nil }
        self.sums = sums
    }

    /// Adds one user's tally (the user's own, before it is merged).
    package mutating func add(user tally: PopulationTally) {
        let d = tally.userDays
        var values = Array(repeating: 0, count: Quantity.allCases.count)
        values[Quantity.completions.rawValue] = tally.answers?.completions.values.reduce(0, +) ?? 0
        values[Quantity.success.rawValue] = tally.dayResults["success"] ?? 0
        values[Quantity.failed.rawValue] = tally.dayResults["failed"] ?? 0
        values[Quantity.deliveries.rawValue] = tally.delivered.values.reduce(0, +)
        values[Quantity.typeOff.rawValue] = (tally.answers?.optedOut.values.contains { $0 > 0 } ?? false) ? 1 : 0
        values[Quantity.allOff.rawValue] = (tally.answers?.optedOutAll ?? 0) > 0 ? 1 : 0
        sums[0] &+= 1
        sums[1] &+= d
        sums[2] &+= d &* d
        for (index, x) in values.enumerated() {
            sums[3 + 3 * index] &+= x
            sums[4 + 3 * index] &+= x &* x
            sums[5 + 3 * index] &+= x &* d
        }
    }

    package mutating func merge(_ other: ProductFigures) {
        for index in sums.indices { sums[index] &+= other.sums[index] }
    }

    /// A quantity's value and 95 % interval; nil with fewer than two users or no user-days.
    package func estimate(_ q: Quantity) -> (value: Double, low: Double, high: Double)? {
        let n = Double(sums[0])
        let (sd, sdd) = (Double(sums[1]), Double(sums[2]))
        let i = 3 + 3 * q.rawValue
        let (sx, sxx, sxd) = (Double(sums[i]), Double(sums[i + 1]), Double(sums[i + 2]))
        guard sums[0] >= 2, sd > 0 else { return nil }
        let t = StudentT.ninetyFive(users: sums[0])
        let value: Double
        let se: Double
        if q.perUser {
            value = sx / n
            se = (Swift.max(0, (sxx - n * value * value) / (n - 1)) / n).squareRoot()
        } else {
            value = sx / sd
            let m = sd / n
            let z2 = (sxx - 2 * value * sxd + value * value * sdd) / (m * m)
            se = (Swift.max(0, z2) / (n * (n - 1))).squareRoot()
        }
        var low = value - t * se
        var high = value + t * se
        low = Swift.max(0, low)
        if q.isShare { high = Swift.min(1, high) }
        return (value, low, high)
    }

    /// The quantities this run can say (those needing answers only when users answered).
    package func shown(answers: Bool) -> [Quantity] { Quantity.allCases.filter { answers || !$0.needsAnswers } }

    /// `success days  13.5 % (95 % 12.1 % … 14.9 %)`.
    package func lines(answers: Bool) -> [String] {
        let quantities = shown(answers: answers)
        let width = quantities.map(\.words.count).max() ?? 0
        return quantities.compactMap { q in
            guard let e = estimate(q) else { return nil }
            return
                "\(q.words.padding(toLength: width, withPad: " ", startingAt: 0))  \(Self.format(e.value, q)) (95 % \(Self.format(e.low, q)) … \(Self.format(e.high, q)))"
        }
    }

    static func format(_ x: Double, _ q: Quantity) -> String { q.isShare ? MetricWords.percent(x) : String(format: "%.2f", x) }

    package func json(answers: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = shown(answers: answers).compactMap { q in
            estimate(q).map { e in
                (
                    q.key,
                    .object([
                        ("value", .number(Self.rounded(e.value))), ("low", .number(Self.rounded(e.low))), ("high", .number(Self.rounded(e.high))),
                    ])
                )
            }
        }
        fields.append(("sums", .array(sums.map { .int($0) })))
        return .object(fields)
    }

    static func rounded(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
}
