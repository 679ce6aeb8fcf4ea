import Foundation
import RulesPopulation
import RulesTune

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
    package typealias Parts = (UserFeatures) -> (Double, Double)

    /// The metrics compared: opens a day in each four-hour window of the wall clock, notices a
    /// day and the share opened, logs and ticks a day per routine, route shares of days, and
    /// behaviour (`behaviour(_:)`).
    package static func metrics(_ real: TelemetryReader, dayStart: Int) -> [(String, Parts)] {
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
        return out + behaviour(real)
    }

    /// What users do with notices: deliveries of each type a day; for each type the trial
    /// withheld, the share of delivered and of withheld decision points whose routine was done
    /// in the window (the two sides of the trial's effect); the share ignored of a day's 1st, 2nd,
    /// 3rd and later deliveries (fatigue); the users who switched each type off, and those whose
    /// device stopped showing notices at all.
    static func behaviour(_ real: TelemetryReader) -> [(String, Parts)] {
        var out: [(String, Parts)] = []
        let types = Set(real.users.values.flatMap { $0.deliveredSoFar.keys }).sorted()
        for type in types { out.append(("notices_a_day.\(type)", { (Double($0.deliveredSoFar[type] ?? 0), Double($0.days)) })) }
        let trialTypes = Set(real.users.values.flatMap { user in user.trial.keys.filter { user.trial[$0]?.withheldPoints ?? 0 > 0 } }).sorted()
        for type in trialTypes {
            for (side, name) in [(0, "delivered"), (2, "withheld")] {
                out.append(
                    (
                        "trial.\(type).\(name)_done",
                        { user in
                            let cells = user.trial[type]?.bins.values.map { $0 } ?? []
                            return (Double(cells.reduce(0) { $0 + $1[side + 1] }), Double(cells.reduce(0) { $0 + $1[side] }))
                        }
                    ))
            }
        }
        for place in 0..<4 {
            out.append(
                (
                    "ignored_share.delivery_\(place == 3 ? "4+" : String(place + 1))",
                    { (Double($0.ignoredByPlace[place]), Double($0.deliveredByPlace[place])) }
                ))
        }
        for type in Set(real.users.values.flatMap(\.switchedOff)).sorted() {
            out.append(("switched_off.\(type).users", { ($0.switchedOff.contains(type) ? 1 : 0, 1) }))
        }
        if real.users.values.contains(where: \.noticesOff) { out.append(("notices_off.users", { ($0.noticesOff ? 1 : 0, 1) })) }
        for result in Set(real.users.values.flatMap { $0.resultDays.keys }).sorted() {
            out.append(("days.\(result).share", { (Double($0.resultDays[result] ?? 0), Double($0.resultDays.values.reduce(0, +))) }))
        }
        return out
    }

    /// Headline metrics of a population report the telemetry cannot give: said under the table.
    static let notCompared =
        "not compared (telemetry does not carry them): streak and XP, completions per routine, acts through the app (the trial's two sides stand for them)"

    package init(real: TelemetryReader, fitted: TelemetryReader, dayStart: Int) {
        let metrics = Self.metrics(real, dayStart: dayStart)
        self.init(names: metrics.map(\.0), real: Self.measured(real, metrics), fitted: Self.measured(fitted, metrics))
    }

    /// The rows from what was measured of each side's users: for every metric (of `names`),
    /// each user's (top, bottom), users in the order of their keys.
    package init(names: [String], real: [[(Double, Double)]], fitted: [[(Double, Double)]]) {
        let z = Self.z(alpha: 0.05 / Double(Swift.max(1, names.count)))
        rows = names.indices.map { index in
            let (a, aSE) = Self.ratio(real.indices.contains(index) ? real[index] : [])
            let (b, bSE) = Self.ratio(fitted.indices.contains(index) ? fitted[index] : [])
            let allowed = Swift.max(z * (aSE * aSE + bSE * bSE).squareRoot(), 0.1 * abs(a))
            return Row(
                metric: names[index], real: a, realSE: aSE, fitted: b, fittedSE: bSE, allowed: allowed, passes: abs(b - a) <= allowed)
        }
    }

    /// Each metric of `metrics` measured of `reader`'s users, in the order of their keys.
    package static func measured(_ reader: TelemetryReader, _ metrics: [(String, Parts)]) -> [[(Double, Double)]] {
        let users = reader.users.keys.sorted().compactMap { reader.users[$0] }
        return metrics.map { _, parts in users.map(parts) }
    }

    /// The same of users measured one at a time (as `fit --check` measures its lived users, each
    /// as it is read): by metric, in key order.
    package static func measured(_ users: [(key: String, parts: [(Double, Double)])], metrics: Int) -> [[(Double, Double)]] {
        let sorted = users.sorted { $0.key < $1.key }
        return (0..<metrics).map { index in sorted.map { $0.parts.indices.contains(index) ? $0.parts[index] : (0, 0) } }
    }

    /// Σtop / Σbottom and its linearised standard error over users (as tune's intervals).
    static func ratio(_ parts: [(Double, Double)]) -> (Double, Double) {
        let (r, z) = TuneEstimate.linearised(parts)
        return (r, TuneEstimate.spread(z))
    }

    /// The two-sided normal quantile for `alpha`.
    static func z(alpha: Double) -> Double { StudentT.normalQuantile(1 - alpha / 2) }

    /// One line a metric: the telemetry's value, the fitted one, and whether it passes.
    package var text: String {
        var out = "metric: telemetry → fitted population (allowed difference)\n"
        for row in rows {
            out +=
                "  \(row.passes ? "ok  " : "FAIL") \(row.metric): \(Self.format(row.real)) ± \(Self.format(row.realSE)) → \(Self.format(row.fitted)) ± \(Self.format(row.fittedSE)) (±\(Self.format(row.allowed)))\n"
        }
        let failed = failures
        out += failed.isEmpty ? "every metric within its interval\n" : "outside: \(failed.map(\.metric).joined(separator: ", "))\n"
        out += Self.notCompared + "\n"
        return out
    }

    static func format(_ x: Double) -> String { String(format: abs(x) >= 100 ? "%.0f" : "%.3f", x) }
}
