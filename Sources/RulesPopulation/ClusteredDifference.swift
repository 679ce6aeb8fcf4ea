import Foundation
import RulesDiagnostics

/// The difference between two shares — the targeted routine done within the window after a
/// delivered versus a withheld decision point — with a 95 % interval that accounts for the
/// repeated measures of one user (a cluster-robust, CR1, variance by user: the estimator of a
/// micro-randomized trial's primary analysis).
///
/// Kept as integer sums per cluster and their products, so tallies merge exactly across jobs
/// and shards: with per-user sums n₁, y₁ (delivered points and completions) and n₀, y₀
/// (withheld), the estimate is b = Y₁/N₁ − Y₀/N₀ and its variance
/// G/(G−1) · Σ_users (S₁/N₁ − S₀/N₀)², S₁ = y₁ − n₁·Y₁/N₁, S₀ = y₀ − n₀·Y₀/N₀ — a quadratic form in
/// the per-user sums, so the sums of their pairwise products carry it.
package struct ClusteredDifference: Sendable, Equatable {
    package var clusters = 0
    package var n1 = 0
    package var y1 = 0
    package var n0 = 0
    package var y0 = 0
    /// Σ over users of the products of their sums (`yy1` = Σ y₁², `y1n0` = Σ y₁·n₀, …).
    var yy1 = 0, y1n1 = 0, nn1 = 0, yy0 = 0, y0n0 = 0, nn0 = 0, y1y0 = 0, y1n0 = 0, n1y0 = 0, n1n0 = 0

    package init() {}

    /// Adds one user's decision points: `n1` delivered (`y1` of them followed by the
    /// routine done in the window), `n0` withheld (`y0`).
    package mutating func add(n1: Int, y1: Int, n0: Int, y0: Int) {
        guard n1 + n0 > 0 else { return }
        clusters += 1
        self.n1 += n1
        self.y1 += y1
        self.n0 += n0
        self.y0 += y0
        yy1 += y1 * y1
        y1n1 += y1 * n1
        nn1 += n1 * n1
        yy0 += y0 * y0
        y0n0 += y0 * n0
        nn0 += n0 * n0
        y1y0 += y1 * y0
        y1n0 += y1 * n0
        n1y0 += n1 * y0
        n1n0 += n1 * n0
    }

    /// Adds another tally's sums (wrapping, never trapping: only a crafted result comes near
    /// the bounds, and the reader refuses sums past them).
    package mutating func merge(_ other: ClusteredDifference) {
        assign(zip(sums, other.sums).map { $0 &+ $1 })
    }

    /// The estimate with its 95 % interval; nil without delivered and withheld points or with
    /// fewer than two users.
    package var estimate: (difference: Double, low: Double, high: Double, delivered: Double, withheld: Double)? {
        guard n1 > 0, n0 > 0, clusters >= 2 else { return nil }
        let (N1, N0) = (Double(n1), Double(n0))
        let p1 = Double(y1) / N1
        let p0 = Double(y0) / N0
        // Σ S₁², Σ S₀², Σ S₁S₀ from the sums of products.
        let s11 = Double(yy1) - 2 * p1 * Double(y1n1) + p1 * p1 * Double(nn1)
        let s00 = Double(yy0) - 2 * p0 * Double(y0n0) + p0 * p0 * Double(nn0)
        let s10 = Double(y1y0) - p0 * Double(y1n0) - p1 * Double(n1y0) + p1 * p0 * Double(n1n0)
        let g = Double(clusters)
        let variance = Swift.max(0, g / (g - 1) * (s11 / (N1 * N1) - 2 * s10 / (N1 * N0) + s00 / (N0 * N0)))
        // Student's t with users − 1 degrees of freedom: with few users, the normal's 1.96 is
        // too narrow for a variance estimated from them.
        let half = StudentT.ninetyFive(users: clusters) * variance.squareRoot()
        let difference = p1 - p0
        return (difference, difference - half, difference + half, p1, p0)
    }

    /// The share of the points that were not done without the notice which the notice got
    /// done: (p₁ − p₀) / (1 − p₀) = 1 − q₁/q₀ with qᵢ = 1 − pᵢ — what acting adds when the
    /// user's own habit would also have done something in the window (independent of the act).
    /// Its standard error by the delta method over the same cluster-robust sums; nil as
    /// `estimate` is, or when every withheld point was done.
    package var attributable: (value: Double, se: Double)? {
        guard let e = estimate, e.withheld < 1 else { return nil }
        let (N1, N0) = (Double(n1), Double(n0))
        let (q1, q0) = (1 - e.delivered, 1 - e.withheld)
        let s11 = Double(yy1) - 2 * e.delivered * Double(y1n1) + e.delivered * e.delivered * Double(nn1)
        let s00 = Double(yy0) - 2 * e.withheld * Double(y0n0) + e.withheld * e.withheld * Double(nn0)
        let s10 = Double(y1y0) - e.withheld * Double(y1n0) - e.delivered * Double(n1y0) + e.delivered * e.withheld * Double(n1n0)
        let g = Double(clusters)
        // ∂/∂p₁ = 1/q₀, ∂/∂p₀ = −q₁/q₀².
        let (a, b) = (1 / q0, -q1 / (q0 * q0))
        let variance = Swift.max(0, g / (g - 1) * (a * a * s11 / (N1 * N1) + 2 * a * b * s10 / (N1 * N0) + b * b * s00 / (N0 * N0)))
        return (1 - q1 / q0, variance.squareRoot())
    }

    /// `+0.24 (95 % interval +0.19 … +0.29), 0.31 delivered vs 0.07 withheld, 1,204 and 1,187 points of 200 users`.
    package var text: String {
        guard let e = estimate else { return "too few points (\(n1) delivered, \(n0) withheld, \(clusters) users)" }
        func signed(_ x: Double) -> String { (x >= 0 ? "+" : "−") + String(format: "%.3f", abs(x)) }
        return "\(signed(e.difference)) (95 % interval \(signed(e.low)) … \(signed(e.high))), \(String(format: "%.3f", e.delivered)) delivered vs "
            + "\(String(format: "%.3f", e.withheld)) withheld, \(PopulationReport.grouped(n1)) and \(PopulationReport.grouped(n0)) points of \(PopulationReport.grouped(clusters)) users"
    }

    /// The sums as written in a result (read back by `init(json:)` for merging).
    package func json() -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let e = estimate {
            fields += [
                ("difference", .number(Self.rounded(e.difference))), ("low", .number(Self.rounded(e.low))), ("high", .number(Self.rounded(e.high))),
                ("delivered_share", .number(Self.rounded(e.delivered))), ("withheld_share", .number(Self.rounded(e.withheld))),
            ]
        }
        fields.append(("sums", .array(sums.map { .int($0) })))
        return .object(fields)
    }

    static func rounded(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    var sums: [Int] { [clusters, n1, y1, n0, y0, yy1, y1n1, nn1, yy0, y0n0, nn0, y1y0, y1n0, n1y0, n1n0] }

    /// The largest sum a result may hold (2^61: far past any run's sums of squares, and four
    /// of them add without overflow).
    static let maxSum = 1 << 61

    /// From the `sums` a result wrote; nil when they are not fifteen whole numbers from 0 to
    /// `maxSum`.
    init?(sums: [Int]) {
        guard sums.count == 15, sums.allSatisfy({ (0...Self.maxSum).contains($0) }) else { return nil }
        assign(sums)
    }

    private mutating func assign(_ sums: [Int]) {
        guard sums.count == 15 else { return }
        (clusters, n1, y1, n0, y0) = (sums[0], sums[1], sums[2], sums[3], sums[4])
        (yy1, y1n1, nn1, yy0, y0n0, nn0) = (sums[5], sums[6], sums[7], sums[8], sums[9], sums[10])
        (y1y0, y1n0, n1y0, n1n0) = (sums[11], sums[12], sums[13], sums[14])
    }
}
