import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset
import Testing

/// Each rule of the engine at its boundaries, on the shipped ruleset, with days built from
/// Swift values.
@Suite struct BoundaryTests {
    static let date = "2026-07-20"
    static let quietMorning: [String: Value] = ["morning_checkin": .bool(false)]

    /// One day of 2026-07-20: `moments` (wall time, events) with `settings` and `routines`.
    func day(
        _ moments: [(String, [EngineEvent])], settings: [String: Value] = quietMorning, routines: Set<String> = ["water", "study", "skincare"]
    ) throws -> Lived {
        var days = EngineDays(routines: routines, settings: settings)
        for (time, events) in moments { days.moments.append(.init(date: Self.date, time: time, events: events)) }
        return try days.live()
    }

    /// The settings turning routine reminders on at `reminders` (routine → HH:MM), over `base`.
    func reminding(_ reminders: [String: String], _ base: [String: Value] = quietMorning) -> [String: Value] {
        var settings = base
        settings["routine_reminder"] = .bool(true)
        settings["reminders"] = .map(reminders.mapValues { .time(EngineDays.seconds($0) ?? 0) })
        return settings
    }

    @Test(arguments: [("20:29", true), ("20:30", false), ("20:31", false)])
    func eveningNoticeNeedsARunBeforeItsFireTime(firstRun: String, delivered: Bool) throws {
        let result = try day([(firstRun, [.open()])])
        let evening = result.deliveries.filter { $0.0 == "evening_underachievement" }
        #expect(evening.map(\.1) == (delivered ? ["20:30"] : []))
    }

    @Test func eveningNoticeConditionAtSixtyPercent() throws {
        // 2 of 3 done (67 %): the condition (< 60 %) is false at 20:30.
        let result = try day([("08:00", [.open()]), ("09:00", [.log("water", 1500)]), ("10:00", [.log("study", 25)])])
        #expect(result.suppressions.contains { $0 == ("evening_underachievement", "20:30", "condition_false") })
    }

    @Test(arguments: [("22:29", "delivered"), ("22:30", "quiet_hours")])
    func quietHoursIncludeTheirStart(at time: String, fate: String) throws {
        let base: [String: Value] = ["morning_checkin": .bool(false), "evening_underachievement": .bool(false), "recovery_route": .bool(false)]
        let result = try day([("08:00", [.open()])], settings: reminding(["water": time], base))
        if fate == "delivered" {
            #expect(result.deliveries.map(\.0) == ["routine_reminder"])
        } else {
            #expect(result.suppressions.contains { $0 == ("routine_reminder", time, "quiet_hours") })
        }
    }

    @Test func quietHoursEndIsExcluded() throws {
        let result = try day([("06:00", [.open()])], settings: reminding(["water": "06:59", "study": "07:00"]))
        #expect(result.suppressions.contains { $0 == ("routine_reminder", "06:59", "quiet_hours") })
        #expect(result.deliveries.contains { $0.0 == "routine_reminder" && $0.1 == "07:00" })
    }

    @Test func theFourthNotificationOfADayHitsTheCap() throws {
        let result = try day([("08:00", [.open()])], settings: reminding(["water": "10:00", "study": "12:00", "skincare": "14:00"], [:]))
        #expect(result.deliveries.map(\.1) == ["09:00", "10:00", "12:00"])
        #expect(result.suppressions.contains { $0 == ("routine_reminder", "14:00", "daily_cap") })
        #expect(result.suppressions.contains { $0 == ("evening_underachievement", "20:30", "daily_cap") })
    }

    @Test(arguments: [("11:29", false), ("11:30", true)])
    func categoryCooldownAllowsExactlyNinetyMinutes(second: String, allowed: Bool) throws {
        let result = try day([("08:00", [.open()])], settings: reminding(["water": "10:00", "study": second]))
        let reminders = result.deliveries.filter { $0.0 == "routine_reminder" }.map(\.1)
        #expect(reminders == (allowed ? ["10:00", second] : ["10:00"]))
        if !allowed { #expect(result.suppressions.contains { $0 == ("routine_reminder", second, "category_cooldown") }) }
    }

    @Test func aReminderIsCancelledWhenItsRoutineIsDone() throws {
        let result = try day([("08:00", [.open()]), ("14:00", [.log("water", 1500)])], settings: reminding(["water": "15:00"]))
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
        #expect(!result.deliveries.contains { $0.0 == "routine_reminder" })
    }

    @Test(arguments: [(2, "active"), (3, "passive"), (4, "passive")])
    func weakeningAfterTheThirdIgnore(ignores: Int, level: String) throws {
        let result = try EngineDays.evenings(Array(repeating: .ignored, count: ignores), days: ignores + 1).live()
        let evenings = result.deliveries.filter { $0.0 == "evening_underachievement" }
        #expect(evenings.count == ignores + 1)
        #expect(evenings.last?.2 == level)
    }

    @Test func openingRestoresAWeakenedType() throws {
        let result = try EngineDays.evenings([.ignored, .ignored, .ignored, .opened, nil], days: 5).live()
        #expect(
            result.deliveries.filter { $0.0 == "evening_underachievement" }.map(\.2) == ["active", "active", "active", "passive", "active"])
    }

    @Test(arguments: [(60, "light"), (0, "regular")])
    func shortSleepBoundaryAt360Minutes(sleepStart: Int, route: String) throws {
        // 359 minutes (00:01–06:00) is under 360: light; 360 is not.
        let night = HealthReading(
            stepsPermission: .granted, sleepPermission: .granted, stepsToday: 0, sleepMinutes: 360 - sleepStart / 60, sleepStart: sleepStart,
            sleepEnd: 6 * 3600)
        let result = try day([("08:00", [.open(night)])])
        #expect(result.states.first?.route?.rawValue == route)
    }

    @Test func dayRollsOverAtDayStartsAt() throws {
        // 03:59 after midnight still belongs to 7/20; 04:00 opens 7/21.
        let result = try EngineDays().at("2026-07-20", "08:00", .open()).at("2026-07-20", "03:59", .open()).at("2026-07-21", "04:00", .open())
            .live()
        #expect(result.states.map { $0.snapshot.map { DateFormat.string($0.date) } ?? "" } == ["2026-07-20", "2026-07-20", "2026-07-21"])
        #expect(result.closedDays.first.map { DateFormat.string($0.day) } == "2026-07-20")
        let closed = result.records.first { if case .dayClosed = $0.kind { true } else { false } }
        #expect(closed.map { result.clock.iso8601($0.at) } == "2026-07-21T04:00:00+09:00")
    }

    @Test func aUserRequestBeatsTheTableAndSticks() throws {
        let result = try day([("08:00", [.open()]), ("09:00", [.action(.reduceRoute)]), ("21:30", [.open()])])
        #expect(result.states.map { $0.route?.rawValue ?? "" } == ["regular", "light", "light"])
        #expect(result.records.contains { if case .routeChanged(_, .light, let reason) = $0.kind { reason == "user_request" } else { false } })
    }

    @Test func skipTodayClosesTheDayAsSkipped() throws {
        let result = try day([("08:00", [.open()]), ("09:30", [.action(.skipToday)])])
        #expect(result.closedDays.first?.result == .skipped)
        #expect(result.closedDays.first?.statuses.values.allSatisfy { $0 == .skipped } == true)
        #expect(result.suppressions.contains { $0 == ("evening_underachievement", "20:30", "skipped") })
    }
}
