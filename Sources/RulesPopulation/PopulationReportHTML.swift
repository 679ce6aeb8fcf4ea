import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// The HTML page of a population's tally.
extension PopulationReport {
    /// Text for the page (`HTMLReport.escape`: `&`, `<`, `>` and `"` as references).
    package static func escape(_ text: String) -> String { HTMLReport.escape(text) }

    /// "users with a day of ≥ 1 notice: 940 (94 %), ≥ 2: …" — users, not user-days.
    static func busiestDayLine(_ tally: PopulationTally) -> String? {
        let rows = tally.usersWithADayOfAtLeast
        guard !rows.isEmpty, tally.busiestDay.total == tally.users else { return nil }
        return "users with at least one day of ≥ N notices: "
            + rows.map { "≥ \($0.deliveries): \(grouped($0.users)) (\(percent($0.users, of: tally.users)))" }.joined(separator: ", ")
    }

    /// Each group's users, user-days, mean deliveries per user-day and users who ever got the
    /// busiest day's count of notices (as text cells).
    static func groupRows(_ tally: PopulationTally) -> [[String]] {
        let most = tally.busiestDay.counts.keys.max() ?? 0
        return tally.groups.sorted { $0.key < $1.key }.map { name, group in
            let mean = group.userDays == 0 ? 0 : Double(group.deliveries) / Double(group.userDays)
            return [
                line(name), "\(grouped(group.users)) users", "\(grouped(group.userDays)) user-days",
                "mean \(String(format: "%.2f", mean)) deliveries a day",
                "\(grouped(group.usersWithADayOfAtLeast(most))) with a day of \(most)",
            ]
        }
    }

    /// An SVG bar chart of a histogram, labelled by value and count.
    package static func chart(_ histogram: Histogram, title: String) -> String {
        let rows = histogram.sorted
        guard !rows.isEmpty else { return "<p>\(escape(title)): no data</p>" }
        // Wide histograms (XP) are drawn in at most 40 bins of equal width.
        let low = rows.first?.value ?? 0
        let high = rows.last?.value ?? 0
        let binCount = Swift.min(40, high - low + 1)
        let width = Swift.max(1, (high - low + 1 + binCount - 1) / binCount)
        var bins = Array(repeating: 0, count: binCount)
        for row in rows { bins[Swift.min(binCount - 1, (row.value - low) / width)] += row.count }
        let largest = bins.max() ?? 1
        let barWidth = 300 / binCount
        // Drawn to its box: 320 units shown at the grid cell's width (300 px and up), so its
        // 13-unit labels stay above 12 px; nothing scrolls or is cut.
        var svg =
            "<figure><figcaption>\(escape(title))</figcaption><svg viewBox=\"0 0 320 165\" role=\"img\" aria-label=\"\(escape(title))\">"
        for (index, count) in bins.enumerated() {
            // At most 96 units high, so a count fits above the tallest bar.
            let height = largest == 0 ? 0 : Int(Double(count) / Double(largest) * 96)
            let x = 10 + index * barWidth
            let label = width == 1 ? "\(low + index)" : "\(low + index * width)–\(low + (index + 1) * width - 1)"
            svg +=
                "<rect x=\"\(x)\" y=\"\(120 - height)\" width=\"\(Swift.max(1, barWidth - 2))\" height=\"\(height)\"><title>\(label): \(count)</title></rect>"
            // Its count above the bar, when the bars are wide enough for one.
            if binCount <= 8, count > 0, TimelineChart.textWidth(grouped(count), font: 12) <= Double(barWidth) {
                svg += "<text class=\"count\" x=\"\(x + barWidth / 2)\" y=\"\(116 - height)\" text-anchor=\"middle\">\(grouped(count))</text>"
            }
            // At most about 7 labels, each the bin's first value: they never overlap.
            if binCount <= 8 || index % Swift.max(1, (binCount + 5) / 6) == 0 {
                svg +=
                    "<text x=\"\(x + barWidth / 2)\" y=\"150\" text-anchor=\"middle\">\(escape(width == 1 ? label : "\(low + index * width)"))</text>"
            }
        }
        return svg + "</svg></figure>"
    }

