import Foundation
import RulesPopulation

/// The rounds of successive halving: how many candidates each round expects to keep and how
/// many users it lives (the same users a prefix of the next round's; the last round at the
/// full `users`). Candidates halve until two are left; users double each round back from the
/// last, never below `minimumUsers` in the first.
package struct TuneSchedule: Sendable, Equatable {
    /// Candidates expected alive in each round (fewer when targets rule some out).
    package var alive: [Int]
    /// Users lived by the end of each round.
    package var users: [Int]
    package var days: Int

    /// The fewest users a first round lives (fewer cannot say much of an interval).
    package static let minimumUsers = 20

    package init(candidates: Int, users: Int, days: Int) {
        var alive = [Swift.max(1, candidates)]
        while let last = alive.last, last > 2 { alive.append((last + 1) / 2) }
        var sizes = [users]
        for _ in alive.dropLast() { sizes.insert(Swift.max((sizes[0] + 1) / 2, Swift.min(Self.minimumUsers, users)), at: 0) }
        // Rounds that would live no new users are merged into the next.
        var rounds: [(Int, Int)] = []
        for (a, n) in zip(alive, sizes) {
            if let last = rounds.last, last.1 == n { rounds[rounds.count - 1] = (last.0, n) } else { rounds.append((a, n)) }
        }
        self.alive = rounds.map(\.0)
        self.users = rounds.map(\.1)
        self.days = days
    }

    /// User-days the schedule lives at most: every candidate expected alive in a round lives
    /// that round's new users, and the baseline lives them too once it has stopped.
    package var cost: Int {
        var total = 0
        var before = 0
        for (round, (a, n)) in zip(alive, users).enumerated() {
            let lived = (a + (round == 0 ? 0 : 1)).multipliedReportingOverflow(by: n - before)
            total = total.addingReportingOverflow(lived.partialValue.multipliedReportingOverflow(by: days).partialValue).partialValue
            before = n
        }
        return total
    }

    /// What living every candidate at full size costs.
    package static func fullCost(candidates: Int, users: Int, days: Int) -> Int {
        candidates.multipliedReportingOverflow(by: users).partialValue.multipliedReportingOverflow(by: days).partialValue
    }

    /// The most candidates (from `candidates` down to 2) whose schedule fits `budget`; nil
    /// when not even two do.
    package static func candidatesWithin(_ budget: Int, candidates: Int, users: Int, days: Int) -> Int? {
        var low = 2
        var high = candidates
        guard TuneSchedule(candidates: 2, users: users, days: days).cost <= budget else { return nil }
        while low < high {
            let mid = (low + high + 1) / 2
            if TuneSchedule(candidates: mid, users: users, days: days).cost <= budget { low = mid } else { high = mid - 1 }
        }
        return low
    }
}

/// The candidates of a search: the grid of the knobs' values when it fits, otherwise a
/// Latin-hypercube sample of it (every knob's values spread evenly over the sample), always
/// with the current ruleset first as the baseline.
package enum TuneCandidates {
    package static func make(_ question: TuneQuestion, limit: Int, seed: UInt64) -> [KnobSetting] {
        let baseline = KnobSetting(question.knobs.map(\.current))
        var out = [baseline]
        var seen: Set<KnobSetting> = [baseline]
        if question.gridSize <= limit {
            for setting in grid(question.values) where seen.insert(setting).inserted { out.append(setting) }
            return out
        }
        var random = SplitMix64(mixing: seed, 0x7475_6E65)
        let want = Swift.max(1, limit - 1)
        let columns: [[Int]] = question.values.map { values in
            var strata = Array(0..<want)
            for i in stride(from: want - 1, to: 0, by: -1) { strata.swapAt(i, Int(random.next() % UInt64(i + 1))) }
            return strata.map { Swift.min(values.count - 1, Int((Double($0) + random.uniform()) / Double(want) * Double(values.count))) }
        }
        for i in 0..<want {
            let setting = KnobSetting(question.values.indices.map { question.values[$0][columns[$0][i]] })
            if seen.insert(setting).inserted { out.append(setting) }
        }
        return out
    }

    /// Every combination, the last knob varying fastest.
    static func grid(_ values: [[Double]]) -> [KnobSetting] {
        var settings: [[Double]] = [[]]
        for column in values { settings = settings.flatMap { prefix in column.map { prefix + [$0] } } }
        return settings.map(KnobSetting.init)
    }
}
