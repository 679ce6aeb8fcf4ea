import Foundation

/// A population metric in a reader's words and units: `routes.light.share` is "user-days ending
/// on the light route", shown as a percentage (8.7 % → 15.1 %, +6.4 points); counts keep their
/// thousands separators. JSON keeps the dotted names (scripts filter on them); text and pages
/// show these words with the dotted name after them.
package enum MetricWords {
    /// The words for a dotted metric name; the name itself when none are known.
    package static func words(_ metric: String) -> String {
        let parts = metric.split(separator: ".").map(String.init)
        switch parts.first {
        case "routes" where parts.count == 3:
            let route = parts[1] == "none" ? "no route (the app never ran)" : "the \(parts[1]) route"
            return parts[2] == "share" ? "share of user-days ending on \(route)" : "user-days ending on \(route)"
        case "day_results" where parts.count == 2: return "\(parts[1]) days"
        case "notifications" where parts.count == 3 && parts[1] == "per_user_day":
            return "notices a user-day (\(statistic(parts[2])))"
        case "notifications" where parts.count >= 4 && parts[1] == "by_type":
            return parts[3] == "delivered"
                ? "\(parts[2]) delivered" : "user-days \(parts[2]) was refused\(parts.count > 4 ? " by \(parts[4])" : "")"
        case "route_changes" where parts.count == 2: return "route changes for \(parts[1])"
        case "streak" where parts.count == 2: return "streak at the end (\(statistic(parts[1])))"
        case "xp" where parts.count == 2: return "XP at the end (\(statistic(parts[1])))"
        case "busiest_day" where parts.count == 2: return "a user's busiest day of notices (\(statistic(parts[1])))"
        case "busiest_day" where parts.count == 3 && parts[1].hasPrefix("at_least_") && parts[2] == "share":
            return "share of users with a day of \(parts[1].dropFirst("at_least_".count)) or more notices"
        case "groups" where parts.count >= 3:
            return "\(parts[1]): " + words(parts.dropFirst(2).joined(separator: "."))
        case "deliveries" where parts.count == 1: return "notices delivered"
        case "answers" where parts.count == 4 && parts[1] == "by_type":
            switch parts[3] {
            case "acted": return "\(parts[2]) acted on"
            case "acted_share": return "share of \(parts[2]) acted on"
            case "opted_out": return "users who switched \(parts[2]) off"
            case "withheld": return "\(parts[2]) withheld (the trial)"
            default: return "\(parts[2]) seen"
            }
        case "answers" where parts.count == 2 && parts[1] == "opted_out_all": return "users who switched every notice off"
        case "answers" where parts.count == 2 && parts[1] == "opted_out_any": return "users who switched a notice type or every notice off"
        case "answers" where parts.count == 3 && parts[1] == "opted_out_any" && parts[2] == "share":
            return "share of users who switched a notice type or every notice off"
        case "completions" where parts.count == 2 && parts[1] == "all": return "routines done (every routine)"
        case "completions" where parts.count == 3 && parts[1] == "category": return "routines of the \(parts[2]) category done"
        case "answers" where parts.count == 3 && parts[1] == "opted_out_all" && parts[2] == "share":
            return "share of users who switched every notice off"
        case "answers" where parts.count == 5 && parts[1] == "by_type" && parts[3] == "opted_out" && parts[4] == "share":
            return "share of users who switched \(parts[2]) off"
        case "answers" where parts.count == 4 && parts[1] == "completions":
            return parts[3] == "nudged" ? "\(parts[2]) completions an act was behind" : "\(parts[2]) completions"
        default: return metric
        }
    }

    /// Whether the metric is a share from 0 to 1 (shown as a percentage).
    package static func isShare(_ metric: String) -> Bool { metric.hasSuffix(".share") || metric.hasSuffix("_share") }

    /// `mean`, `median`, `90th percentile`.
    static func statistic(_ name: String) -> String {
        switch name {
        case "p50": "median"
        case "p90": "90th percentile"
        case "p99": "99th percentile"
        default: name
        }
    }

    /// `share of user-days ending on the light route: 8.7 % → 15.1 % (+6.4 points)
    /// [routes.light.share]`.
    package static func line(_ metric: String, old: Double, new: Double) -> String {
        let delta = new - old
        let sign = delta > 0 ? "+" : ""
        if isShare(metric) {
            return "\(words(metric)): \(percent(old)) → \(percent(new)) (\(sign)\(String(format: "%.1f", delta * 100)) points) [\(metric)]"
        }
        let named = words(metric)
        return "\(named): \(PopulationDiff.format(old)) → \(PopulationDiff.format(new)) (\(sign)\(PopulationDiff.format(delta)))"
            + (named == metric ? "" : " [\(metric)]")
    }

    /// `8.7 %`.
    package static func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }

    /// A metric's value in a reader's units: a share as a percentage, a mean with two decimals,
    /// a count grouped.
    package static func number(_ value: Double, _ metric: String) -> String {
        if value < 0 { return "−" + number(-value, metric) }
        if MetricWords.isShare(metric) { return MetricWords.percent(value) }
        let whole: Bool
        switch PopulationMetric.form(metric) {
        case .count?, .quantile?: whole = true
        default: whole = value == value.rounded()
        }
        if whole, abs(value) < 1e15 { return PopulationReport.grouped(Int(value.rounded())) }
        return String(format: "%.2f", value)
    }

    /// A difference in the same units, signed (`+0.4 points`, `−12`).
    package static func signed(_ value: Double, _ metric: String) -> String {
        let sign = value > 0 ? "+" : value < 0 ? "−" : "±"
        if MetricWords.isShare(metric) { return sign + String(format: "%.1f", abs(value) * 100) + " points" }
        return sign + number(abs(value), metric)
    }

    /// The value as a JSON number rounded as the population report rounds it: shares to four
    /// decimals, means to two, counts whole when they are.
    package static func rounded(_ value: Double, _ metric: String) -> Double {
        if MetricWords.isShare(metric) { return (value * 10_000).rounded() / 10_000 }
        if metric.hasSuffix(".mean") { return (value * 100).rounded() / 100 }
        return (value * 10_000).rounded() / 10_000
    }
}
