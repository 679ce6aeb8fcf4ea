import Foundation
import RulesExpression
import Ruleset
import RulesetFiles
import TestSupport
import Testing

@testable import RulesEngine

/// Policy options the shipped ruleset does not use, on edited copies of it: deferral and
/// staleness, the other weakening effects, the pending limit; plus hot reload, filters,
/// the chat guard, and log edits.
@Suite struct PolicyVariantTests {
    func ruleset(_ edits: [(String, String, String)]) throws -> Ruleset { try Shipped.variant(edits) }

    /// A water reminder at 06:00 (in quiet hours), the app opened at 05:00.
    func reminderDay(_ rules: Ruleset) throws -> Lived {
        let settings: [String: Value] = [
            "morning_checkin": .bool(false), "evening_underachievement": .bool(false), "recovery_route": .bool(false),
            "routine_reminder": .bool(true), "reminders": .map(["water": .time(6 * 3600)]),
        ]
        return try EngineDays(rules, routines: ["water"], settings: settings).at("2026-07-20", "05:00", .open()).live()
    }

    @Test func deferredCandidatesArriveWhenQuietHoursEnd() throws {
        let rules = try ruleset([("rules/notifications.yaml", "    for_each: routine\n", "    for_each: routine\n    in_quiet_hours: defer\n")])
        let result = try reminderDay(rules)
        #expect(result.deliveries.map(\.1) == ["07:00"])
    }

    @Test func deferredCandidatesOlderThanExpiresAfterAreStale() throws {
        let rules = try ruleset([
            ("rules/notifications.yaml", "    for_each: routine\n", "    for_each: routine\n    in_quiet_hours: defer\n    expires_after: 30m\n")
        ])
        let result = try reminderDay(rules)
        #expect(result.deliveries.isEmpty)
        #expect(result.suppressions.contains { $0.0 == "routine_reminder" && $0.2 == "stale" })
    }

    /// A line kept from an earlier run is not kept across a change of `day_starts_at`: a
    /// time compares within the logical day, so the same facts can choose another line.
    @Test func aKeptLineFollowsTheDayStart() throws {
        let rules = try ruleset([
            (
                "templates/character.yaml", "    when: route != \"recovery\" && risk == \"low\"\n",
                "    when: route != \"recovery\" && risk == \"low\" && (sleep.end ?? 07:00) >= 03:00\n"
            )
        ])
        let night = HealthReading(
            stepsPermission: .granted, sleepPermission: .granted, stepsToday: 0, sleepMinutes: 270, sleepStart: 23 * 3600, sleepEnd: 3 * 3600 + 1800)
        let result = try EngineDays(rules, routines: ["water"]).at("2026-07-20", "10:00", .open(night)).at("2026-07-20", "10:05", .open(night))
            .at("2026-07-20", "10:10", .settings(["day_starts_at": .time(3 * 3600 + 900)])).live()
        let lines = result.records.compactMap { record -> String? in
            guard case .snapshot(let snapshot) = record.kind else { return nil }
            return snapshot.characterLine
        }
        // 03:30 is after 03:00 in a day from 04:00, before it in a day from 03:15.
        // The first run starts the route (its own line); the second and third see the same facts.
        #expect(lines.count == 3)
        #expect(lines.dropFirst().first?.hasPrefix("오늘 루트는") == true)
        #expect(lines.last == "")
    }

    /// Tomorrow's plan, kept from one app run to the next, is not kept across a change of
    /// permissions: with no sync of tomorrow yet, `health.steps` is the permission known
    /// today, so a `when:` reading it can decide otherwise once the user grants it.
    @Test func tomorrowsPlanFollowsAPermissionGrantedLaterInTheDay() throws {
        let rules = try ruleset([
            (
                "rules/notifications.yaml", "    at: \"09:00\"\n    template: checkin_ready\n",
                "    at: \"09:00\"\n    when: health.steps == \"granted\"\n    template: checkin_ready\n"
            )
        ])
        let seoul = try #require(LocalClock(identifier: "Asia/Seoul"))
        let today = try #require(DateFormat.days("2026-07-20"))
        func at(_ hour: Int) -> Date { seoul.instant(day: today, seconds: hour * 3600) }
        func health(_ steps: HealthReading.Permission) -> HealthReading {
            HealthReading(stepsPermission: steps, sleepPermission: .denied, stepsToday: 1000, stepsAverage7: 5000, sleepMinutes: nil)
        }
        func checkinTomorrow(_ engine: OperatorEngine) -> Bool {
            engine.pending.contains { $0.type == "morning_checkin" && $0.day == today + 1 }
        }
        var engine = OperatorEngine(ruleset: rules, clock: seoul)
        engine.handle(.appOpened(health: health(.denied)), at: at(10))
        #expect(!checkinTomorrow(engine))
        // The same run on an engine that kept nothing (restored from the saved state).
        var restored = try #require(OperatorEngine(ruleset: rules, state: engine.state))
        let kept = engine.handle(.appOpened(health: health(.granted)), at: at(11)).map { "\($0)" }
        let fresh = restored.handle(.appOpened(health: health(.granted)), at: at(11)).map { "\($0)" }
        #expect(checkinTomorrow(engine))
        #expect(kept == fresh)
    }

