import Foundation

/// Critical values of Student's t: the half-width multiplier of an interval whose standard
/// error comes from `G` users (clusters) is t with G − 1 degrees of freedom, not the normal's
/// 1.96, so that a handful of users gives the wider interval it should (with 5 users the 95 %
/// multiplier is 2.776). The quantile is found by bisection on the distribution function,
/// written with the regularised incomplete beta function (a continued fraction), which is
/// exact to far below the figures any report prints.
package enum StudentT {
    /// The two-sided multiplier: t such that P(|T| ≤ t) = `level` with `df` degrees of
    /// freedom; the normal's for `df` past a million or not finite; 0 for a level of 0.
    package static func critical(_ level: Double, df: Double) -> Double {
        guard level > 0, level < 1 else { return level >= 1 ? .infinity : 0 }
        let upper = (1 + level) / 2
        guard df.isFinite, df < 1_000_000 else { return normalQuantile(upper) }
        guard df >= 1 else { return .infinity }
        var low = 0.0
        var high = 1.0
        while cdf(high, df: df) < upper && high < 1e12 { high *= 2 }
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if cdf(mid, df: df) < upper { low = mid } else { high = mid }
            if high - low < 1e-12 * Swift.max(1, high) { break }
        }
        return (low + high) / 2
    }

    /// The 95 % two-sided multiplier for an interval over `users` users: t(users − 1).
    package static func ninetyFive(users: Int) -> Double {
        users >= 2 ? critical(0.95, df: Double(users - 1)) : .infinity
    }

    /// P(T ≤ t) for t ≥ 0.
    static func cdf(_ t: Double, df: Double) -> Double {
        let x = df / (df + t * t)
        return 1 - 0.5 * incompleteBeta(x, a: df / 2, b: 0.5)
    }

    /// The standard normal's quantile, by bisection on erfc.
    package static func normalQuantile(_ p: Double) -> Double {
        var low = -40.0
        var high = 40.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if 0.5 * erfc(-mid / 2.0.squareRoot()) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The regularised incomplete beta function I_x(a, b).
    static func incompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logBeta: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logBeta + logPowers)
        // The continued fraction converges fast for x < (a + 1) / (a + b + 2); otherwise use
        // the symmetry I_x(a, b) = 1 − I_{1−x}(b, a).
        if x < (a + 1) / (a + b + 2) { return front * fraction(x, a: a, b: b) / a }
        return 1 - front * fraction(1 - x, a: b, b: a) / b
    }

    /// The continued fraction of the incomplete beta function (modified Lentz).
    static func fraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...300 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + even * d
            if abs(d) < tiny { d = tiny }
            c = 1 + even / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + odd * d
            if abs(d) < tiny { d = tiny }
            c = 1 + odd / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            h *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return h
    }
}