    package static func html(_ tally: PopulationTally, header: PopulationHeader, shard: Shard? = nil) -> String {
        var rows = ""
        for type in tally.types {
            let suppressed = (tally.suppressed[type] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \(grouped($0.value))" }
            // Deliveries to devices that show nothing: said under the type (a line that wraps), as
            // the routes table explains "none", so the number column stays narrow at 390 px.
            let unseen = tally.answers?.unshown[type] ?? 0
            let note = unseen > 0 ? "<br/><small>\(grouped(unseen)) of them to devices that show nothing</small>" : ""
            rows +=
                "<tr><td>\(escape(type))\(note)</td><td class=n>\(grouped(tally.delivered[type] ?? 0))</td><td>\(escape(suppressed.joined(separator: ", ")))</td></tr>"
        }
        func shares(_ values: [String: Int]) -> String {
            values.sorted { $0.key < $1.key }.map {
                "<tr><td>\(escape($0.key))\($0.key == "none" ? "<br/><small>\(escape(PopulationReport.noRoute))</small>" : "")</td><td class=n>\(grouped($0.value))</td><td class=n>\(percent($0.value, of: tally.userDays))</td></tr>"
            }.joined()
        }
        let invariants = tally.invariants.sorted { $0.key < $1.key }.map { kind, count in
            let example = tally.examples[kind].map {
                " — first at user \($0.user) on \(DateFormat.string($0.day)): \(escape($0.what))<br/><code>\(escape(replay(header, user: $0.user)))</code>"
            }
            return "<li class=\"\(count == 0 ? "ok" : "bad")\">\(escape(kind)): \(grouped(count))\(example ?? "")</li>"
        }.joined()
        return """
            <!doctype html>
            <html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(header.name)) — population</title>
            <style>
            body{font:15px/1.5 system-ui,-apple-system,"Apple SD Gothic Neo","Noto Sans KR",sans-serif;margin:0 auto;padding:16px;max-width:1100px;color:#1d1d1f}
            h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}table{border-collapse:collapse;width:100%}td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left}
            .n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(300px,100%),1fr));gap:16px}
            figure{margin:0;min-width:0}svg{width:100%;height:auto;display:block}rect{fill:#0a84ff}svg text{font-size:13px;fill:#555}svg text.count{font-size:12px;fill:#1d1d1f}.ok{color:#1a7f37}.bad{color:#c62828;font-weight:600}.flag{white-space:nowrap}
            code{font-size:.85em;overflow-wrap:anywhere}*{box-sizing:border-box}body{overflow-wrap:break-word;word-break:keep-all}td,th{vertical-align:top}
            @media (max-width:600px){td,th{padding:4px 3px;font-size:13px}}
            </style></head><body>
            <h1>\(escape(header.name))</h1>
            <p>\(grouped(tally.users)) users × \(header.days) days = \(grouped(tally.userDays)) user-days · seed \(header.seed) · from \(DateFormat.string(header.start)) · ruleset <code>\(header.rulesetSHA256.prefix(12))</code>\(shard.map { $0 == .whole ? "" : " · shard \($0.text)" } ?? "")</p>
            \(productHTML(tally))
            <h2>Notifications</h2>
            <div class="table"><table><thead><tr><th>type</th><th class=n>delivered</th><th>suppressed (user-days, by gate)</th></tr></thead><tbody>\(rows)</tbody></table></div>
            \(busiestDayLine(tally).map { "<p>" + escape($0) + "</p>" } ?? "")
            \(tally.groups.isEmpty ? "" : "<h2>By group</h2><div class=\"table\"><table><tbody>" + groupRows(tally).map { "<tr>" + $0.map { "<td>" + escape($0) + "</td>" }.joined() + "</tr>" }.joined() + "</tbody></table></div>")
            <div class="grid">
            \(chart(tally.deliveriesPerUserDay, title: "deliveries per user-day (\(summary(tally.deliveriesPerUserDay)))"))
            \(chart(tally.streak, title: "streak at the end (\(summary(tally.streak, p99: false)))"))
            \(chart(tally.xp, title: "XP at the end (\(summary(tally.xp, p99: false)))"))
            </div>
            <div class="grid">
            <div class="table"><h2>Route at the day's end</h2><table>\(shares(tally.routes))</table></div>
            <div class="table"><h2>Day results</h2><table>\(shares(tally.dayResults))</table></div>
            <div class="table"><h2>Route changes</h2><table>\(tally.routeChanges.sorted { $0.key < $1.key }.map { "<tr><td>\(escape($0.key))</td><td class=n>\(grouped($0.value))</td></tr>" }.joined())</table></div>
            </div>
            \(tally.answers.map(answersHTML) ?? "")
            <details\(tally.violations > 0 ? " open" : "")><summary><h2 style="display:inline">Invariants</h2> (\(grouped(tally.violations)) broken)</summary><ul>\(invariants)</ul></details>
            </body></html>

            """
    }

    /// The product numbers with their intervals, first on the page.
    static func productHTML(_ tally: PopulationTally) -> String {
        let product = tally.product
        let rows = product.shown(answers: tally.answers != nil).compactMap { q -> String? in
            guard let e = product.estimate(q) else { return nil }
            let value = ProductFigures.format(e.value, q)
            let interval = "\(ProductFigures.format(e.low, q)) … \(ProductFigures.format(e.high, q))"
            return "<tr><td>\(escape(q.words))</td><td class=n><b>\(value)</b></td><td class=n>\(interval)</td></tr>"
        }
        guard !rows.isEmpty else { return "" }
        return "<h2>For a product manager</h2><table><thead><tr><th></th><th class=n>value</th><th class=n>95 % interval</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table><p><small>Intervals over users; the engineering counts follow.</small></p>"
    }

    /// The answers: per type seen, acted on and switched off; the trial's effects.
    static func answersHTML(_ answers: AnswersTally) -> String {
        let types = Set(answers.delivered.keys).union(answers.acted.keys).sorted()
        let rows = types.map { type in
            let seen = answers.delivered[type] ?? 0
            let did = answers.acted[type] ?? 0
            // A type's id breaks after its underscores, so four columns fit a phone.
            return
                "<tr><td>\(HTMLReport.breakable(type))</td><td class=n>\(grouped(seen))</td><td class=n>\(grouped(did))<br/>\(percent(did, of: seen))</td>"
                + "<td class=n>\(grouped(answers.optedOut[type] ?? 0))</td></tr>"
        }.joined()
        var html = """
            <h2>Answers</h2>
            <table><thead><tr><th>type</th><th class=n>seen</th><th class=n>acted on</th><th class=n>users off</th></tr></thead><tbody>\(rows)</tbody></table>
            <p>Users off: users who switched the type off in the app.</p>
            <p>Every notice switched off in the system settings: \(grouped(answers.optedOutAll)) users.</p>
            """
        if !answers.effects.isEmpty {
            // The flag kept whole: a phone would break it at its hyphens.
            let caution = escape(AnswersTally.trialCaution).replacingOccurrences(of: "--randomize", with: "<span class=\"flag\">--randomize</span>")
            html += "<h2>Effects of a delivery (delivered − withheld)</h2><p>\(caution)</p><ul>"
            for type in answers.effects.keys.sorted() {
                html += "<li><b>\(escape(type))</b>: \(escape(answers.effects[type]?.text ?? ""))</li>"
            }
            html += "</ul>"
        }
        return html
    }
}
