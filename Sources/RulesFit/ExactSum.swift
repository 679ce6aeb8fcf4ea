import Foundation

/// A sum of numbers that is their exact sum rounded once, whatever order the terms came in:
/// the exact sum is kept as non-overlapping partials (Shewchuk 1997, as Python's `math.fsum`).
/// A fit adds its users in the order they are read — by user key from telemetry lines, in file
/// order from a features file read as a stream — and both must give the same file, byte for byte.
/// A term that is not finite, or a sum past the largest number, makes the sum that term (or
/// ±infinity): the reader bounds every number, so only hostile sums of squares come near.
struct ExactSum: Sendable, Equatable {
    private var partials: [Double] = []
    private var special = 0.0

    init() {}

    mutating func add(_ term: Double) {
        guard term.isFinite else {
            special += term
            return
        }
        var x = term
        var kept = 0
        for index in partials.indices {
            var y = partials[index]
            if abs(x) < abs(y) { swap(&x, &y) }
            let high = x + y
            guard high.isFinite else {
                // Past the largest number: the sum is ±infinity from here on.
                special += high
                partials.removeAll()
                return
            }
            let low = y - (high - x)
            if low != 0 {
                partials[kept] = low
                kept += 1
            }
            x = high
        }
        partials.removeSubrange(kept...)
        partials.append(x)
    }

    /// The exact sum, rounded to the nearest number (ties to even).
    var value: Double {
        if special != 0 || special.isNaN { return special }
        var n = partials.count
        guard n > 0 else { return 0 }
        n -= 1
        var high = partials[n]
        var low = 0.0
        while n > 0 {
            let x = high
            n -= 1
            let y = partials[n]
            high = x + y
            low = y - (high - x)
            if low != 0 { break }
        }
        // Half-way between two numbers: the partials below decide which way it rounds.
        if n > 0, (low < 0 && partials[n - 1] < 0) || (low > 0 && partials[n - 1] > 0) {
            let y = low * 2
            let x = high + y
            if y == x - high { high = x }
        }
        return high
    }
}

/// Σy / Σn over users with its error clustered by user (CR1: the same person's days are not
/// independent draws): √(G/(G−1) · Σ(yᵢ − p·nᵢ)²) / Σn, G the users with any n. Kept as sums of
/// the users' y, n and their products (Σ(y − pn)² = Σy² − 2pΣyn + p²Σn²), so users can be added
/// one at a time, in any order.
struct ClusteredSums: Sendable, Equatable {
    var users = 0
    var y = ExactSum()
    var n = ExactSum()
    var yy = ExactSum()
    var yn = ExactSum()
    var nn = ExactSum()

    /// A user's y of n (nothing when n is 0).
    mutating func add(_ y: Double, of n: Double) {
        guard n > 0 else { return }
        users += 1
        self.y.add(y)
        self.n.add(n)
        yy.add(y * y)
        yn.add(y * n)
        nn.add(n * n)
    }

    /// The pooled share (at most `cap`) and its clustered error (nil with one user).
    func estimate(cap: Double = 1) -> PopulationFit.Estimate {
        let total = n.value
        guard total > 0 else { return PopulationFit.Estimate(value: 0, se: nil) }
        let p = Swift.min(cap, y.value / total)
        let g = Double(users)
        guard g > 1 else { return PopulationFit.Estimate(value: p, se: nil) }
        var squares = ExactSum()
        squares.add(yy.value)
        squares.add(-2 * p * yn.value)
        squares.add(p * p * nn.value)
        return PopulationFit.Estimate(value: p, se: (g / (g - 1) * Swift.max(0, squares.value)).squareRoot() / total)
    }
}

/// Count, sum and sum of squares of values added one at a time, in any order.
struct ExactMoments: Sendable, Equatable {
    var count = 0
    var sum = ExactSum()
    var squares = ExactSum()

    mutating func add(_ x: Double) {
        count += 1
        sum.add(x)
        squares.add(x * x)
    }

    /// The mean and the sample variance (over n − 1; 0 for one value).
    var meanAndVariance: (mean: Double, variance: Double) {
        let n = Double(count)
        let mean = sum.value / Swift.max(1, n)
        var deviations = ExactSum()
        deviations.add(squares.value)
        deviations.add(-mean * sum.value)
        return (mean, Swift.max(0, deviations.value) / Swift.max(1, n - 1))
    }
}
