import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// `rules diff OLD NEW --population POP`: every metric of the two results that differs, and
/// the user-days whose deliveries changed most.
package struct PopulationDiff: Sendable {
    package struct Change: Sendable, Equatable {
        package var metric: String
        package var old: Double
        package var new: Double
    }

    package var changes: [Change]
    package var days: [ChangedUserDay]
    package var header: PopulationHeader
    package var newRuleset: String
    /// What the population leaves out of its users' behaviour.
    package var unmodelled: Unmodelled?
    /// The paired differences over users, and what moved beyond its interval.
    package var verdict: PopulationVerdict?

    package init(old: PopulationTally, new: PopulationTally, header: PopulationHeader, days: [ChangedUserDay], newRuleset: String) {
        let a = PopulationDiff.numbers(PopulationReport.json(old, header: header))
        let b = PopulationDiff.numbers(PopulationReport.json(new, header: header))
        var changes: [Change] = []
        for key in Set(a.keys).union(b.keys).sorted() where a[key] != b[key] {
            changes.append(Change(metric: key, old: a[key] ?? 0, new: b[key] ?? 0))
        }
        self.changes = changes
        self.days = days
        self.header = header
        self.newRuleset = newRuleset
    }

    package var isEmpty: Bool { changes.isEmpty && days.isEmpty }

    /// Every number of a report by its dotted path (histogram arrays left out: their
    /// quantiles and means are compared).
    static func numbers(_ value: JSONValue, path: String = "") -> [String: Double] {
        switch value {
        case .int(let number): return path.isEmpty ? [:] : [path: Double(number)]
        case .number(let number): return path.isEmpty ? [:] : [path: number]
        case .object(let fields):
            var out: [String: Double] = [:]
            // The product block restates the report's own numbers with intervals: not metrics of its own.
            for (key, field) in fields where !["seed", "users", "days", "product"].contains(key) || !path.isEmpty {
                out.merge(numbers(field, path: path.isEmpty ? key : path + "." + key)) { a, _ in a }
            }
            return out
        default: return [:]
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? PopulationReport.grouped(Int(value)) : String(format: "%.4g", value)
    }

    /// Headline metrics: route shares, deliveries per user-day, day results, the mean
    /// streak, each group's, and what users who answer did: acts and opt-outs per type, users
    /// who switched every notice off, completions per routine.
    package static func isHeadline(_ metric: String) -> Bool {
        (metric.hasPrefix("routes.") && metric.hasSuffix(".share")) || metric.hasPrefix("notifications.per_user_day.")
            || metric.hasPrefix("day_results.") || metric == "streak.mean" || metric.hasPrefix("groups.")
            || (metric.hasPrefix("answers.by_type.") && (metric.hasSuffix(".acted") || metric.hasSuffix(".opted_out")))
            || metric == "answers.opted_out_all" || (metric.hasPrefix("answers.completions.") && metric.hasSuffix(".completions"))
    }

    /// `share of user-days ending on the light route: 6.1 % → 12.1 % (+6.0 points)
    /// [routes.light.share]` for each changed metric (or headline metric): in words and a
    /// reader's units (`MetricWords`).
    package func lines(headlineOnly: Bool = false) -> [String] {
        changes.filter { !headlineOnly || Self.isHeadline($0.metric) }.map { MetricWords.line($0.metric, old: $0.old, new: $0.new) }
    }

    /// The headline metric that moved most, relative to where it was (a share from 0.06 to
    /// 0.12 before a count from 7,057 to 7,067), as its line: what a first line names.
    package var largestHeadline: String? {
        // A new notice's own counters are not news (0 → its deliveries).
        let isNew = { (metric: String) in self.verdict?.newTypes.contains { metric.contains(".by_type.\($0).") } ?? false }
        let headline = changes.filter { Self.isHeadline($0.metric) && !$0.metric.hasPrefix("groups.") && !isNew($0.metric) }
        let pool = headline.isEmpty ? changes.filter { Self.isHeadline($0.metric) } : headline
        func relative(_ change: Change) -> Double { abs(change.new - change.old) / Swift.max(abs(change.old), 1e-9) }
        guard let top = pool.max(by: { relative($0) < relative($1) || (relative($0) == relative($1) && $0.metric > $1.metric) }) else { return nil }
        return MetricWords.line(top.metric, old: top.old, new: top.new)
    }

    /// `population sample populations/x.yaml: 1,000 users × 14 days, seed 7`.
    package func title(sample: Bool) -> String {
        "population \(sample ? "sample " : "")\(header.file): \(PopulationReport.grouped(header.users)) users × \(header.days) days, seed \(header.seed)"
    }

    package func text() -> String {
        var out =
            "\(PopulationReport.line(header.name)): \(PopulationReport.grouped(header.users)) users × \(header.days) days under both rulesets — \(changes.count) metric\(changes.count == 1 ? "" : "s") changed\n"
        if let line = unmodelled?.line { out += "  note: \(line)\n" }
        if let verdict {
            for line in verdict.lines() { out += "  \(line)\n" }
            out += "  every changed metric:\n"
        }
        for line in lines() { out += "  \(line)\n" }
        if !days.isEmpty {
            out += "\nuser-days whose deliveries changed most:\n"
            for day in days {
                out += "  user \(day.user) on \(DateFormat.string(day.day)): \(day.old) → \(day.new) deliveries\n"
                if let reason = day.reason { out += "    why: \(reason)\n" }
                var replay = header
                replay.ruleset = newRuleset
                out += "    replay: \(PopulationReport.replay(replay, user: day.user))\n"
            }
        }
        return out
    }

    package func json() -> JSONValue {
        .object([
            ("population", .string(header.name)), ("users", .int(header.users)), ("days", .int(header.days)),
            ("unmodelled", unmodelled?.json ?? .array([])), ("verdict", verdict?.json() ?? .null),
            (
                "changes",
                .array(
                    changes.map {
                        .object([
                            ("metric", .string($0.metric)), ("old", .number($0.old)), ("new", .number($0.new)), ("delta", .number($0.new - $0.old)),
                        ])
                    })
            ),
            (
                "user_days",
                .array(
                    days.map {
                        .object(
                            [("user", .int($0.user)), ("day", .string(DateFormat.string($0.day))), ("old", .int($0.old)), ("new", .int($0.new))]
                                + ($0.reason.map { [("why", JSONValue.string($0))] } ?? []))
                    })
            ),
        ])
    }
}
