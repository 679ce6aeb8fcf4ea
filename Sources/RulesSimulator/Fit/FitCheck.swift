import Foundation

/// `rules population fit --check FITTED TELEMETRY…`: the headline metrics of the telemetry and
/// of the fitted population's own telemetry (lived for as many users and days), each a ratio
/// of per-user sums with its standard error over users. A metric fails when the two differ by
/// more than the larger of z × the standard error of their difference — z for 95 % after a
/// Bonferroni correction over the metrics compared — and 10 % of the telemetry's value (a
/// fitted file rounds and simplifies; a difference that small is not what a question turns on).
package struct FitCheck: Sendable {
    package struct Row: Sendable, Equatable {
        package var metric: String
        package var real: Double
        package var realSE: Double
        package var fitted: Double
        package var fittedSE: Double
        package var allowed: Double
        package var passes: Bool
    }

    package var rows: [Row]
    package var failures: [Row] { rows.filter { !$0.passes } }

    /// The per-user sums a metric is the ratio of: (top, bottom) for each user.
    typealias Parts = (UserFeatures) -> (Double, Double)

    /// The metrics compared: opens a day in each four-hour window of the wall clock, notices a
    /// day and the share opened, logs and ticks a day per routine, and route shares of days.
    static func metrics(_ real: TelemetryReader, dayStart: Int) -> [(String, Parts)] {
        var out: [(String, Parts)] = []
        for window in 0..<6 {
            let from = window * 4
            out.append(
                (
                    String(format: "opens_a_day.%02d-%02d", from, from + 4),
                    { user in
                        let count = user.opens.enumerated().reduce(0) { sum, bin in
                            let wall = (bin.offset * 10 + dayStart / 60) % 1_440
                            return sum + (wall / 240 == window ? bin.element : 0)
                        }
                        return (Double(count), Double(user.days))
                    }
                ))
        }
        out.append(("notices_a_day", { (Double($0.deliveries), Double($0.days)) }))
        out.append(("notices_opened.share", { (Double($0.opened), Double($0.deliveries)) }))
        let routines = Set(real.users.values.flatMap { $0.logs.keys }).sorted()
        for routine in routines { out.append(("logs_a_day.\(routine)", { (Double($0.logs[routine]?.count ?? 0), Double($0.days)) })) }
        let checklists = Set(real.users.values.flatMap { $0.ticks.keys }).sorted()
        for routine in checklists { out.append(("ticks_a_day.\(routine)", { (Double($0.ticks[routine]?.count ?? 0), Double($0.days)) })) }
        let routes = Set(real.users.values.flatMap { $0.routeDays.keys }).sorted()
        for route in routes {
            out.append(("routes.\(route).share", { (Double($0.routeDays[route] ?? 0), Double($0.routeDays.values.reduce(0, +))) }))
        }
        return out
    }

    package init(real: TelemetryReader, fitted: TelemetryReader, dayStart: Int) {
        let metrics = Self.metrics(real, dayStart: dayStart)
        let z = Self.z(alpha: 0.05 / Double(Swift.max(1, metrics.count)))
        let realUsers = real.users.keys.sorted().compactMap { real.users[$0] }
        let fittedUsers = fitted.users.keys.sorted().compactMap { fitted.users[$0] }
        rows = metrics.map { name, parts in
            let (a, aSE) = Self.ratio(realUsers.map(parts))
            let (b, bSE) = Self.ratio(fittedUsers.map(parts))
            let allowed = Swift.max(z * (aSE * aSE + bSE * bSE).squareRoot(), 0.1 * abs(a))
            return Row(metric: name, real: a, realSE: aSE, fitted: b, fittedSE: bSE, allowed: allowed, passes: abs(b - a) <= allowed)
        }
    }

    /// Σtop / Σbottom and its linearised standard error over users (as tune's intervals).
    static func ratio(_ parts: [(Double, Double)]) -> (Double, Double) {
        let (r, z) = TuneEstimate.linearised(parts)
        return (r, TuneEstimate.spread(z))
    }

    /// The two-sided normal quantile for `alpha` (by bisection on the error function).
    static func z(alpha: Double) -> Double {
        var low = 0.0
        var high = 10.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if erfc(mid / 2.0.squareRoot()) > alpha { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// One line a metric: the telemetry's value, the fitted one, and whether it passes.
    package var text: String {
        var out = "metric: telemetry → fitted population (allowed difference)\n"
        for row in rows {
            out +=
                "  \(row.passes ? "ok  " : "FAIL") \(row.metric): \(Self.format(row.real)) ± \(Self.format(row.realSE)) → \(Self.format(row.fitted)) ± \(Self.format(row.fittedSE)) (±\(Self.format(row.allowed)))\n"
        }
        let failed = failures
        out += failed.isEmpty ? "every metric within its interval\n" : "outside: \(failed.map(\.metric).joined(separator: ", "))\n"
        return out
    }

    static func format(_ x: Double) -> String { String(format: abs(x) >= 100 ? "%.0f" : "%.3f", x) }
}