    /// The day's close reads the day as of the last app run; it takes that run's reading
    /// when nothing but deliveries changed since, so what the close reads must come out as
    /// a fresh reading gives it: `event` back to `home`, deliveries after the run counted.
    /// (The run after restoring keeps no reading: the two traces must be the same.)
    @Test func theCloseReadsTheDeliveriesAfterTheLastRunAndTheHomeEvent() throws {
        let rules = try ruleset([
            (
                "rules/judgement.yaml", "    - { result: success,   when: completion_rate >= 0.8 }\n",
                "    - { result: success,   when: notifications.sent_today >= 1 && event == \"home\" }\n"
            )
        ])
        let days = EngineDays(rules, routines: ["water"]).at("2026-07-20", "08:00", .open()).at("2026-07-20", "08:05", .log("water", 1500))
        let kept = try days.live()
        let restored = try days.live(restoring: true)
        // The last run completed water (its event: `completed`); the check-in came after it.
        #expect(kept.records.contains { if case .snapshot = $0.kind { true } else { false } })
        #expect(kept.deliveries.map(\.0).contains("morning_checkin"))
        #expect(kept.closedDays.map(\.result) == [.success])
        #expect(kept.records == restored.records)
    }

    /// The evening notice ignored on the first three of `count` days.
    func ignoredDays(_ count: Int, _ rules: Ruleset) throws -> Lived {
        try EngineDays.evenings([.ignored, .ignored, .ignored], days: count, ruleset: rules).live()
    }

    @Test func weakenedOffStopsTheType() throws {
        let rules = try ruleset([("rules/notifications.yaml", "effect: passive", "effect: off")])
        let result = try ignoredDays(5, rules)
        #expect(result.deliveries.filter { $0.0 == "evening_underachievement" }.count == 3)
        #expect(result.suppressions.filter { $0.0 == "evening_underachievement" && $0.2 == "weakened" }.count == 2)
    }

    @Test func weakenedEveryOtherDayAlternates() throws {
        let rules = try ruleset([("rules/notifications.yaml", "effect: passive", "effect: every_other_day")])
        let result = try ignoredDays(6, rules)
        // Weakened on day 3 (7/22): 7/23 off, 7/24 on, 7/25 off.
        let days = result.records.compactMap { record -> String? in
            if case .notificationDelivered(let n, _) = record.kind, n.type == "evening_underachievement" { return DateFormat.string(n.day) }
            return nil
        }
        #expect(days == ["2026-07-20", "2026-07-21", "2026-07-22", "2026-07-24"])
    }

    @Test func atMostMaxPendingArePendingSoonestFirst() throws {
        let rules = try ruleset([("rules/notifications.yaml", "max_pending: 64", "max_pending: 2")])
        let result = try EngineDays(rules, routines: ["water"]).at("2026-07-20", "08:00", .open()).live()
        let first = result.records.compactMap { record -> String? in
            if case .notificationScheduled(let n) = record.kind { return n.id }
            return nil
        }
        #expect(first.prefix(2) == ["morning_checkin.20260720", "evening_underachievement.20260720"])
        #expect(result.suppressions.contains { $0.0 == "recovery_route" && $0.2 == "max_pending" })
    }

