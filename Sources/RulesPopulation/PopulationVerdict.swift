import Foundation
import RulesDiagnostics
import Ruleset

/// The verdict of `rules diff --population`: each headline metric's paired difference (the
/// same users, the same streams, under both rulesets) with its 95 % interval over users, and
/// the ones that moved beyond it — worse or better for users — ordered by the standardised
/// effect (difference over its standard error), never by raw count. A notice the old ruleset
/// did not have is not news about itself: its own counters are set apart.
///
/// Users are not kept: each metric holds the sums of its per-user parts and of their products
/// (`PairedSums`), which is all a mean's or a ratio's linearised variance needs, so memory
/// does not grow with users.
package struct PopulationVerdict: Sendable {
    /// One metric's paired difference.
    package struct Moved: Sendable, Equatable {
        package var metric: String
        package var old: Double
        package var new: Double
        package var difference: Double
        package var low: Double
        package var high: Double
        /// Difference over its standard error.
        package var standardised: Double
        /// +1 better for users when it rises, −1 worse, 0 neither.
        package var direction: Int

        /// Beyond its interval: the interval excludes 0.
        package var beyond: Bool { low > 0 || high < 0 }
        /// `worse`, `better` or `changed`.
        package var judgement: String {
            let sign = difference > 0 ? 1 : -1
            return direction == 0 ? "changed" : direction * sign > 0 ? "better" : "worse"
        }
    }

    package var metrics: [String]
    /// Types only the new ruleset has: their own counters are not news.
    package var newTypes: [String]
    var sums: [String: PairedSums] = [:]
    var categories: [String: String]

    /// The metrics judged for a change from `old` to `new`.
    package init(old: Ruleset, new: Ruleset, answers: Bool) {
        let oldTypes = Set(old.notifications.map(\.id))
        newTypes = new.notifications.map(\.id).filter { !oldTypes.contains($0) }.sorted()
        let both = Set(new.notifications.map(\.id)).intersection(oldTypes)
        categories = Dictionary(new.routines.map { ($0.id, $0.category.rawValue) }, uniquingKeysWith: { a, _ in a })
        // A category of one routine repeats that routine's completions: judged once.
        var perCategory: [String: Int] = [:]
        for routine in new.routines { perCategory[routine.category.rawValue, default: 0] += 1 }
        let single = Set(perCategory.filter { $0.value == 1 }.keys)
        metrics = PopulationMetric.names(ruleset: new, groups: [], answers: answers).filter { name in
            guard let form = PopulationMetric.form(name) else { return false }
            if case .quantile = form { return false }
            let parts = name.split(separator: ".").map(String.init)
            if parts.count >= 3, parts[1] == "by_type" { return both.contains(parts[2]) && Self.typeFigure(parts) }
            if parts.count == 3, parts[0] == "completions", parts[1] == "category" { return !single.contains(parts[2]) }
            return PopulationDiff.isHeadline(name) || name == "completions.all" || name.hasSuffix(".share") && name.hasPrefix("answers.opted_out")
        }
        for metric in metrics { sums[metric] = PairedSums(components: Self.components(metric)) }
    }

    /// Per type: deliveries, refusals by each gate, acts and opt-outs.
    static func typeFigure(_ parts: [String]) -> Bool {
        if parts[0] == "notifications" { return parts.count == 4 && parts[3] == "delivered" || parts.count == 5 && parts[3] == "suppressed" }
        return parts.count == 4 && (parts[3] == "acted" || parts[3] == "opted_out")
    }

    static func components(_ metric: String) -> Int {
        if case .ratio? = PopulationMetric.form(metric) { return 4 }
        return 2
    }

    /// Adds one user's tallies under the old and the new ruleset.
    package mutating func add(old: PopulationTally, new: PopulationTally) {
        let a = UserOutcome(old, categories: categories)
        let b = UserOutcome(new, categories: categories)
        for metric in metrics {
            switch PopulationMetric.form(metric) {
            case .count(let key)?: sums[metric]?.add([a.value(key), b.value(key)])
            case .ratio(let top, let bottom)?: sums[metric]?.add([a.value(top), a.value(bottom), b.value(top), b.value(bottom)])
            default: break
            }
        }
    }

    package mutating func merge(_ other: PopulationVerdict) {
        for (metric, theirs) in other.sums {
            if var mine = sums[metric] {
                mine.merge(theirs)
                sums[metric] = mine
            } else {
                sums[metric] = theirs
            }
        }
    }

    /// Every metric's paired difference, largest standardised effect first.
    package var moved: [Moved] {
        metrics.compactMap { metric -> Moved? in
            guard let s = sums[metric], s.users >= 2, let form = PopulationMetric.form(metric) else { return nil }
            let n = Double(s.users)
            let t = StudentT.ninetyFive(users: s.users)
            var old = 0.0
            var new = 0.0
            var se = 0.0
            switch form {
            case .count:
                old = s.sum[0]
                new = s.sum[1]
                // Totals: n × the mean difference, its error n × √(var(d) / n).
                let sumD = new - old
                let sumD2 = s.quadratic([-1, 1])
                let variance = Swift.max(0, (sumD2 - sumD * sumD / n) / (n - 1))
                se = n * (variance / n).squareRoot()
            case .ratio:
                guard s.sum[1] > 0, s.sum[3] > 0 else { return nil }
                old = s.sum[0] / s.sum[1]
                new = s.sum[2] / s.sum[3]
                let (mOld, mNew) = (s.sum[1] / n, s.sum[3] / n)
                let sumZ2 = s.quadratic([-1 / mOld, old / mOld, 1 / mNew, -new / mNew])
                se = (Swift.max(0, sumZ2) / (n * (n - 1))).squareRoot()
            default: return nil
            }
            let d = new - old
            guard d != 0 else { return nil }
            return Moved(
                metric: metric, old: old, new: new, difference: d, low: d - t * se, high: d + t * se,
                standardised: se > 0 ? d / se : (d > 0 ? .infinity : -.infinity), direction: Self.direction(metric))
        }.sorted { abs($0.standardised) != abs($1.standardised) ? abs($0.standardised) > abs($1.standardised) : $0.metric < $1.metric }
    }

    /// Whether more of a metric is better (+1) or worse (−1) for users, or neither (0).
    static func direction(_ metric: String) -> Int {
        let parts = metric.split(separator: ".").map(String.init)
        if metric.hasPrefix("answers.opted_out") || (parts.count >= 4 && parts[3] == "opted_out") { return -1 }
        if metric.hasPrefix("completions.") || (parts.first == "answers" && parts.count == 4 && parts[1] == "completions") { return 1 }
        if parts.count >= 4, parts[3] == "acted" { return 1 }
        switch metric {
        case "day_results.success", "day_results.recovered", "streak.mean", "xp.mean": return 1
        case "day_results.failed": return -1
        default: return 0
        }
    }

    /// The verdict's lines: what moved beyond its interval, worse first, then better, then
    /// the rest; the new notices' own figures set apart.
    package func lines() -> [String] {
        let all = moved
        let beyond = all.filter(\.beyond)
        var out: [String] = []
        out.append(
            beyond.isEmpty
                ? "verdict: no headline metric moved beyond its 95 % interval (paired: the same users under both rulesets)"
                : "verdict: \(beyond.count) of \(metrics.count) headline metrics moved beyond their 95 % interval (paired: the same users under both rulesets), largest effect first:"
        )
        for judgement in ["worse", "better", "changed"] {
            for m in beyond where m.judgement == judgement {
                out.append("  \(judgement == "changed" ? "changed" : "\(judgement) for users"): \(Self.line(m))")
            }
        }
        if !newTypes.isEmpty {
            out.append(
                "  new notice\(newTypes.count == 1 ? "" : "s") \(newTypes.joined(separator: ", ")): \(newTypes.count == 1 ? "its" : "their") own figures are not news; what it does to the rest is above"
            )
        }
        return out
    }

    /// `35 headline metrics moved beyond their 95 % interval (most: …)`, for a first line.
    package var summary: String {
        let beyond = moved.filter(\.beyond)
        // The first a reader should see: the largest effect that is worse for users, if any.
        guard let top = beyond.first(where: { $0.judgement == "worse" }) ?? beyond.first else {
            return "no headline metric moved beyond its 95 % interval"
        }
        return
            "\(beyond.count) headline metric\(beyond.count == 1 ? "" : "s") moved beyond \(beyond.count == 1 ? "its" : "their") 95 % interval (most: \(top.judgement == "changed" ? "" : top.judgement + " for users: ")\(Self.line(top)))"
    }

    /// `recovery_route delivered: 12,345 → 10,100 (−2,245; 95 % −2,400 … −2,100)`.
    static func line(_ m: Moved) -> String {
        let words = MetricWords.words(m.metric)
        let named = words == m.metric ? m.metric : "\(words) [\(m.metric)]"
        return
            "\(named): \(MetricWords.number(m.old, m.metric)) → \(MetricWords.number(m.new, m.metric)) (\(MetricWords.signed(m.difference, m.metric)); 95 % \(MetricWords.signed(m.low, m.metric)) … \(MetricWords.signed(m.high, m.metric)))"
    }

    package func json() -> JSONValue {
        let moved: [JSONValue] = self.moved.filter(\.beyond).map(Self.json)
        return .object([
            ("metrics_judged", .int(metrics.count)), ("new_types", .array(newTypes.map { .string($0) })), ("moved", .array(moved)),
        ])
    }

    static func json(_ m: Moved) -> JSONValue {
        func number(_ x: Double) -> JSONValue { .number(MetricWords.rounded(x, m.metric)) }
        let standardised: Double = ((m.standardised.isFinite ? m.standardised : 1e9) * 100).rounded() / 100
        return .object([
            ("metric", .string(m.metric)), ("judgement", .string(m.judgement)), ("old", number(m.old)), ("new", number(m.new)),
            ("difference", number(m.difference)), ("low", number(m.low)), ("high", number(m.high)), ("standardised", .number(standardised)),
        ])
    }
}

/// Sums of per-user parts v and of their products v vᵀ: the variance of any linear
/// combination cᵀv over users is cᵀ(Σ v vᵀ)c less the square of its sum over n.
package struct PairedSums: Sendable {
    var users = 0
    var sum: [Double]
    var products: [Double]

    init(components: Int) {
        sum = Array(repeating: 0, count: components)
        products = Array(repeating: 0, count: components * components)
    }

    mutating func add(_ v: [Double]) {
        guard v.count == sum.count else { return }
        users += 1
        let k = v.count
        for i in 0..<k {
            sum[i] += v[i]
            for j in 0..<k { products[i * k + j] += v[i] * v[j] }
        }
    }

    mutating func merge(_ other: PairedSums) {
        guard other.sum.count == sum.count else { return }
        users += other.users
        for i in sum.indices { sum[i] += other.sum[i] }
        for i in products.indices { products[i] += other.products[i] }
    }

    /// cᵀ(Σ v vᵀ)c.
    func quadratic(_ c: [Double]) -> Double {
        let k = sum.count
        guard c.count == k else { return 0 }
        var total = 0.0
        for i in 0..<k { for j in 0..<k { total += c[i] * c[j] * products[i * k + j] } }
        return total
    }
}
