import Foundation
import RulesDiagnostics
import RulesEngine
import Ruleset

/// A population metric as `rules tune` and the population diff read it: its report name and how it is built from
/// each user's numbers, so that a value, its paired difference from the baseline and a 95 %
/// interval over users can be worked out from the users lived so far.
///
/// - A **count** (`notifications.by_type.morning_checkin.delivered`, `answers.opted_out_all`)
///   is shown for the whole population asked for: the mean per user lived × `--users` (on
///   the last round, the count itself).
/// - A **ratio** (`routes.light.share`, `notifications.per_user_day.mean`, `streak.mean`,
///   `answers.by_type.X.acted_share`) is a sum over users over another sum; its interval is
///   the linearised (delta-method) one of a ratio of per-user sums.
/// - A **quantile** (`….p50`, `.p90`, `.p99`, `.max`) comes from the users' histogram; its
///   interval from a bootstrap over users (the same resamples for a candidate and the
///   baseline, so the difference is paired).
package enum PopulationMetric: Sendable, Equatable {
    case count(String)
    case ratio(String, over: String)
    /// A quantile (1 for the maximum) of a family's histogram.
    case quantile(String, Double)

    /// The histogram families and the statistics a report gives them.
    static let families = ["notifications.per_user_day", "streak", "xp", "busiest_day"]
    static let quantiles: [(String, Double)] = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1)]

    /// How `name` is built, or nil when tune cannot use it (an effect of the trial, a seed).
    package static func form(_ name: String) -> PopulationMetric? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else { return nil }
        let last = parts[parts.count - 1]
        let family = parts.dropLast().joined(separator: ".")
        if isFamily(family) {
            if last == "mean" { return .ratio(family + ".sum", over: family == "notifications.per_user_day" ? "user_days" : population(of: family)) }
            if let q = quantiles.first(where: { $0.0 == last })?.1 { return .quantile(family, q) }
            return nil
        }
        if parts[0] == "routes", parts.count == 3, last == "share" { return .ratio("routes.\(parts[1]).user_days", over: "user_days") }
        if parts[0] == "answers", parts.count == 4, parts[1] == "by_type", last == "acted_share" {
            return .ratio("answers.by_type.\(parts[2]).acted", over: "answers.by_type.\(parts[2]).delivered")
        }
        if last == "share", parts.count == 3, parts[0] == "busiest_day", parts[1].hasPrefix("at_least_"),
            let n = Int(parts[1].dropFirst("at_least_".count)), n >= 1, n <= 1_000
        {
            return .ratio("busiest_day.at_least_\(n)", over: "users")
        }
        if last == "share", name == "answers.opted_out_all.share" || name == "answers.opted_out_any.share" {
            return .ratio(family, over: "users")
        }
        if last == "share", parts.count == 5, parts[0] == "answers", parts[1] == "by_type", parts[3] == "opted_out" {
            return .ratio(family, over: "users")
        }
        if parts[0] == "answers" && parts.count >= 2 && parts[1] == "effects" { return nil }
        if ["seed", "start", "users", "days"].contains(name) || parts[0] == "examples" { return nil }
        return .count(name)
    }

    /// `streak`, `busiest_day`, `groups.G.busiest_day`.
    static func isFamily(_ family: String) -> Bool {
        if families.contains(family) { return true }
        let parts = family.split(separator: ".")
        return parts.count == 3 && parts[0] == "groups" && parts[2] == "busiest_day"
    }

    /// Whose values a family holds: every user, or a group's.
    static func population(of family: String) -> String {
        family.hasPrefix("groups.") ? String(family.dropLast(".busiest_day".count)) + ".users" : "users"
    }

    /// Every metric name tune accepts for this ruleset and population (for did-you-mean and the
    /// reference): the report's numbers, and the shares tune adds (`busiest_day.at_least_3.share`,
    /// users who switched a type or every notice off).
    package static func names(ruleset: Ruleset, groups: [String], answers: Bool) -> [String] {
        var tally = PopulationTally()
        PopulationReport.complete(&tally, ruleset: ruleset)
        for rule in ruleset.notifications {
            for reason in GateReason.allCases { tally.suppressed[rule.id, default: [:]][reason.rawValue] = 0 }
        }
        for reason in Set(ruleset.route.map(\.reason)) { tally.routeChanges[reason] = 0 }
        for group in groups { tally.groups[group] = GroupTally() }
        var names = Set(PopulationDiff.numbers(PopulationReport.json(tally, header: .blank)).keys.filter { form($0) != nil })
        for n in 1...5 { names.insert("busiest_day.at_least_\(n).share") }
        if answers {
            names.insert("answers.opted_out_all")
            names.insert("answers.opted_out_all.share")
            for rule in ruleset.notifications {
                for key in ["delivered", "acted", "acted_share", "withheld", "opted_out", "opted_out.share"] {
                    names.insert("answers.by_type.\(rule.id).\(key)")
                }
            }
            for routine in ruleset.routines {
                names.insert("answers.completions.\(routine.id).completions")
                names.insert("answers.completions.\(routine.id).nudged")
                names.insert("completions.category.\(routine.category.rawValue)")
            }
            names.insert("completions.all")
            names.insert("answers.opted_out_any")
            names.insert("answers.opted_out_any.share")
        }
        names.remove("user_days")
        return names.sorted()
    }

    /// Whether the metric is a share (0 to 1), shown as a percentage and given as `10 %` or 0.1.
    package static func isShare(_ name: String) -> Bool { MetricWords.isShare(name) }
}