    @Test func hotReloadKeepsTheDaysLogsAndABadRulesetIsRefused() throws {
        let clock = try #require(LocalClock(identifier: "Asia/Seoul"))
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: clock)
        let day = try #require(DateFormat.days("2026-07-20"))
        engine.handle(.log(routine: "water", value: 500, unit: nil, source: .manual), at: clock.instant(day: day, seconds: 9 * 3600))
        let lighter = try ruleset([("rules/route.yaml", "scale: 0.6", "scale: 0.5")])
        engine.replaceRuleset(lighter)
        engine.handle(.action(.reduceRoute), at: clock.instant(day: day, seconds: 10 * 3600))
        #expect(engine.habitLogs.map(\.value) == [500])
        #expect(engine.snapshot?.stepsGoal == 3000)  // 6000 × 0.5 under the new rules
        // A reload that fails leaves the last good ruleset in force.
        let broken = Ruleset.load(directory: NSTemporaryDirectory() + "missing-\(UUID().uuidString)")
        #expect(broken.ruleset(orKeeping: lighter).light?.scale == 0.5)
    }

    @Test func editedAndDeletedLogsChangeTheDay() throws {
        let result = try EngineDays(routines: ["water", "study"]).at("2026-07-20", "09:00", .log("water", 1500))
            .at("2026-07-20", "09:10", .editLog(id: "log_20260720_001", value: 500)).at("2026-07-20", "09:20", .log("study", 25))
            .at("2026-07-20", "09:30", .deleteLog(id: "log_20260720_002")).at("2026-07-20", "09:40", .deleteLog(id: "log_nope")).live()
        let completed = result.records.compactMap { record -> Int? in
            if case .snapshot(let s) = record.kind { return s.completedRoutines }
            return nil
        }
        #expect(completed == [1, 0, 1, 0])
        #expect(result.problems == ["no log 'log_nope' today"])
    }

    @Test(arguments: [
        (Value.int(3240), TemplateFilter.thousands, "3,240"), (.int(330), .hm, "5시간 30분"), (.duration(5400), .hm, "1시간 30분"), (.int(30), .hm, "30분"),
        (.int(120), .hm, "2시간"),
        (.int(3240), .k, "3.2k"), (.int(999), .k, "999"), (.number(0.5), .percent, "50%"),
        (.list([.string("물 300ml"), .string("양치"), .string("300보")]), .list, "물 300ml, 양치, 300보"),
        (.int(-1_234_567), .thousands, "-1,234,567"),
    ])
    func filtersWriteValuesForPeople(value: Value, filter: TemplateFilter, text: String) {
        #expect(TemplateRendererProbe.format(value, filter) == text)
    }

    @Test func chatLinesThatBreakTheGuardsAreReplaced() throws {
        let clock = try #require(LocalClock(identifier: "Asia/Seoul"))
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: clock)
        engine.handle(.appOpened(health: nil), at: clock.instant(day: 20_654, seconds: 9 * 3600))
        #expect(engine.chatLine("좋아, 물부터 마시자.").text == "좋아, 물부터 마시자.")
        let blamed = engine.chatLine("오늘도 한심하네.")
        #expect(blamed.redacted)
        #expect(!blamed.text.contains("한심"))
        #expect(!blamed.text.isEmpty)
        let long = engine.chatLine("하나. 둘. 셋. 넷.")
        #expect(long.text != "하나. 둘. 셋. 넷.")
    }
}

/// The engine writes its enum facts as cells made once per case: each must read back as the
/// case's name.
@Suite struct EnumFactTests {
    @Test func enumFactsReadAsTheirNames() throws {
        let steps = HealthReading(stepsPermission: .granted, sleepPermission: .denied, stepsToday: 100)
        let lived = try EngineDays(routines: ["water", "steps", "skincare"]).at("2026-07-20", "21:10", .open(steps))
            .at("2026-07-20", "21:12", .check(routine: "skincare", item: "양치")).live()
        // The facts after the last event of the day (before the day closes at 04:00).
        let facts = try #require(lived.states.last?.facts)
        let schema = Shipped.ruleset.schema
        func fact(_ name: String) -> Value? { schema.fact(named: name).map { facts[$0.slot] } }
        #expect(fact("weekday") == .string("mon"))
        #expect(fact("route") == .string("recovery"))
        #expect(fact("risk") == .string("high"))
        #expect(fact("health.steps") == .string("granted"))
        #expect(fact("health.sleep") == .string("denied"))
        #expect(fact("routines.water.status") == .string("not_started"))
        #expect(fact("routines.steps.status") == .string("in_progress"))
        #expect(fact("routines.water.name") == .string("물"))
        #expect(fact("recovery.items_text") == .string("물 300ml, 양치, 300보"))
        #expect(fact("recovery.remaining_text") == .string("물 300ml, 300보"))
        // Every case of every enum the engine writes, through a fact of its own kind.
        for (index, weekday) in ["thu", "fri", "sat", "sun", "mon", "tue", "wed"].enumerated() {
            #expect(DateFormat.weekday(index) == weekday)
        }
    }
}
