import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// One self-contained HTML page per simulation (inline CSS and SVG, no network): for each
/// day the steps curve against the goal, completion over time, route bands, notification
/// markers with their fate on hover, and the final snapshot.
public enum HTMLReport {
    public static func render(_ result: SimulationResult, ruleset: Ruleset) -> String {
        var body =
            "<h1>\(escape(result.scenario.name))</h1>\n<p class=\"meta\">\(escape(result.scenario.file)) · \(escape(result.scenario.timeZoneName))</p>\n"
        // Records and closes by logical day, once: a scenario of many days stays linear.
        let byDay = result.recordsByDay()
        var closes: [Int: DayClose] = [:]
        for close in result.closedDays where closes[close.day] == nil { closes[close.day] = close }
        for day in result.scenario.days {
            body += section(day: day, records: byDay[day.date] ?? [], close: closes[day.date], result: result, ruleset: ruleset)
        }
        return """
            <!DOCTYPE html>
            <html lang="ko">
            <head>
            <meta charset="utf-8"/>
            <title>\(escape(result.scenario.name))</title>
            <style>
            body { font-family: -apple-system, "Apple SD Gothic Neo", "Noto Sans KR", "Malgun Gothic", sans-serif; margin: 24px; color: #1d1d1f; background: #fafafa; }
            h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; }
            .meta { color: #666; margin: 0 0 16px; }
            svg { background: #fff; border: 1px solid #ddd; border-radius: 8px; }
            .band-regular { fill: #e8f1ff; } .band-light { fill: #fff6d6; } .band-recovery { fill: #ffe3e3; }
            .steps { fill: none; stroke: #0a84ff; stroke-width: 2; } .known { fill: #0a84ff; }
            .goal { stroke: #0a84ff; stroke-dasharray: 4 4; } .completion { fill: none; stroke: #30a14e; stroke-width: 2; }
            .delivered { fill: #ff9f0a; } .suppressed { fill: #8e8e93; } .axis { stroke: #ccc; } .label { font-size: 11px; fill: #555; }
            table { border-collapse: collapse; margin-top: 12px; background: #fff; } td, th { border: 1px solid #ddd; padding: 4px 8px; font-size: 13px; text-align: left; }
            .legend span { display: inline-block; margin-right: 14px; font-size: 13px; }
            </style>
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
    }

    static let width = 960.0
    static let height = 300.0
    static let left = 50.0
    static let plotWidth = 880.0
    static let plotHeight = 220.0
    static let top = 20.0

    /// x of a logical position (seconds after the day's start).
    static func x(_ position: Int) -> Double { left + plotWidth * Double(position) / 86_400 }

    static func section(day: ScenarioDay, records: [EngineRecord], close: DayClose?, result: SimulationResult, ruleset: Ruleset) -> String {
        let clock = result.scenario.clock
        let dayStart = result.dayStart
        func position(_ date: Date) -> Int {
            logical(of: clock.local(date).seconds, dayStart: dayStart) + (clock.logical(date, dayStart: dayStart).day > day.date ? 86_400 : 0)
        }
        var snapshots: [(Int, DailySnapshot)] = []
        var routes: [(Int, RouteKind)] = []
        var markers: [(Int, String, String)] = []
        var known: [(Int, Int)] = []
        for record in records {
            switch record.kind {
            case .snapshot(let s): snapshots.append((position(record.at), s))
            case .routeChanged(_, let to, _): routes.append((position(record.at), to))
            case .notificationDelivered(let n, let stale):
                markers.append((position(record.at), "delivered", "\(n.type) delivered: \(n.text)\(stale ? " (stale condition)" : "")"))
            case .notificationSuppressed(let s):
                markers.append((position(s.fireAt), "suppressed", "\(s.type) suppressed: \(s.reason.rawValue)"))
            case .sync(let health):
                if let steps = health?.stepsToday { known.append((position(record.at), steps)) }
            default: break
            }
        }
        let goal = Double(snapshots.last?.1.stepsGoal ?? 0)
        let maxSteps = max(goal, Double(day.health.steps.map(\.steps).max() ?? 0), 1) * 1.1
        func y(_ steps: Double) -> Double { top + plotHeight - plotHeight * steps / maxSteps }
        var svg =
            "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n"
        // Route bands.
        for (index, (start, route)) in routes.enumerated() {
            let end = index + 1 < routes.count ? routes[index + 1].0 : 86_400
            svg +=
                "<rect class=\"band-\(route.rawValue)\" x=\"\(fmt(x(start)))\" y=\"\(fmt(top))\" width=\"\(fmt(max(0, x(end) - x(start))))\" height=\"\(fmt(plotHeight))\"><title>route \(route.rawValue)</title></rect>\n"
        }
        // Axes and hours.
        svg +=
            "<line class=\"axis\" x1=\"\(fmt(left))\" y1=\"\(fmt(top + plotHeight))\" x2=\"\(fmt(left + plotWidth))\" y2=\"\(fmt(top + plotHeight))\"/>\n"
        for hour in stride(from: 0, through: 24, by: 3) {
            let px = x(hour * 3600)
            svg +=
                "<text class=\"label\" x=\"\(fmt(px))\" y=\"\(fmt(top + plotHeight + 16))\" text-anchor=\"middle\">\(TimeFormat.clock((dayStart + hour * 3600) % 86_400))</text>\n"
        }
        // Steps: the real curve (sampled every 10 minutes) and what the app saw at syncs.
        if !day.health.steps.isEmpty {
            let points = stride(from: 0, through: 86_400, by: 600).map { p in
                "\(fmt(x(p))),\(fmt(y(Double(day.health.steps(at: p, dayStart: dayStart)))))"
            }
            svg += "<polyline class=\"steps\" points=\"\(points.joined(separator: " "))\"><title>steps (real)</title></polyline>\n"
        }
        for (p, steps) in known {
            svg +=
                "<circle class=\"known\" cx=\"\(fmt(x(p)))\" cy=\"\(fmt(y(Double(steps))))\" r=\"3\"><title>synced \(steps) steps</title></circle>\n"
        }
        // The steps goal in force over the day (it changes with the route).
        if goal > 0 {
            var points: [String] = []
            var current = Double(snapshots.first?.1.stepsGoal ?? 0)
            var startX = x(snapshots.first?.0 ?? 0)
            for (p, s) in snapshots {
                let next = Double(s.stepsGoal)
                if next != current {
                    points.append("\(fmt(startX)),\(fmt(y(current))) \(fmt(x(p))),\(fmt(y(current)))")
                    startX = x(p)
                    current = next
                }
            }
            points.append("\(fmt(startX)),\(fmt(y(current))) \(fmt(x(86_400))),\(fmt(y(current)))")
            svg +=
                "<polyline class=\"goal\" fill=\"none\" points=\"\(points.joined(separator: " "))\"><title>steps goal in force</title></polyline>\n"
            svg += "<text class=\"label\" x=\"\(fmt(left - 4))\" y=\"\(fmt(y(goal) + 4))\" text-anchor=\"end\">\(Int(goal))</text>\n"
            svg += "<text class=\"label\" x=\"\(fmt(left + plotWidth + 4))\" y=\"\(fmt(top + 4))\">100%</text>\n"
        }
        // Completion over time (0–100 % on the plot's height), as a step line.
        if !snapshots.isEmpty {
            var points: [String] = []
            var last = top + plotHeight
            for (p, s) in snapshots {
                let py = top + plotHeight - plotHeight * s.completionRate
                points.append("\(fmt(x(p))),\(fmt(last))")
                points.append("\(fmt(x(p))),\(fmt(py))")
                last = py
            }
            points.append("\(fmt(x(86_400))),\(fmt(last))")
            svg += "<polyline class=\"completion\" points=\"\(points.joined(separator: " "))\"><title>completion rate</title></polyline>\n"
        }
        for (p, kind, title) in markers {
            svg += "<circle class=\"\(kind)\" cx=\"\(fmt(x(p)))\" cy=\"\(fmt(top + 8))\" r=\"6\"><title>\(escape(title))</title></circle>\n"
        }
        svg += "</svg>\n"
        var html = "<h2>\(DateFormat.string(day.date)) (\(DateFormat.weekday(day.date)))</h2>\n"
        html +=
            "<div class=\"legend\"><span>— steps (real), ● synced</span><span>- - steps goal in force</span><span style=\"color:#30a14e\">— completion</span><span style=\"color:#ff9f0a\">● delivered</span><span style=\"color:#8e8e93\">● suppressed</span><span>bands: regular / light / recovery</span></div>\n"
        html += svg
        if let last = snapshots.last?.1, case .object(let fields) = last.json(clock: clock) {
            html += "<table><tr><th colspan=\"2\">snapshot at \(escape(clock.iso8601(last.lastUpdatedAt)))</th></tr>\n"
            for (key, value) in fields {
                let text: String
                if case .string(let s) = value { text = s } else { text = value.rendered() }
                html += "<tr><td>\(escape(key))</td><td>\(escape(text))</td></tr>\n"
            }
            html += "</table>\n"
        }
        if let close {
            html += "<p>day result: <b>\(close.result.rawValue)</b> · streak \(close.streak) · xp +\(close.xpGained) (\(close.xp))</p>\n"
        }
        return html
    }

    static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }

    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