extension PopulationHeader {
    /// A header for working out metric names (nothing in it is a metric).
    package static let blank = PopulationHeader(name: "", file: "", users: 0, days: 0, seed: 0, start: 0, rulesetSHA256: "", populationSHA256: "")
}

/// One user's numbers under one candidate: the report's counts for that user alone, their
/// deliveries per day, streak, XP, busiest day and group.
package struct UserOutcome: Sendable {
    var counts: [String: Double]
    /// Deliveries per day: how many days had each count.
    var perDay: [Int: Int]
    var streak: Int
    var xp: Int
    var busiest: Int
    var group: String?

    /// From the tally of one user's run; `categories` maps each routine to its category.
    package init(_ tally: PopulationTally, categories: [String: String] = [:]) {
        counts = PopulationDiff.numbers(PopulationReport.json(tally, header: .blank)).filter { !$0.key.hasSuffix(".mean") }
        Self.addTotals(&counts, categories: categories)
        perDay = tally.deliveriesPerUserDay.counts
        streak = tally.streak.counts.keys.first ?? 0
        xp = tally.xp.counts.keys.first ?? 0
        busiest = tally.busiestDay.counts.keys.first ?? 0
        group = tally.groups.keys.first
    }

    /// The metrics people mean that the report has no line for: routines done in all
    /// (`completions.all`) and per category (`completions.category.water`), and whether the user
    /// switched any notice off, a type or every one (`answers.opted_out_any`).
    static func addTotals(_ counts: inout [String: Double], categories: [String: String]) {
        guard counts.keys.contains(where: { $0.hasPrefix("answers.") }) else { return }
        var all = 0.0
        var any = 0.0
        for (key, value) in counts {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 4, parts[0] == "answers", parts[1] == "completions", parts[3] == "completions" {
                all += value
                if let category = categories[String(parts[2])] { counts["completions.category.\(category)", default: 0] += value }
            } else if value > 0, key == "answers.opted_out_all" || (parts.count == 4 && parts[1] == "by_type" && parts[3] == "opted_out") {
                any = 1
            }
        }
        counts["completions.all"] = all
        counts["answers.opted_out_any"] = any
    }

    /// The user's part of a sum named by `PopulationMetric` (`users`, `user_days`, `streak.sum`, …).
    package func value(_ key: String) -> Double {
        switch key {
        case "users": return 1
        case "notifications.per_user_day.sum": return Double(perDay.reduce(0) { $0 + $1.key * $1.value })
        case "streak.sum": return Double(streak)
        case "xp.sum": return Double(xp)
        case "busiest_day.sum": return Double(busiest)
        default: break
        }
        if key.hasPrefix("busiest_day.at_least_"), let n = Int(key.dropFirst("busiest_day.at_least_".count)) { return busiest >= n ? 1 : 0 }
        if key.hasPrefix("groups.") {
            let parts = key.split(separator: ".").map(String.init)
            if parts.count == 3, parts[2] == "users" { return group == parts[1] ? 1 : 0 }
            if parts.count == 4, parts[2] == "busiest_day", parts[3] == "sum" { return group == parts[1] ? Double(busiest) : 0 }
        }
        return counts[key] ?? 0
    }

    /// The user's values in a histogram family: (value, days or 1).
    package func histogram(_ family: String) -> [(Int, Int)] {
        switch family {
        case "notifications.per_user_day": return perDay.map { ($0.key, $0.value) }
        case "streak": return [(streak, 1)]
        case "xp": return [(xp, 1)]
        case "busiest_day": return [(busiest, 1)]
        default:
            let parts = family.split(separator: ".")
            return parts.count == 3 && group == String(parts[1]) ? [(busiest, 1)] : []
        }
    }
}
