import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// The day report's timeline chart, drawn to its box: one SVG per layout, and the page shows
/// the one that fits its box (a container query), each scaled to the box's full width so its
/// labels stay at least 10 px. Labels are placed, not only drawn: a marker's label goes to the
/// first row where it overlaps no other and stays inside the chart (the narrow layout lists
/// the markers under the chart instead); a route band's label is left out when the band is
/// too narrow for it; the first and last hour labels are anchored inside the plot.
struct TimelineChart {
    struct Marker {
        var position: Int
        var kind: String
        var label: String
        var title: String
    }

    /// The sizes of one layout, in the SVG's own units.
    struct Layout {
        var name: String
        var width: Double
        var left: Double
        var right: Double
        var top: Double
        var plotHeight: Double
        var font: Double
        var hourStep: Int
        /// Rows for marker labels above the plot (0: markers are listed under the chart).
        var markerRows: Int

        var plotWidth: Double { width - left - right }
        var height: Double { top + plotHeight + font * 2 + 6 }

        /// Shown in boxes at least 640 px wide: 960 units drawn at 640–1,100 px, labels 16 units.
        static let wide = Layout(
            name: "wide", width: 960, left: 56, right: 14, top: 16 + 3 * 25, plotHeight: 220, font: 16, hourStep: 3, markerRows: 3)
        /// Shown in narrower boxes (a phone: about 326 px): 400 units, labels 13 units.
        static let narrow = Layout(
            name: "narrow", width: 400, left: 50, right: 8, top: 20, plotHeight: 190, font: 13, hourStep: 6, markerRows: 0)
    }

    var day: ScenarioDay
    var snapshots: [(Int, DailySnapshot)]
    var routes: [(Int, RouteKind)]
    var markers: [Marker]
    var known: [(Int, Int)]
    var dayStart: Int

    /// Both layouts, the markers' list for the narrow one, and the legend.
    func html() -> String {
        var out = "<div class=\"chart\">\n" + svg(.wide) + svg(.narrow)
        if !markers.isEmpty {
            out += "<ol class=\"markers\">"
            for marker in markers {
                let time = TimeFormat.clock((dayStart + marker.position) % 86_400)
                out +=
                    "<li><span class=\"dot \(marker.kind)\"></span><time>\(time)</time> \(HTMLReport.escape(marker.label)) <span class=\"fate\">\(HTMLReport.escape(marker.kind == "delivered" ? "delivered" : "not sent"))</span></li>"
            }
            out += "</ol>\n"
        }
        out +=
            "<div class=\"legend\"><span>— steps (real), ● synced</span><span>- - steps goal in force</span><span style=\"color:#30a14e\">— completion</span><span style=\"color:#c77700\">● delivered</span><span style=\"color:#8e8e93\">● not sent</span><span>bands: regular / light / recovery</span></div>\n"
        return out + "</div>\n"
    }

