import Foundation
import RulesSimulator
import Testing

@testable import RulesSimulator

/// Reports read on a phone: charts are never drawn narrower than their own size (their labels
/// keep their size and the chart scrolls sideways), and a histogram's labels do not crowd.
/// (CI measures the rendered text at 390 px: nothing under 10 px.)
@Suite struct PhoneReportTests {
    @Test func aWideHistogramHasAFewShortLabelsInAScrollingBox() {
        var histogram = Histogram()
        for value in 0..<400 { histogram.add(value * 3, count: value % 7 + 1) }
        let svg = PopulationReport.chart(histogram, title: "XP at the end")
        let labels = svg.components(separatedBy: "<text").count - 1
        #expect(labels >= 4 && labels <= 8, "\(labels) labels")
        let texts = svg.components(separatedBy: "<text").dropFirst().compactMap {
            $0.components(separatedBy: ">").dropFirst().first?.components(separatedBy: "<").first
        }
        #expect(texts.allSatisfy { !$0.contains("–") && $0.count <= 5 }, "bin labels are the bin's first value: \(texts)")
        #expect(svg.contains("<div class=\"table\"><svg"))
    }
}
