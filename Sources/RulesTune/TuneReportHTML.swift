import Foundation
import RulesDiagnostics
import RulesPopulation
import RulesSimulator

/// A search's page: the question, a Pareto scatter of the objective against the first target
/// (every candidate with its 95 % intervals, the baseline as a square, the Pareto set filled,
/// the target's bound as a dashed line), the candidates' table and the best edit. One
/// self-contained page that fits a phone: the chart scales to its box, the table has four
/// columns, long names wrap.
package enum TuneReportHTML {
    package static func render(_ report: TuneReport) -> String {
        let result = report.result
        let e = PopulationReport.escape
        let meeting = result.meeting
        let rows = result.candidates.indices.map { index -> String in
            let c = result.candidates[index]
            let values = zip(result.question.knobs, c.setting.values).map { "\(HTMLReport.breakable($0.name))=\(e($0.literal($1)))" }
            let judged = result.metrics.prefix(2).compactMap { m in
                c.estimates[m].map { "\(e(MetricWords.words(m))): \(e(MetricWords.number($0.value, m)))" }
            }
            let fate = c.stopped ?? (meeting.contains(index) ? "meets every target" : "lived the last round; not every target met")
            let mark = index == report.best ? " class=\"best\"" : ""
            return "<tr\(mark)><td class=n>\(index)\(index == 0 ? "<br/><small>now</small>" : "")</td><td>\(values.joined(separator: "<br/>"))</td>"
                + "<td class=n>\(PopulationReport.grouped(c.users))</td><td>\(judged.joined(separator: "<br/>"))<br/><small>\(HTMLReport.breakable(fate))</small></td></tr>"
        }.joined()
        let question =
            result.question.targets.map { "target <code>\(e($0.text))</code>" }
            + [result.question.objective.map { "\(result.question.maximise ? "maximise" : "minimise") <code>\(HTMLReport.breakable($0))</code>" }]
            .compactMap { $0 }
        let items: [String] = report.caveats.lines.map { "<li>\(e($0))</li>" }
        let caveats = items.isEmpty ? "" : "<ul class=\"caveats\">" + items.joined() + "</ul>"
        let edit = report.edit.isEmpty ? "" : "<h2>The best candidate's edit</h2><pre>\(e(report.edit))</pre>"
        return """
            <!doctype html>
            <html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>rules tune — \(e(report.file))</title>
            <style>
            body{font:15px/1.5 system-ui,-apple-system,"Apple SD Gothic Neo","Noto Sans KR",sans-serif;margin:0 auto;padding:16px;max-width:1100px;color:#1d1d1f}
            *{box-sizing:border-box}body{overflow-wrap:break-word;word-break:keep-all}h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}
            table{border-collapse:collapse;width:100%}td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
            .n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}tr.best{background:#e8f5e9}code{font-size:.85em}
            pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f7;padding:8px;font-size:13px}figure{margin:0}svg{width:100%;max-width:640px;height:auto;display:block}
            svg text{font-size:11px;fill:#555}.pt{fill:#fff;stroke:#0a84ff;stroke-width:1.5}.front{fill:#0a84ff}.base{fill:#ff9f0a;stroke:#c77700}.bar{stroke:#0a84ff;stroke-width:1;opacity:.6}
            .bound{stroke:#c62828;stroke-dasharray:4 3}
            @media (max-width:600px){td,th{padding:4px 3px;font-size:13px}}
            </style></head><body>
            <h1>rules tune — \(HTMLReport.breakable(report.file))</h1>
            <p>\(result.candidates.count) candidates · \(result.roundsRun) rounds (\(result.schedule.users.prefix(result.roundsRun).map { PopulationReport.grouped($0) }.joined(separator: " → ")) users × \(result.days) days) · seed \(result.seed) · \(PopulationReport.grouped(result.userDays)) user-days lived</p>
            <p>\(question.joined(separator: " · "))</p>
            \(caveats)
            <p>\(report.best.map { "Best: candidate \($0) — <code>\(HTMLReport.breakable(report.settingText($0)))</code>" } ?? "No candidate meets every target with confidence.")</p>
            \(scatter(report))
            <h2>Candidates</h2>
            <table><thead><tr><th class=n>#</th><th>values</th><th class=n>users</th><th>metrics and fate</th></tr></thead><tbody>\(rows)</tbody></table>
            \(edit)
            </body></html>

            """
    }

    /// The Pareto scatter: x the objective, y the first target, each point with its intervals.
    static func scatter(_ report: TuneReport) -> String {
        guard let axes = report.axes else { return "" }
        let result = report.result
        let points = result.candidates.indices.compactMap { index -> (Int, TuneEstimate, TuneEstimate)? in
            guard let x = result.candidates[index].estimates[axes.x.metric], let y = result.candidates[index].estimates[axes.y.metric] else {
                return nil
            }
            return (index, x, y)
        }
        guard !points.isEmpty else { return "" }
        let bound = result.question.targets.first?.bound
        let xs = points.flatMap { [$0.1.low, $0.1.high] }
        let ys = points.flatMap { [$0.2.low, $0.2.high] } + (bound.map { [$0] } ?? [])
        // Axes start where the data do (a little past them), never below 0 for what cannot be
        // negative nor past 100 % for a share.
        func span(_ values: [Double], _ metric: String) -> (Double, Double) {
            let low = values.min() ?? 0
            let high = values.max() ?? 1
            let pad = Swift.max((high - low) * 0.08, 1e-9)
            var (a, b) = (low - pad, high + pad)
            if low >= 0 { a = Swift.max(0, a) }
            if MetricWords.isShare(metric), high <= 1 { b = Swift.min(1, b) }
            return b > a ? (a, b) : (a, a + 1e-9)
        }
        let (x0, x1) = span(xs, axes.x.metric)
        let (y0, y1) = span(ys, axes.y.metric)
        func px(_ v: Double) -> Double { 50 + (v - x0) / (x1 - x0) * 260 }
        func py(_ v: Double) -> Double { 200 - (v - y0) / (y1 - y0) * 180 }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let front = Set(report.pareto)
        var svg = "<figure><svg viewBox=\"0 0 320 240\" role=\"img\" aria-label=\"Pareto scatter\">"
        svg += "<line x1=\"50\" y1=\"200\" x2=\"310\" y2=\"200\" stroke=\"#999\"/><line x1=\"50\" y1=\"20\" x2=\"50\" y2=\"200\" stroke=\"#999\"/>"
        if let bound { svg += "<line class=\"bound\" x1=\"50\" x2=\"310\" y1=\"\(f(py(bound)))\" y2=\"\(f(py(bound)))\"/>" }
        // The current ruleset (candidate 0) last, so its square is drawn on top of the others.
        for (index, x, y) in points.filter({ $0.0 != 0 }) + points.filter({ $0.0 == 0 }) {
            svg += "<line class=\"bar\" x1=\"\(f(px(x.low)))\" x2=\"\(f(px(x.high)))\" y1=\"\(f(py(y.value)))\" y2=\"\(f(py(y.value)))\"/>"
            svg += "<line class=\"bar\" x1=\"\(f(px(x.value)))\" x2=\"\(f(px(x.value)))\" y1=\"\(f(py(y.low)))\" y2=\"\(f(py(y.high)))\"/>"
            let tip = "<title>candidate \(index): \(PopulationReport.escape(report.settingText(index)))</title>"
            if index == 0 {
                svg += "<rect class=\"base\" x=\"\(f(px(x.value) - 4))\" y=\"\(f(py(y.value) - 4))\" width=\"8\" height=\"8\">\(tip)</rect>"
            } else {
                svg +=
                    "<circle class=\"\(front.contains(index) ? "pt front" : "pt")\" cx=\"\(f(px(x.value)))\" cy=\"\(f(py(y.value)))\" r=\"4\">\(tip)</circle>"
            }
        }
        svg += "<text x=\"50\" y=\"216\">\(PopulationReport.escape(MetricWords.number(x0, axes.x.metric)))</text>"
        svg += "<text x=\"310\" y=\"216\" text-anchor=\"end\">\(PopulationReport.escape(MetricWords.number(x1, axes.x.metric)))</text>"
        svg += "<text x=\"46\" y=\"200\" text-anchor=\"end\">\(PopulationReport.escape(MetricWords.number(y0, axes.y.metric)))</text>"
        svg += "<text x=\"46\" y=\"26\" text-anchor=\"end\">\(PopulationReport.escape(MetricWords.number(y1, axes.y.metric)))</text>"
        svg += "<text x=\"180\" y=\"234\" text-anchor=\"middle\">\(PopulationReport.escape(axes.x.metric))</text></svg>"
        let caption =
            "Across: \(MetricWords.words(axes.x.metric)). Up: \(MetricWords.words(axes.y.metric)); the dashed line is the target. "
            + "The square is the current ruleset, filled circles the Pareto set; lines are 95 % intervals."
        return svg + "<figcaption>\(PopulationReport.escape(caption))</figcaption></figure>"
    }
}
