import Foundation
import RulesEngine
import RulesExpression
import Ruleset
import Testing

/// Tomorrow's plan made yesterday is moved to the day after when nothing a plan reads tells
/// two days apart (no date fact, no type weakened to every other day, one UTC offset over both
/// days). Lived as the app and populations live them (no explanations), every variant gives
/// the same records as with everything recomputed, and the comparing switch finds nothing.
@Suite struct TomorrowPlanMovedTests {
    /// A week from 2026-07-20 (`first`: another first date): a morning open, water at noon,
    /// an evening open, the evening notice ignored on the first three days.
    static func week(
        _ ruleset: Ruleset = Shipped.ruleset, zone: String = "Asia/Seoul", first: String = "2026-07-20", days: Int = 7
    ) throws
        -> EngineDays
    {
        let start = try #require(DateFormat.days(first))
        var lived = EngineDays(ruleset, zone: zone, routines: ["water", "study"])
        for index in 0..<days {
            let date = DateFormat.string(start + index)
            lived = lived.at(date, "08:00", .open()).at(date, "12:10", .log("water", 400)).at(date, "19:50", .open())
            if index < 3 {
                let id = "evening_underachievement." + date.replacingOccurrences(of: "-", with: "")
                lived = lived.at(date, "20:40", .notificationResponse(id: id, response: .ignored, health: nil))
            }
        }
        return lived
    }

    /// Lives `days` memoised, recomputed and compared, without explanations.
    static func sameEveryWay(_ days: EngineDays, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Lived {
        var memoised = days
        memoised.explains = false
        var recomputed = memoised
        recomputed.verification = .recomputed
        var compared = memoised
        compared.verification = .compared
        let kept = try memoised.live(sourceLocation: sourceLocation)
        let fresh = try recomputed.live(sourceLocation: sourceLocation)
        let checked = try compared.live(sourceLocation: sourceLocation)
        #expect(kept.records == fresh.records, "\(what): memoised and recomputed differ", sourceLocation: sourceLocation)
        let mismatches = checked.problems.filter { $0.contains("kept memos") }
        #expect(mismatches.isEmpty, "\(what): \(mismatches.first ?? "")", sourceLocation: sourceLocation)
        #expect(checked.records == kept.records, "\(what): compared differs", sourceLocation: sourceLocation)
        return kept
    }

    /// The requests scheduled for a type, as `id HH:MM`.
    static func scheduled(_ lived: Lived, _ type: String) -> [String] {
        lived.records.compactMap { record in
            guard case .notificationScheduled(let n) = record.kind, n.type == type else { return nil }
            return n.id + " " + TimeFormat.clock(lived.clock.local(n.scheduledAt).seconds)
        }
    }

    @Test func theShippedRulesetMovesTomorrowsPlanAndDecidesTheSame() throws {
        let lived = try Self.sameEveryWay(Self.week(), "shipped")
        // Tomorrow's check-in, planned every day for the next (ids of the next dates).
        let checkins = Self.scheduled(lived, "morning_checkin")
        #expect(checkins.contains("morning_checkin.20260722 09:00") && checkins.contains("morning_checkin.20260727 09:00"), "\(checkins)")
    }

    @Test func aConditionOnTheWeekdayIsPlannedForEachDayAfresh() throws {
        let rules = try Shipped.variant([
            (
                "rules/notifications.yaml", "  - id: bedtime",
                "  - id: wednesday_note\n    category: note\n    at: \"10:00\"\n    when: weekday == \"wed\"\n    template: checkin_ready\n\n  - id: bedtime"
            )
        ])
        let lived = try Self.sameEveryWay(Self.week(rules), "weekday in when")
        // 2026-07-22 is the one Wednesday of the week: planned the day before, and on the day.
        #expect(Set(Self.scheduled(lived, "wednesday_note")) == ["wednesday_note.20260722 10:00"])
    }

    @Test func aTextOfTheWeekdayIsRenderedForEachDay() throws {
        let rules = try Shipped.variant([("templates/notifications.yaml", "text: 오늘 루트가 준비됐어.", "text: \"{weekday} 루트가 준비됐어.\"")])
        let lived = try Self.sameEveryWay(Self.week(rules), "weekday in a text")
        let texts = lived.records.compactMap { record -> String? in
            guard case .notificationScheduled(let n) = record.kind, n.type == "morning_checkin" else { return nil }
            return n.text
        }
        #expect(Set(texts).count == 7, "\(texts)")
    }

    @Test func aTypeWeakenedToEveryOtherDayAlternatesAsPlannedAfresh() throws {
        let rules = try Shipped.variant([("rules/notifications.yaml", "effect: passive", "effect: every_other_day")])
        let lived = try Self.sameEveryWay(Self.week(rules), "every other day")
        let delivered = lived.records.compactMap { record -> String? in
            guard case .notificationDelivered(let n, _) = record.kind, n.type == "evening_underachievement" else { return nil }
            return DateFormat.string(n.day)
        }
        // Weakened after the third ignore (7/22): 7/23 off, 7/24 on, 7/25 off, 7/26 on.
        #expect(delivered == ["2026-07-20", "2026-07-21", "2026-07-22", "2026-07-24", "2026-07-26"], "\(delivered)")
    }

    @Test(arguments: [("America/New_York", "2026-10-28"), ("America/New_York", "2026-03-05"), ("Europe/London", "2026-03-26")])
    func aWeekOverAClockChangeKeepsItsWallTimes(_ zone: String, _ first: String) throws {
        let lived = try Self.sameEveryWay(Self.week(zone: zone, first: first), "\(zone) from \(first)")
        let times = Set(Self.scheduled(lived, "morning_checkin").map { $0.suffix(5) })
        #expect(times == ["09:00"], "\(times)")
    }

    /// A plan that met a problem (an `at:` or a `when:` that cannot be evaluated, today's and
    /// tomorrow's alike) is made again at every run and tells the problem again: tomorrow's
    /// part is not kept either.
    @Test(arguments: [
        "at: \"steps.today / streak.days > 100 ? 10:00 : 11:00\"",
        "at: \"10:00\"\n    when: steps.today / streak.days > 100",
    ])
    func aPlanThatMeetsAProblemTellsItAtEveryRun(_ rule: String) throws {
        let rules = try Shipped.variant([
            (
                "rules/notifications.yaml", "  - id: bedtime",
                "  - id: broken_note\n    category: note\n    \(rule)\n    template: checkin_ready\n\n  - id: bedtime"
            )
        ])
        let lived = try Self.sameEveryWay(Self.week(rules, days: 2), rule)
        let divisions = lived.problems.filter { $0.contains("division by zero") }
        // Each plan tells today's and tomorrow's (the first day's first runs, before 10:00).
        #expect(divisions.count > 4, "\(lived.problems)")
    }
}