    /// The estimated width of `text` at `font` units: about 0.6 em a Latin letter or digit,
    /// 1 em anything wider (Hangul).
    static func textWidth(_ text: String, font: Double) -> Double {
        text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 0.62 : 1.0) } * font
    }

    func svg(_ layout: Layout) -> String {
        let fmt = HTMLReport.fmt
        let top = layout.top
        let plotHeight = layout.plotHeight
        let left = layout.left
        func x(_ position: Int) -> Double { left + layout.plotWidth * Double(position) / 86_400 }
        let goal = Double(snapshots.last?.1.stepsGoal ?? 0)
        let maxSteps = max(goal, Double(day.health.steps.map(\.steps).max() ?? 0), 1) * 1.1
        func y(_ steps: Double) -> Double { top + plotHeight - plotHeight * steps / maxSteps }
        let font = "font-size=\"\(fmt(layout.font))\""
        var svg =
            "<svg class=\"\(layout.name)\" viewBox=\"0 0 \(Int(layout.width)) \(Int(layout.height))\" role=\"img\" aria-label=\"the day's timeline\">\n"
        // Route bands, each labelled when its label fits inside it.
        for (index, (start, route)) in routes.enumerated() {
            let end = index + 1 < routes.count ? routes[index + 1].0 : 86_400
            let width = max(0, x(end) - x(start))
            svg +=
                "<rect class=\"band-\(route.rawValue)\" x=\"\(fmt(x(start)))\" y=\"\(fmt(top))\" width=\"\(fmt(width))\" height=\"\(fmt(plotHeight))\"><title>route \(route.rawValue)</title></rect>\n"
            if Self.textWidth(route.rawValue, font: layout.font) + 6 <= width {
                svg += "<text class=\"label\" \(font) x=\"\(fmt(x(start) + 3))\" y=\"\(fmt(top + plotHeight - 4))\">\(route.rawValue)</text>\n"
            }
        }
        svg +=
            "<line class=\"axis\" x1=\"\(fmt(left))\" y1=\"\(fmt(top + plotHeight))\" x2=\"\(fmt(left + layout.plotWidth))\" y2=\"\(fmt(top + plotHeight))\"/>\n"
        // Hours under the axis: the first starts at the plot's edge, the last ends at it.
        for hour in stride(from: 0, through: 24, by: layout.hourStep) {
            let anchor = hour == 0 ? "start" : hour == 24 ? "end" : "middle"
            svg +=
                "<text class=\"label\" \(font) x=\"\(fmt(x(hour * 3600)))\" y=\"\(fmt(top + plotHeight + layout.font + 4))\" text-anchor=\"\(anchor)\">\(TimeFormat.clock((dayStart + hour * 3600) % 86_400))</text>\n"
        }
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
        // The y axis: 0, half the goal and the goal, each kept clear of the one below it.
        var yLabels: [(Double, String)] = [(y(0), "0")]
        if goal > 0 {
            yLabels.append((y(goal / 2), HTMLReport.grouped(Int(goal / 2))))
            yLabels.append((y(goal), HTMLReport.grouped(Int(goal))))
        }
        var lastY = Double.infinity
        for (position, text) in yLabels where lastY - position >= layout.font + 2 && Self.textWidth(text, font: layout.font) <= left - 6 {
            svg +=
                "<text class=\"label\" \(font) x=\"\(fmt(left - 4))\" y=\"\(fmt(position + layout.font * 0.35))\" text-anchor=\"end\">\(text)</text>\n"
            lastY = position
        }
        if goal > 0 {
            var points: [String] = []
            var current = Double(snapshots.first?.1.stepsGoal ?? 0)
            var startX = x(snapshots.first?.0 ?? 0)
            for (p, s) in snapshots where Double(s.stepsGoal) != current {
                points.append("\(fmt(startX)),\(fmt(y(current))) \(fmt(x(p))),\(fmt(y(current)))")
                startX = x(p)
                current = Double(s.stepsGoal)
            }
            points.append("\(fmt(startX)),\(fmt(y(current))) \(fmt(x(86_400))),\(fmt(y(current)))")
            svg +=
                "<polyline class=\"goal\" fill=\"none\" points=\"\(points.joined(separator: " "))\"><title>steps goal in force</title></polyline>\n"
        }
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
        svg += markerMarks(layout, x: x)
        return svg + "</svg>\n"
    }

    /// Each marker's dot on the plot's top edge and, in layouts with label rows, its label in
    /// the first row where it overlaps no label already placed and stays inside the chart (to
    /// the left of its dot near the right edge); a label that fits no row is left to the list.
    func markerMarks(_ layout: Layout, x: (Int) -> Double) -> String {
        let fmt = HTMLReport.fmt
        var out = ""
        var rows: [[(Double, Double)]] = Array(repeating: [], count: layout.markerRows)
        let rowHeight = (layout.top - 16) / Double(max(1, layout.markerRows))
        for marker in markers.sorted(by: { $0.position < $1.position }) {
            let dot = x(marker.position)
            out +=
                "<circle class=\"\(marker.kind)\" cx=\"\(fmt(dot))\" cy=\"\(fmt(layout.top))\" r=\"5\"><title>\(HTMLReport.escape(marker.title))</title></circle>"
            guard layout.markerRows > 0 else { continue }
            let width = Self.textWidth(marker.label, font: layout.font)
            var start = dot + 7
            var anchor = "start"
            if start + width > layout.width - 2 {
                start = dot - 7 - width
                anchor = "end"
            }
            guard start >= 2 else { continue }
            let span = (start - 4, start + width + 4)
            guard let row = rows.indices.first(where: { row in rows[row].allSatisfy { $0.1 <= span.0 || $0.0 >= span.1 } }) else { continue }
            rows[row].append(span)
            let baseline = 16 + rowHeight * Double(row) + layout.font
            let textX = anchor == "start" ? start : start + width
            out +=
                "<line class=\"axis\" x1=\"\(fmt(dot))\" y1=\"\(fmt(baseline - layout.font * 0.35))\" x2=\"\(fmt(dot))\" y2=\"\(fmt(layout.top - 5))\"/>"
            out +=
                "<text class=\"tag\" font-size=\"\(fmt(layout.font))\" x=\"\(fmt(textX))\" y=\"\(fmt(baseline))\" text-anchor=\"\(anchor)\">\(HTMLReport.escape(marker.label))</text>\n"
        }
        return out
    }
}
