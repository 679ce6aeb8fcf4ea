import Foundation
import RulesEngine
import RulesExpression
import Ruleset
import RulesSimulator
import Testing

/// Privacy as correctness: across generated days, nothing sensitive reaches a lock-screen
/// or widget text, no day delivers more than the cap, nothing but bedtime arrives in quiet
/// hours; and the renderer refuses a sensitive value even when a ruleset asks for it.
@Suite struct RedactionTests {
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let sensitiveWords = ["수면", "잠", "영양제", "우울", "불안", "무기력", "복용"]

    func generatedDay(_ g: inout Generator, date: String) -> String {
        let routines = ["steps", "sleep", "water", "study", "reading", "practice", "skincare", "exercise", "supplement", "room"]
        var enabled = routines.filter { _ in g.next(3) > 0 }
        if enabled.isEmpty { enabled = ["water"] }
        let sleepStart = 22 * 60 + g.next(300)
        let sleepMinutes = 180 + g.next(400)
        func clock(_ minutes: Int) -> String { String(format: "%02d:%02d", (minutes / 60) % 24, minutes % 60) }
        var reminders: [String] = []
        for routine in enabled where g.next(2) == 0 { reminders.append("\(routine): \"\(clock(6 * 60 + g.next(17 * 60)))\"") }
        var events: [String] = []
        var minute = 6 * 60 + g.next(120)
        while minute < 26 * 60 {
            let routine = enabled[g.next(enabled.count)]
            switch g.next(8) {
            case 0, 1: events.append("{ at: \"\(clock(minute))\", app: open }")
            case 2: events.append("{ at: \"\(clock(minute))\", widget: \(["log_water_250", "complete_supplement", "complete_skincare", "start_recovery"][g.next(4)]) }")
            case 3: events.append("{ at: \"\(clock(minute))\", check: { routine: skincare, item: \(["양치", "세수", "면도", "로션"][g.next(4)]) } }")
            case 4: events.append("{ at: \"\(clock(minute))\", action: \(["reduce_route", "start_recovery"][g.next(2)]) }")
            default:
                if routine != "skincare", routine != "steps", routine != "sleep" {
                    events.append("{ at: \"\(clock(minute))\", log: { routine: \(routine), value: \(1 + g.next(600)) } }")
                }
            }
            minute += 20 + g.next(160)
        }
        return """
              - date: \(date)
                settings: { bedtime: "\(clock(22 * 60 + g.next(180)))", routine_reminder: \(g.next(2) == 0), reminders: { \(reminders.joined(separator: ", ")) }, tone: \(g.next(2) == 0 ? "calm_directive" : "cold_persistent") }
                health:
                  permission: { steps: \(g.next(4) == 0 ? "denied" : "granted"), sleep: \(g.next(4) == 0 ? "denied" : "granted") }
                  sleep: { start: "\(clock(sleepStart))", end: "\(clock(sleepStart + sleepMinutes))" }
                  steps: { "07:00": 0, "13:00": \(g.next(5000)), "22:00": \(5000 + g.next(5000)) }
                events: [\(events.joined(separator: ", "))]
            """
    }

    @Test func noSensitiveValueOnLockScreenOrWidgetAcrossGeneratedDays() throws {
        var g = Generator(state: 2026)
        let ruleset = Shipped.ruleset
        let quiet = ruleset.policy.quietHours
        var days = 0
        for block in 0..<20 {
            var yaml = "name: generated\ntimezone: Asia/Seoul\nroutines: [steps, sleep, water, study, reading, practice, skincare, exercise, supplement, room]\ndays:\n"
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
                    if text.range(of: #"\d+h \d+m|\d+시간|\d+분"#, options: .regularExpression) != nil { Issue.record("a duration on a forbidden surface: \(text)") }
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
        let result = try #require(Shipped.run("""
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
