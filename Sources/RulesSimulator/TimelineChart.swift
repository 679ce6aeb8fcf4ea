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
package struct TimelineChart {
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

        /// Shown in boxes at least 640 px wide: 1,000 units drawn at 640–1,100 px, labels 16 units
        /// (10.2 px at the narrowest); the right margin holds the completion scale.
        static let wide = Layout(
            name: "wide", width: 1000, left: 56, right: 54, top: 16 + 3 * 25, plotHeight: 220, font: 16, hourStep: 3, markerRows: 3)
        /// Shown in narrower boxes (a phone: about 326 px): 400 units, labels 13 units.
        static let narrow = Layout(
            name: "narrow", width: 400, left: 50, right: 40, top: 20, plotHeight: 190, font: 13, hourStep: 6, markerRows: 0)
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
            "<div class=\"legend\"><span>— steps (real), ● synced</span><span>- - steps goal in force</span><span style=\"color:#30a14e\">— completion (right scale, %)</span><span style=\"color:#c77700\">● delivered</span><span style=\"color:#8e8e93\">● not sent</span><span>bands: regular / light / recovery</span></div>\n"
        return out + "</div>\n"
    }

    /// The estimated width of `text` at `font` units: about 0.6 em a Latin letter or digit,
    /// 1 em anything wider (Hangul).
    package static func textWidth(_ text: String, font: Double) -> Double {
        text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 0.62 : 1.0) } * font
    }

    /// Where things go on a layout's plot: a position of the day along x, steps along y.
    struct Plot {
        let layout: Layout
        /// The steps at the top of the plot (the goal or the most steps, and a tenth more).
        let maxSteps: Double
        var bottom: Double { layout.top + layout.plotHeight }
        var font: String { "font-size=\"\(HTMLReport.fmt(layout.font))\"" }
        func x(_ position: Int) -> Double { layout.left + layout.plotWidth * Double(position) / 86_400 }
        func y(_ steps: Double) -> Double { layout.top + layout.plotHeight - layout.plotHeight * steps / maxSteps }
    }

    func svg(_ layout: Layout) -> String {
        let goal = Double(snapshots.last?.1.stepsGoal ?? 0)
        let plot = Plot(layout: layout, maxSteps: max(goal, Double(day.health.steps.map(\.steps).max() ?? 0), 1) * 1.1)
        var svg =
            "<svg class=\"\(layout.name)\" viewBox=\"0 0 \(Int(layout.width)) \(Int(layout.height))\" role=\"img\" aria-label=\"the day's timeline\">\n"
        svg += bands(plot) + timeAxis(plot) + realSteps(plot) + stepsAxis(plot, goal: goal) + goalLine(plot, goal: goal) + completionLine(plot)
        svg += markerMarks(layout, x: plot.x)
        return svg + "</svg>\n"
    }

    /// Route bands, each labelled when its label fits inside it.
    private func bands(_ plot: Plot) -> String {
        let fmt = HTMLReport.fmt
        let layout = plot.layout
        var svg = ""
        for (index, (start, route)) in routes.enumerated() {
            let end = index + 1 < routes.count ? routes[index + 1].0 : 86_400
            let width = max(0, plot.x(end) - plot.x(start))
            svg +=
                "<rect class=\"band-\(route.rawValue)\" x=\"\(fmt(plot.x(start)))\" y=\"\(fmt(layout.top))\" width=\"\(fmt(width))\" height=\"\(fmt(layout.plotHeight))\"><title>route \(route.rawValue)</title></rect>\n"
            if Self.textWidth(route.rawValue, font: layout.font) + 6 <= width {
                svg += "<text class=\"label\" \(plot.font) x=\"\(fmt(plot.x(start) + 3))\" y=\"\(fmt(plot.bottom - 4))\">\(route.rawValue)</text>\n"
            }
        }
        return svg
    }

    /// The time axis with its hours.
    private func timeAxis(_ plot: Plot) -> String {
        let fmt = HTMLReport.fmt
        let layout = plot.layout
        var svg = ""
        svg +=
            "<line class=\"axis\" x1=\"\(fmt(layout.left))\" y1=\"\(fmt(plot.bottom))\" x2=\"\(fmt(layout.left + layout.plotWidth))\" y2=\"\(fmt(plot.bottom))\"/>\n"
        // Hours under the axis: the first starts at the plot's edge, the last ends at it.
        for hour in stride(from: 0, through: 24, by: layout.hourStep) {
            let anchor = hour == 0 ? "start" : hour == 24 ? "end" : "middle"
            svg +=
                "<text class=\"label\" \(plot.font) x=\"\(fmt(plot.x(hour * 3600)))\" y=\"\(fmt(plot.bottom + layout.font + 4))\" text-anchor=\"\(anchor)\">\(TimeFormat.clock((dayStart + hour * 3600) % 86_400))</text>\n"
        }
        return svg
    }

    /// The steps axis: 0, half the goal and the goal.
    private func stepsAxis(_ plot: Plot, goal: Double) -> String {
        let fmt = HTMLReport.fmt
        let layout = plot.layout
        var svg = ""
        // The y axis: 0, half the goal and the goal, each kept clear of the one below it.
        var yLabels: [(Double, String)] = [(plot.y(0), "0")]
        if goal > 0 {
            yLabels.append((plot.y(goal / 2), HTMLReport.grouped(Int(goal / 2))))
            yLabels.append((plot.y(goal), HTMLReport.grouped(Int(goal))))
        }
        var lastY = Double.infinity
        for (position, text) in yLabels where lastY - position >= layout.font + 2 && Self.textWidth(text, font: layout.font) <= layout.left - 6 {
            svg +=
                "<text class=\"label\" \(plot.font) x=\"\(fmt(layout.left - 4))\" y=\"\(fmt(position + layout.font * 0.35))\" text-anchor=\"end\">\(text)</text>\n"
            lastY = position
        }
        return svg
    }

    /// The real steps and the syncs that saw them.
    private func realSteps(_ plot: Plot) -> String {
        let fmt = HTMLReport.fmt
        var svg = ""
        if !day.health.steps.isEmpty {
            let points = stride(from: 0, through: 86_400, by: 600).map { p in
                "\(fmt(plot.x(p))),\(fmt(plot.y(Double(day.health.steps(at: p, dayStart: dayStart)))))"
            }
            svg += "<polyline class=\"steps\" points=\"\(points.joined(separator: " "))\"><title>steps (real)</title></polyline>\n"
        }
        for (p, steps) in known {
            svg +=
                "<circle class=\"known\" cx=\"\(fmt(plot.x(p)))\" cy=\"\(fmt(plot.y(Double(steps))))\" r=\"3\"><title>synced \(steps) steps</title></circle>\n"
        }
        return svg
    }

    /// The steps goal in force through the day.
    private func goalLine(_ plot: Plot, goal: Double) -> String {
        let fmt = HTMLReport.fmt
        var svg = ""
        if goal > 0 {
            var points: [String] = []
            var current = Double(snapshots.first?.1.stepsGoal ?? 0)
            var startX = plot.x(snapshots.first?.0 ?? 0)
            for (p, s) in snapshots where Double(s.stepsGoal) != current {
                points.append("\(fmt(startX)),\(fmt(plot.y(current))) \(fmt(plot.x(p))),\(fmt(plot.y(current)))")
                startX = plot.x(p)
                current = Double(s.stepsGoal)
            }
            points.append("\(fmt(startX)),\(fmt(plot.y(current))) \(fmt(plot.x(86_400))),\(fmt(plot.y(current)))")
            svg +=
                "<polyline class=\"goal\" fill=\"none\" points=\"\(points.joined(separator: " "))\"><title>steps goal in force</title></polyline>\n"
        }
        return svg
    }

    /// The completion rate after each snapshot.
    private func completionLine(_ plot: Plot) -> String {
        let fmt = HTMLReport.fmt
        let layout = plot.layout
        var svg = ""
        if !snapshots.isEmpty {
            var points: [String] = []
            var last = plot.bottom
            for (p, s) in snapshots {
                let py = plot.bottom - layout.plotHeight * s.completionRate
                points.append("\(fmt(plot.x(p))),\(fmt(last))")
                points.append("\(fmt(plot.x(p))),\(fmt(py))")
                last = py
            }
            points.append("\(fmt(plot.x(86_400))),\(fmt(last))")
            svg += "<polyline class=\"completion\" points=\"\(points.joined(separator: " "))\"><title>completion rate</title></polyline>\n"
        }
        // Its own scale on the right: completion is a share, not steps.
        for (share, text) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
            let y = plot.bottom - layout.plotHeight * share
            svg +=
                "<text class=\"label completion-scale\" \(plot.font) x=\"\(fmt(layout.width - 2))\" y=\"\(fmt(y + layout.font * 0.35))\" text-anchor=\"end\">\(text)</text>\n"
        }
        return svg
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
