import Foundation
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset
import Testing

/// Privacy as correctness: across generated days, nothing sensitive reaches a lock-screen
/// or widget text, no day delivers more than the cap, nothing but bedtime arrives in quiet
/// hours; and the renderer refuses a sensitive value even when a ruleset asks for it.
@Suite struct RedactionTests {
    typealias Generator = GeneratedDays.Generator
    static let sensitiveWords = ["수면", "잠", "영양제", "우울", "불안", "무기력", "복용"]

    func generatedDay(_ g: inout Generator, date: String) -> String { GeneratedDays.day(&g, date: date) }

    @Test func noSensitiveValueOnLockScreenOrWidgetAcrossGeneratedDays() throws {
        var g = Generator(state: 2026)
        let ruleset = Shipped.ruleset
        let quiet = ruleset.policy.quietHours
        var days = 0
        for block in 0..<20 {
            var yaml =
                "name: generated\ntimezone: Asia/Seoul\nroutines: [steps, sleep, water, study, reading, practice, skincare, exercise, supplement, room]\ndays:\n"
            for day in 0..<50 {
                let date = DateFormat.string(DateFormat.days("2026-01-01")! + block * 50 + day)
                yaml += generatedDay(&g, date: date) + "\n"
            }
            let result = try #require(Shipped.run(yaml))
            days += result.closedDays.count
            var perDay: [Int: Int] = [:]
            for record in result.records {
                var texts: [String] = []
                switch record.kind {
                case .notificationDelivered(let n, _):
                    texts = [n.text] + (n.title.map { [$0] } ?? [])
                    perDay[n.day, default: 0] += 1
                    let seconds = result.scenario.clock.local(record.at).seconds
                    if n.type != "bedtime", let quiet, ruleset.policy.isQuiet(seconds) {
                        Issue.record("\(n.id) delivered in quiet hours \(quiet) at \(TimeFormat.clock(seconds))")
                    }
                case .notificationScheduled(let n): texts = [n.text]
                case .templateRendered(let text) where text.surface != "home" && text.surface != "chat": texts = [text.text]
                case .snapshot(let snapshot): texts = snapshot.widgetLine.map { [$0.text] } ?? []
                default: break
                }
                for text in texts {
                    for word in Self.sensitiveWords where text.contains(word) { Issue.record("'\(word)' on a forbidden surface: \(text)") }
                    if text.range(of: #"\d+h \d+m|\d+시간|\d+분"#, options: .regularExpression) != nil {
                        Issue.record("a duration on a forbidden surface: \(text)")
                    }
                }
            }
            for (day, count) in perDay where count > ruleset.policy.maxPerDay { Issue.record("day \(day) delivered \(count)") }
        }
        #expect(days >= 1000)
    }

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
        let result = try #require(
            Shipped.run(
                """
                name: leak attempt
                date: 2026-07-20
                timezone: Asia/Seoul
                health: { permission: { sleep: granted }, sleep: { start: "01:00", end: "05:30" } }
                events: [{ at: "08:00", app: open }]
                """, ruleset: ruleset))
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
