import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// The readable text of a population's tally.
extension PopulationReport {
    package static func grouped(_ value: Int) -> String { HTMLReport.grouped(value) }

    static func percent(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "0 %" }
        let tenths = Int((Double(count) / Double(total) * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }

    static func summary(_ histogram: Histogram, p99: Bool = true) -> String {
        let mean = String(format: "%.2f", histogram.mean)
        return "mean \(mean), p50 \(histogram.quantile(0.5)), p90 \(histogram.quantile(0.9))"
            + (p99 ? ", p99 \(histogram.quantile(0.99))" : "") + ", max \(histogram.max)"
    }

    package static func text(_ tally: PopulationTally, header: PopulationHeader, shard: Shard? = nil) -> String {
        var out =
            "\(line(header.name)): \(grouped(tally.users)) users × \(header.days) days = \(grouped(tally.userDays)) user-days"
            + " (seed \(header.seed), from \(DateFormat.string(header.start)), ruleset \(header.rulesetSHA256.prefix(12)))"
            + (shard.map { $0 == .whole ? "" : ", shard \($0.text)" } ?? "") + "\n\n"
        let product = tally.product.lines(answers: tally.answers != nil)
        if !product.isEmpty {
            out += "for a product manager (95 % intervals over users; the engineering counts follow):\n"
            out += product.map { "  " + $0 + "\n" }.joined() + "\n"
        }
        out += "notifications delivered (suppressed: user-days on which a gate refused the type)\n"
        let types = tally.types.map(line)
        let width = types.map(\.count).max() ?? 0
        for (type, shown) in zip(tally.types, types) {
            let suppressed = (tally.suppressed[type] ?? [:]).sorted { $0.key < $1.key }.map { "\(line($0.key)) \(grouped($0.value))" }
            out += "  \(shown.padding(toLength: width, withPad: " ", startingAt: 0))  \(grouped(tally.delivered[type] ?? 0))"
            if let unseen = tally.answers?.unshown[type], unseen > 0 { out += ", \(grouped(unseen)) of them to devices that show nothing" }
            out += suppressed.isEmpty ? "\n" : "  (suppressed: \(suppressed.joined(separator: ", ")))\n"
        }
        out += "\ndeliveries per user-day: \(summary(tally.deliveriesPerUserDay))\n"
        out += bars(tally.deliveriesPerUserDay, total: tally.userDays)
        if let line = busiestDayLine(tally) { out += line + "\n" }
        if !tally.groups.isEmpty {
            out += "by group:\n"
            for row in groupRows(tally) { out += "  " + row.joined(separator: ", ") + "\n" }
        }
        out += "\nroute at the day's end: "
        out +=
            tally.routes.sorted { $0.key < $1.key }.map { "\(line($0.key)) \(percent($0.value, of: tally.userDays))" }.joined(separator: ", ") + "\n"
        if (tally.routes["none"] ?? 0) > 0 { out += "  (none: " + PopulationReport.noRoute + ")\n" }
        let changes = tally.routeChanges.sorted { $0.key < $1.key }.map { "\(line($0.key)) \(grouped($0.value))" }
        out += "route changes: \(changes.isEmpty ? "none" : changes.joined(separator: ", "))\n"
        out += "day results: "
        out +=
            tally.dayResults.sorted { $0.key < $1.key }.map { "\(line($0.key)) \(percent($0.value, of: tally.userDays))" }.joined(separator: ", ")
            + "\n"
        out += "streak at the end: \(summary(tally.streak, p99: false))\n"
        out += "XP at the end: \(summary(tally.xp, p99: false))\n"
        if let answers = tally.answers { out += answers.text }
        out += "\ninvariants: "
        out += tally.invariants.sorted { $0.key < $1.key }.map { "\(line($0.key)) \(grouped($0.value))" }.joined(separator: ", ") + "\n"
        for (kind, example) in tally.examples.sorted(by: { $0.key < $1.key }) {
            out += "  \(line(kind)): first at user \(example.user) on \(DateFormat.string(example.day)): \(line(example.what))\n"
            out += "    replay: \(replay(header, user: example.user))\n"
        }
        return out
    }

    /// A name from a population file or a result file (the population, a group, a type) as
    /// one line of terminal text: controls, line breaks and bidi controls escaped, so no name
    /// can start a line of its own (a forged `::error` in a CI log) or turn the rest around.
    package static func line(_ name: String) -> String { TextRenderer.oneLine(name) }

    /// A text histogram, one bar per value (at most 40 columns).
    static func bars(_ histogram: Histogram, total: Int) -> String {
        let rows = histogram.sorted
        let largest = rows.map(\.count).max() ?? 0
        var out = ""
        for row in rows {
            let length = largest == 0 ? 0 : Int((Double(row.count) / Double(largest) * 40).rounded(.up))
            out += "  \(String(row.value).leftPadded(to: 3)) \(String(repeating: "█", count: length)) \(grouped(row.count))\n"
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
