import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset
import Testing

/// Each rule of SPEC §5–§7 at its boundaries, on the shipped ruleset.
@Suite struct BoundaryTests {
    func day(
        _ events: String, settings: String = "{ morning_checkin: false }", routines: String = "[water, study, skincare]", health: String = ""
    ) -> String {
        """
        name: boundary
        date: 2026-07-20
        timezone: Asia/Seoul
        settings: \(settings)
        routines: \(routines)
        \(health)
        events:
        \(events)
        """
    }

    @Test(arguments: [("20:29", true), ("20:30", false), ("20:31", false)])
    func eveningNoticeNeedsARunBeforeItsFireTime(firstRun: String, delivered: Bool) throws {
        let result = try #require(Shipped.run(day("  - { at: \"\(firstRun)\", app: open }")))
        let evening = Shipped.deliveries(result).filter { $0.0 == "evening_underachievement" }
        #expect(evening.map(\.1) == (delivered ? ["20:30"] : []))
    }

    @Test func eveningNoticeConditionAtSixtyPercent() throws {
        // 2 of 3 done (67 %): the condition (< 60 %) is false at 20:30.
        let result = try #require(
            Shipped.run(
                day(
                    """
                      - { at: "08:00", app: open }
                      - { at: "09:00", log: { routine: water, value: 1500 } }
                      - { at: "10:00", log: { routine: study, value: 25 } }
                    """)))
        #expect(Shipped.suppressions(result).contains { $0 == ("evening_underachievement", "20:30", "condition_false") })
    }

    @Test(arguments: [("22:29", "delivered"), ("22:30", "quiet_hours")])
    func quietHoursIncludeTheirStart(at time: String, fate: String) throws {
        let result = try #require(
            Shipped.run(
                day(
                    "  - { at: \"08:00\", app: open }",
                    settings:
                        "{ morning_checkin: false, evening_underachievement: false, recovery_route: false, routine_reminder: true, reminders: { water: \"\(time)\" } }"
                )))
        if fate == "delivered" {
            #expect(Shipped.deliveries(result).map(\.0) == ["routine_reminder"])
        } else {
            #expect(Shipped.suppressions(result).contains { $0 == ("routine_reminder", time, "quiet_hours") })
        }
    }

    @Test func quietHoursEndIsExcluded() throws {
        let result = try #require(
            Shipped.run(
                day(
                    "  - { at: \"06:00\", app: open }",
                    settings: "{ morning_checkin: false, routine_reminder: true, reminders: { water: \"06:59\", study: \"07:00\" } }")))
        #expect(Shipped.suppressions(result).contains { $0 == ("routine_reminder", "06:59", "quiet_hours") })
        #expect(Shipped.deliveries(result).contains { $0.0 == "routine_reminder" && $0.1 == "07:00" })
    }

    @Test func theFourthNotificationOfADayHitsTheCap() throws {
        let result = try #require(
            Shipped.run(
                day(
                    "  - { at: \"08:00\", app: open }",
                    settings: "{ routine_reminder: true, reminders: { water: \"10:00\", study: \"12:00\", skincare: \"14:00\" } }")))
        #expect(Shipped.deliveries(result).map(\.1) == ["09:00", "10:00", "12:00"])
        #expect(Shipped.suppressions(result).contains { $0 == ("routine_reminder", "14:00", "daily_cap") })
        #expect(Shipped.suppressions(result).contains { $0 == ("evening_underachievement", "20:30", "daily_cap") })
    }

    @Test(arguments: [("11:29", false), ("11:30", true)])
    func categoryCooldownAllowsExactlyNinetyMinutes(second: String, allowed: Bool) throws {
        let result = try #require(
            Shipped.run(
                day(
                    "  - { at: \"08:00\", app: open }",
                    settings: "{ morning_checkin: false, routine_reminder: true, reminders: { water: \"10:00\", study: \"\(second)\" } }")))
        let reminders = Shipped.deliveries(result).filter { $0.0 == "routine_reminder" }.map(\.1)
        #expect(reminders == (allowed ? ["10:00", second] : ["10:00"]))
        if !allowed { #expect(Shipped.suppressions(result).contains { $0 == ("routine_reminder", second, "category_cooldown") }) }
    }

    @Test func aReminderIsCancelledWhenItsRoutineIsDone() throws {
        let result = try #require(
            Shipped.run(
                day(
                    """
                      - { at: "08:00", app: open }
                      - { at: "14:00", log: { routine: water, value: 1500 } }
                    """, settings: "{ morning_checkin: false, routine_reminder: true, reminders: { water: \"15:00\" } }")))
        // The shipped rule's own condition (routine.progress < 1.0) refuses it before the
        // `completed` gate does.
        #expect(
            result.records.contains {
                if case .notificationCancelled(let n, let reason) = $0.kind {
                    n.type == "routine_reminder" && ["completed", "condition_false"].contains(reason.rawValue)
                } else {
                    false
                }
            })
        #expect(!Shipped.deliveries(result).contains { $0.0 == "routine_reminder" })
    }

    @Test(arguments: [(2, "active"), (3, "passive"), (4, "passive")])
    func weakeningAfterTheThirdIgnore(ignores: Int, level: String) throws {
        var days = ""
        for index in 0...ignores {
            days += "  - date: 2026-07-\(20 + index)\n    events:\n      - { at: \"08:00\", app: open }\n"
            if index < ignores { days += "      - { at: \"20:40\", notification: evening_underachievement, response: ignored }\n" }
        }
        let result = try #require(
            Shipped.run("name: ignores\ntimezone: Asia/Seoul\nsettings: { morning_checkin: false }\nroutines: [water]\ndays:\n" + days))
        let evenings = Shipped.deliveries(result).filter { $0.0 == "evening_underachievement" }
        #expect(evenings.count == ignores + 1)
        #expect(evenings.last?.2 == level)
    }

    @Test func openingRestoresAWeakenedType() throws {
        var days = ""
        for (index, response) in ["ignored", "ignored", "ignored", "opened", "none"].enumerated() {
            days += "  - date: 2026-07-\(20 + index)\n    events:\n      - { at: \"08:00\", app: open }\n"
            if response != "none" { days += "      - { at: \"20:40\", notification: evening_underachievement, response: \(response) }\n" }
        }
        let result = try #require(
            Shipped.run("name: restore\ntimezone: Asia/Seoul\nsettings: { morning_checkin: false }\nroutines: [water]\ndays:\n" + days))
        #expect(
            Shipped.deliveries(result).filter { $0.0 == "evening_underachievement" }.map(\.2) == ["active", "active", "active", "passive", "active"])
    }

    @Test(arguments: [("00:01", "light"), ("00:00", "regular")])
    func shortSleepBoundaryAt360Minutes(sleepStart: String, route: String) throws {
        // 359 minutes (00:01–06:00) is under 360: light; 360 is not.
        let result = try #require(
            Shipped.run(
                day(
                    "  - { at: \"08:00\", app: open }",
                    health: "health: { permission: { steps: granted, sleep: granted }, sleep: { start: \"\(sleepStart)\", end: \"06:00\" } }")))
        #expect(result.states.first?.route?.rawValue == route)
    }

    @Test func dayRollsOverAtDayStartsAt() throws {
        // 03:59 after midnight still belongs to 7/20; 04:00 opens 7/21.
        let result = try #require(
            Shipped.run(
                """
                name: rollover
                timezone: Asia/Seoul
                days:
                  - date: 2026-07-20
                    events:
                      - { at: "08:00", app: open }
                      - { at: "03:59", app: open }
                  - date: 2026-07-21
                    events:
                      - { at: "04:00", app: open }
                """))
        #expect(result.states.map { $0.snapshot.map { DateFormat.string($0.date) } ?? "" } == ["2026-07-20", "2026-07-20", "2026-07-21"])
        #expect(result.closedDays.first.map { DateFormat.string($0.day) } == "2026-07-20")
        let closed = result.records.first { if case .dayClosed = $0.kind { true } else { false } }
        #expect(closed.map { result.scenario.clock.iso8601($0.at) } == "2026-07-21T04:00:00+09:00")
    }

    @Test func aScenarioCanMoveDayStartsAt() throws {
        let result = try #require(
            Shipped.run(
                """
                name: late starter
                timezone: Asia/Seoul
                settings: { day_starts_at: "06:00" }
                days:
                  - date: 2026-07-20
                    events: [{ at: "08:00", app: open }, { at: "05:30", app: open }]
                    expect: [{ snapshot_at: "05:30", date: "2026-07-20" }]
                  - date: 2026-07-21
                    events: [{ at: "06:00", app: open }]
                    expect: [{ snapshot_at: "06:00", date: "2026-07-21" }]
                """))
        #expect(result.dayStart == 6 * 3600)
        let closed = result.records.first { if case .dayClosed = $0.kind { true } else { false } }
        #expect(closed.map { result.scenario.clock.iso8601($0.at) } == "2026-07-21T06:00:00+09:00")
        let outcomes = ExpectationChecker.check(result, ruleset: Shipped.ruleset)
        #expect(outcomes.count == 2)
        #expect(outcomes.allSatisfy { $0.passed }, "\(outcomes.map { "\($0.expected) / \($0.actual)" })")
    }

    @Test func aDeliveryWhoseConditionWentFalseIsMarkedStale() throws {
        // Planned at 20:00 with 1,000 steps (0 %); by 20:30 the real steps pass the goal.
        let result = try #require(
            Shipped.run(
                day(
                    "  - { at: \"20:00\", app: open }", routines: "[steps]",
                    health: "health: { permission: { steps: granted }, steps: { \"08:00\": 0, \"20:00\": 1000, \"20:20\": 7000 } }")))
        let evening = result.records.compactMap { record -> Bool? in
            if case .notificationDelivered(let n, let stale) = record.kind, n.type == "evening_underachievement" { return stale }
            return nil
        }
        #expect(evening == [true])
    }

    @Test func theSeedsCollapsedDayGivesTheSeedsSnapshot() throws {
        let yaml = try String(contentsOfFile: Shipped.root + "/scenarios/collapsed_day.yaml", encoding: .utf8)
        let scenario = try #require(Shipped.scenario(yaml))
        let result = Simulation.run(scenario, ruleset: Shipped.ruleset, options: SimulationOptions(stop: (0, 21 * 3600 + 10 * 60)))
        let snapshot = try #require(result.engine.snapshot)
        let json = snapshot.json(clock: scenario.clock)
        guard case .object(var fields) = json else { return }
        fields.removeAll { $0.0 == "quest" }
        #expect(
            JSONValue.object(fields).rendered()
                == #"{"date":"2026-06-29","steps_today":3240,"steps_goal":6000,"sleep_minutes":330,"water_ml":500,"water_goal_ml":1500,"completed_routines":4,"total_routines":8,"today_completion_rate":0.5,"active_route_type":"recovery","risk_level":"medium","character_line":"전부 하려다 망하지 말고, 세 개만 살리자.","last_updated_at":"2026-06-29T21:10:00+09:00"}"#
        )
        #expect(snapshot.quest?.startSteps == 3240)
        #expect(snapshot.quest?.targetDelta == 300)
        #expect(snapshot.quest?.clearSteps == 3540)
        let route = try #require(result.engine.routeState)
        #expect(route.reason == "completion_rate_below_threshold")
        #expect(route.items.map(\.routine) == ["water", "skincare", "steps"])
    }

    @Test func aUserRequestBeatsTheTableAndSticks() throws {
        let result = try #require(
            Shipped.run(
                day(
                    """
                      - { at: "08:00", app: open }
                      - { at: "09:00", action: reduce_route }
                      - { at: "21:30", app: open }
                    """)))
        #expect(result.states.map { $0.route?.rawValue ?? "" } == ["regular", "light", "light"])
        #expect(result.records.contains { if case .routeChanged(_, .light, let reason) = $0.kind { reason == "user_request" } else { false } })
    }

    @Test func skipTodayClosesTheDayAsSkipped() throws {
        let result = try #require(
            Shipped.run(
                day(
                    """
                      - { at: "08:00", app: open }
                      - { at: "09:30", action: skip_today }
                    """)))
        #expect(result.closedDays.first?.result == .skipped)
        #expect(result.closedDays.first?.statuses.values.allSatisfy { $0 == .skipped } == true)
        #expect(Shipped.suppressions(result).contains { $0 == ("evening_underachievement", "20:30", "skipped") })
    }
}
