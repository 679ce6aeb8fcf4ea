import Foundation
import RulesPopulation

/// A metric of one candidate over the users lived so far: its value, its 95 % interval, and
/// its paired difference from the baseline (the same users, the same streams) with its own
/// 95 % interval. Two candidates that answer alike for every user differ by exactly 0, with an
/// interval of width 0.
package struct TuneEstimate: Sendable, Equatable {
    package var value: Double
    package var low: Double
    package var high: Double
    package var difference: Double
    package var differenceLow: Double
    package var differenceHigh: Double

    /// Bootstrap resamples for quantiles: enough that a 95 % interval's tails hold 25 resamples
    /// each (and 6 at the 98.75 % of four targets), so it does not collapse onto one value
    /// by the draw.
    static let resamples = 1_000

    /// `metric` for `users` (a candidate's outcomes) against `baseline` (the same users under
    /// the current ruleset), a count scaled to `population` users; `seed` fixes the resamples.
    /// `level` is the interval's two-sided confidence (0.95; higher for a target among
    /// several). Means and ratios over users take Student's t with users − 1 degrees of
    /// freedom, so a small first round gives the wider interval it should.
    static func of(
        _ metric: PopulationMetric, users: ArraySlice<UserOutcome>, baseline: ArraySlice<UserOutcome>, population: Int, seed: UInt64,
        level: Double = 0.95
    ) -> TuneEstimate {
        var e = unclamped(metric, users: users, baseline: baseline, population: population, seed: seed, level: level)
        // Counts, sums and quantiles of counts are never negative; a share of users, user-days
        // or deliveries never passes 1 (a normal interval near 0 % or 100 % would).
        e.low = Swift.max(0, e.low)
        if case .ratio(let top, _) = metric, !top.hasSuffix(".sum") {
            // A share seen at 0 (or 1) in every user is not known to be exactly that: the rule of
            // three bounds it by 3 / users at 95 %, so a handful of users never meets a target
            // on a rare event with confidence.
            let bound = 3 / Double(Swift.max(1, users.count))
            if e.value <= 0 { e.high = Swift.max(e.high, bound) }
            if e.value >= 1 { e.low = Swift.min(e.low, 1 - bound) }
            e.high = Swift.min(1, e.high)
            e.differenceLow = Swift.max(-1, e.differenceLow)
            e.differenceHigh = Swift.min(1, e.differenceHigh)
        }
        return e
    }

    static func unclamped(
        _ metric: PopulationMetric, users: ArraySlice<UserOutcome>, baseline: ArraySlice<UserOutcome>, population: Int, seed: UInt64, level: Double
    ) -> TuneEstimate {
        let t = users.count >= 2 ? StudentT.critical(level, df: Double(users.count - 1)) : 0
        switch metric {
        case .count(let key):
            let x = users.map { $0.value(key) }
            let b = baseline.map { $0.value(key) }
            let scale = Double(population)
            let (m, se) = meanAndError(x)
            let (d, dse) = meanAndError(zip(x, b).map { $0 - $1 })
            return TuneEstimate(
                value: m * scale, low: (m - t * se) * scale, high: (m + t * se) * scale, difference: d * scale,
                differenceLow: (d - t * dse) * scale, differenceHigh: (d + t * dse) * scale)
        case .ratio(let top, let bottom):
            let (r, z) = linearised(users, top, bottom)
            let (rb, zb) = linearised(baseline, top, bottom)
            let se = spread(z)
            let dse = spread(zip(z, zb).map { $0 - $1 })
            return TuneEstimate(
                value: r, low: r - t * se, high: r + t * se, difference: r - rb, differenceLow: r - rb - t * dse,
                differenceHigh: r - rb + t * dse)
        case .quantile(let family, let q):
            return bootstrap(family, q, users: users, baseline: baseline, seed: seed, level: level)
        }
    }

    /// The mean and its standard error.
    static func meanAndError(_ x: [Double]) -> (Double, Double) {
        guard !x.isEmpty else { return (0, 0) }
        let n = Double(x.count)
        let mean = x.reduce(0, +) / n
        guard x.count > 1 else { return (mean, 0) }
        let ss = x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (mean, (ss / (n - 1) / n).squareRoot())
    }

    /// The ratio Σtop / Σbottom and each user's linearised part of it, (top − r·bottom) / mean bottom.
    static func linearised(_ users: ArraySlice<UserOutcome>, _ top: String, _ bottom: String) -> (Double, [Double]) {
        linearised(users.map { ($0.value(top), $0.value(bottom)) })
    }

    /// The same for each user's (top, bottom).
    package static func linearised(_ parts: [(Double, Double)]) -> (Double, [Double]) {
        let sy = parts.reduce(0) { $0 + $1.1 }
        guard sy > 0 else { return (0, Array(repeating: 0, count: parts.count)) }
        let r = parts.reduce(0) { $0 + $1.0 } / sy
        let mean = sy / Double(parts.count)
        return (r, parts.map { ($0.0 - r * $0.1) / mean })
    }

    /// The standard error of a mean of linearised parts: √(Σz² / (n(n−1))).
    package static func spread(_ z: [Double]) -> Double {
        guard z.count > 1 else { return 0 }
        let n = Double(z.count)
        return (z.reduce(0) { $0 + $1 * $1 } / (n * (n - 1))).squareRoot()
    }

    /// A quantile with percentile-bootstrap intervals over users, paired: each resample draws
    /// the same users for the candidate and the baseline.
    static func bootstrap(
        _ family: String, _ q: Double, users: ArraySlice<UserOutcome>, baseline: ArraySlice<UserOutcome>, seed: UInt64, level: Double = 0.95
    )
        -> TuneEstimate
    {
        let mine = Histograms(users.map { $0.histogram(family) })
        let theirs = Histograms(baseline.map { $0.histogram(family) })
        let all = Array(0..<mine.users)
        var counter = Counter(mine, theirs)
        let value = counter.quantile(mine, all, q)
        let base = counter.quantile(theirs, all, q)
        // A maximum has no interval: more users can only raise it, so the lived users' maximum
        // is what a target on it is judged by.
        guard mine.users > 1, q < 1 else {
            return TuneEstimate(
                value: value, low: value, high: value, difference: value - base, differenceLow: value - base, differenceHigh: value - base)
        }
        var random = SplitMix64(mixing: seed, SplitMix64.fnv1a(family + "\u{1}\(q)"))
        var values: [Double] = []
        var differences: [Double] = []
        var picks = Array(repeating: 0, count: mine.users)
        for _ in 0..<resamples {
            for i in picks.indices { picks[i] = Int(random.next() % UInt64(mine.users)) }
            let a = counter.quantile(mine, picks, q)
            values.append(a)
            differences.append(a - counter.quantile(theirs, picks, q))
        }
        let (low, high) = percentiles(values, level: level)
        let (dLow, dHigh) = percentiles(differences, level: level)
        return TuneEstimate(
            value: value, low: Swift.min(low, value), high: Swift.max(high, value), difference: value - base,
            differenceLow: Swift.min(dLow, value - base),
            differenceHigh: Swift.max(dHigh, value - base))
    }

    /// The nearest-rank quantile of the histograms of the users `picks` (as `Histogram.quantile`).
    static func quantile(_ histograms: [[(Int, Int)]], _ picks: [Int], _ q: Double) -> Double {
        let flat = Histograms(histograms)
        var counter = Counter(flat)
        return counter.quantile(flat, picks, q)
    }

    /// Users' histograms laid end to end: user `u`'s (value, count) pairs are
    /// `starts[u] ..< starts[u + 1]`. A resample reads them without touching a user's own array.
    struct Histograms {
        var values: [Int] = []
        var counts: [Int] = []
        var starts: [Int] = [0]
        var users: Int { starts.count - 1 }

        init(_ histograms: [[(Int, Int)]]) {
            for histogram in histograms {
                for (value, count) in histogram {
                    values.append(value)
                    counts.append(count)
                }
                starts.append(values.count)
            }
        }
    }

    /// Counts of values over picked users: a flat array over the values' range when it is
    /// small (a thousand resamples add up every user's days a thousand times), else a dictionary.
    struct Counter {
        let lowest: Int
        var flat: [Int]?

        init(_ histograms: Histograms...) {
            let values = histograms.flatMap(\.values)
            let low = values.min() ?? 0
            let high = values.max() ?? 0
            lowest = low
            let (span, overflow) = high.subtractingReportingOverflow(low)
            flat = !overflow && span < 1 << 16 ? Array(repeating: 0, count: span + 1) : nil
        }

        mutating func quantile(_ histograms: Histograms, _ picks: [Int], _ q: Double) -> Double {
            guard var counts = flat else { return Self.sparse(histograms, picks, q) }
            flat = nil  // held alone while counting, so writing it never copies
            for i in counts.indices { counts[i] = 0 }
            var total = 0
            histograms.values.withUnsafeBufferPointer { values in
                histograms.counts.withUnsafeBufferPointer { numbers in
                    histograms.starts.withUnsafeBufferPointer { starts in
                        counts.withUnsafeMutableBufferPointer { counts in
                            for pick in picks {
                                for entry in starts[pick]..<starts[pick + 1] {
                                    counts[values[entry] - lowest] += numbers[entry]
                                    total += numbers[entry]
                                }
                            }
                        }
                    }
                }
            }
            flat = counts
            guard total > 0 else { return 0 }
            let rank = Swift.max(1, Int((q * Double(total)).rounded(.up)))
            var seen = 0
            for (offset, count) in counts.enumerated() {
                seen += count
                if seen >= rank { return Double(offset + lowest) }
            }
            return Double(lowest + counts.count - 1)
        }

        static func sparse(_ histograms: Histograms, _ picks: [Int], _ q: Double) -> Double {
            var counts: [Int: Int] = [:]
            var total = 0
            for pick in picks {
                for entry in histograms.starts[pick]..<histograms.starts[pick + 1] {
                    counts[histograms.values[entry], default: 0] += histograms.counts[entry]
                    total += histograms.counts[entry]
                }
            }
            guard total > 0 else { return 0 }
            let rank = Swift.max(1, Int((q * Double(total)).rounded(.up)))
            var seen = 0
            for value in counts.keys.sorted() {
                seen += counts[value] ?? 0
                if seen >= rank { return Double(value) }
            }
            return Double(counts.keys.max() ?? 0)
        }
    }

    /// The percentiles that hold `level` between them (2.5th and 97.5th for 0.95).
    static func percentiles(_ values: [Double], level: Double = 0.95) -> (Double, Double) {
        let sorted = values.sorted()
        guard let first = sorted.first, let last = sorted.last else { return (0, 0) }
        let n = sorted.count
        let tail = (1 - level) / 2
        let low = Int((tail * Double(n)).rounded(.down))
        let high = Int(((1 - tail) * Double(n)).rounded(.up)) - 1
        return (low < n ? sorted[low] : first, high >= 0 && high < n ? sorted[high] : last)
    }
}
