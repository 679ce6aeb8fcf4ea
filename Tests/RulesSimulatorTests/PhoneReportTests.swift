import Foundation
import Testing

@testable import RulesPopulation
@testable import RulesSimulator

/// Reports read on a phone: a histogram is drawn to its box (a narrow viewBox shown at the box's
/// width, never a wider chart scrolling or cut inside it), and its labels do not crowd. (CI
/// renders every report at 390, 1200 and 1440 px and measures inside the boxes: nothing cut,
/// no label overlapping another, nothing under 10 px.)
@Suite struct PhoneReportTests {
    @Test func aWideHistogramHasAFewShortLabelsAndFitsItsBox() {
        var histogram = Histogram()
        for value in 0..<400 { histogram.add(value * 3, count: value % 7 + 1) }
        let svg = PopulationReport.chart(histogram, title: "XP at the end")
        let labels = svg.components(separatedBy: "<text").count - 1
        #expect(labels >= 4 && labels <= 8, "\(labels) labels")
        let texts = svg.components(separatedBy: "<text").dropFirst().compactMap {
            $0.components(separatedBy: ">").dropFirst().first?.components(separatedBy: "<").first
        }
        #expect(texts.allSatisfy { !$0.contains("–") && $0.count <= 5 }, "bin labels are the bin's first value: \(texts)")
        #expect(svg.contains("<svg viewBox=\"0 0 320 165\""))
        #expect(!svg.contains("class=\"table\""), "a chart never scrolls inside its box")
    }
}

/// The day report's timeline is drawn to its box: two layouts chosen by a container query,
/// each scaled to the box's width, never a fixed-width chart scrolling or cut inside it; its
/// labels are placed so they neither overlap nor leave the chart.
@Suite struct TimelineChartTests {
    static func chart(_ markers: [(Int, String)]) -> TimelineChart {
        let day = ScenarioDay(date: 20_650, health: TrueHealth(), settings: [:], events: [], expectations: [], origin: .unknown)
        return TimelineChart(
            day: day, snapshots: [], routes: [(0, .regular), (60, .light)],
            markers: markers.map { TimelineChart.Marker(position: $0.0, kind: "delivered", label: $0.1, title: $0.1) }, known: [],
            dayStart: 4 * 3600)
    }

    /// Every `<text>` of an SVG with its x, anchor and text.
    static func labels(_ svg: String) -> [(x: Double, anchor: String, y: Double, text: String)] {
        svg.components(separatedBy: "<text").dropFirst().compactMap { part in
            func attribute(_ name: String) -> String? {
                part.components(separatedBy: " \(name)=\"").dropFirst().first?.components(separatedBy: "\"").first
            }
            guard let x = attribute("x").flatMap(Double.init), let y = attribute("y").flatMap(Double.init),
                let text = part.components(separatedBy: ">").dropFirst().first?.components(separatedBy: "<").first
            else { return nil }
            return (x, attribute("text-anchor") ?? "start", y, text)
        }
    }

    @Test func bothLayoutsAndNoFixedWidth() {
        let html = Self.chart([(5 * 3600, "morning_checkin")]).html()
        #expect(html.contains("<svg class=\"wide\" viewBox=\"0 0 1000 "))
        #expect(html.contains("<svg class=\"narrow\" viewBox=\"0 0 400 "))
        #expect(html.contains("<ol class=\"markers\">"))
        #expect(!HTMLReport.style.contains("min-width: 960px"))
        #expect(HTMLReport.style.contains("@container (min-width: 640px)"))
    }

    /// Completion is a share, not steps: it has its own scale on the right, 0 % to 100 %,
    /// inside the chart in both layouts.
    @Test func completionHasAScaleOfItsOwn() {
        let chart = Self.chart([(5 * 3600, "morning_checkin")])
        for layout in [TimelineChart.Layout.wide, .narrow] {
            let scale = Self.labels(chart.svg(layout)).filter { $0.text.hasSuffix("%") }
            #expect(scale.map(\.text) == ["0%", "50%", "100%"], "\(layout.name)")
            for label in scale {
                let width = TimelineChart.textWidth(label.text, font: layout.font)
                #expect(label.x - width >= layout.left + layout.plotWidth, "\(label.text) sits right of the plot in \(layout.name)")
                #expect(label.x <= layout.width)
            }
        }
        #expect(chart.html().contains("completion (right scale, %)"))
    }

    /// Crowded markers near the evening and one at the right edge: each label is inside the
    /// chart and no two labels of a row overlap (by the same width estimate the placement uses).
    @Test func markerLabelsNeitherOverlapNorLeaveTheChart() {
        let names = ["evening_underachievement", "recovery_route", "routine_reminder", "bedtime", "late_one", "morning_checkin"]
        let markers = names.enumerated().map { (16 * 3600 + $0.offset * 1200, $0.element) } + [(23 * 3600 + 3000, "at_the_edge")]
        let chart = Self.chart(markers)
        let layout = TimelineChart.Layout.wide
        let tags = Self.labels(chart.svg(layout)).filter { names.contains($0.text) || $0.text == "at_the_edge" }
        #expect(tags.count >= 4, "\(tags.map(\.text))")
        var spans: [(Double, Double, Double)] = []
        for tag in tags {
            let width = TimelineChart.textWidth(tag.text, font: layout.font)
            let start = tag.anchor == "end" ? tag.x - width : tag.x
            #expect(start >= 0 && start + width <= layout.width, "\(tag.text) leaves the chart")
            for (left, right, y) in spans where y == tag.y {
                #expect(start + width <= left || start >= right, "\(tag.text) overlaps a label of its row")
            }
            spans.append((start, start + width, tag.y))
        }
        #expect(tags.contains { $0.text == "at_the_edge" && $0.anchor == "end" })
        // The narrow layout leaves labels to the list under the chart.
        #expect(Self.labels(chart.svg(.narrow)).allSatisfy { !names.contains($0.text) })
    }
}
