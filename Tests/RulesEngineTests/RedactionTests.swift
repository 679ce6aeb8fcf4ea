import Foundation
import RulesEngine
import RulesExpression
import Ruleset
import Testing

/// Privacy as correctness: the renderer refuses a sensitive value even when a ruleset asks
/// for it (generated days by the thousand are checked in the simulator's tests).
@Suite struct RedactionTests {
    @Test func theRendererRefusesASensitiveValueEvenWhenARulesetAsks() throws {
        // A ruleset whose lint would refuse this is built in memory: the run-time guard is the
        // second line of defence.
        let directory = NSTemporaryDirectory() + "redaction-\(UUID().uuidString)"
        for folder in ["routines", "rules", "templates"] {
            try FileManager.default.copyItem(atPath: Shipped.root + "/" + folder, toPath: directory + "/" + folder)
        }
        try """
        templates:
          - id: sleep_line
            surface: home
            event: home
            text: "어젯밤 {sleep.minutes ?? 0}분 잤어."
        """.write(toFile: directory + "/templates/sleep.yaml", atomically: true, encoding: .utf8)
        var ruleset = try #require(Ruleset.load(directory: directory).ruleset)
        ruleset.templates.removeAll { $0.surface == "widget" }
        let index = try #require(ruleset.templates.firstIndex { $0.id == "sleep_line" })
        ruleset.templates[index].surface = "widget"
        ruleset.reindex()
        let night = HealthReading(sleepPermission: .granted, sleepMinutes: 270, sleepStart: 3600, sleepEnd: 5 * 3600 + 1800)
        let result = try EngineDays(ruleset).at("2026-07-20", "08:00", .open(night)).live()
        let widget = result.records.compactMap { record -> RenderedText? in
            if case .templateRendered(let text) = record.kind, text.surface == "widget" { return text }
            return nil
        }
        #expect(widget.first?.text == "오늘의 작전 대기 중")
        #expect(widget.first?.redacted == true)
        let saved = result.records.compactMap { record -> DailySnapshot? in
            if case .snapshot(let snapshot) = record.kind { return snapshot }
            return nil
        }
        #expect(saved.first?.widgetLine?.redacted == true)
        #expect(saved.first?.widgetLine?.text.contains("270") == false)
    }
}
