import Foundation
import RulesEngine
import RulesExpression
import Ruleset
import Testing

/// Semantics decided for this round that need a ruleset or an event the shipped scenarios
/// do not have (the others are pinned by `scenarios/skipped_day.yaml`,
/// `light_then_recovery.yaml`, `untouched_day.yaml`, `recovery_without_items.yaml` and the
/// value-less tool calls of `tool_calls.yaml`).
@Suite struct DecidedSemanticsTests {
    /// The routine reminder deferred out of quiet hours instead of dropped; one a day.
    func deferringRuleset(maxPerDay: Int = 3) throws -> Ruleset {
        try Shipped.variant([
            ("rules/notifications.yaml", "    template: routine_left\n", "    template: routine_left\n    in_quiet_hours: defer\n"),
            ("rules/notifications.yaml", "max_per_day: 3", "max_per_day: \(maxPerDay)"),
        ])
    }

    /// The home line of each app run of a day whose night HealthKit knows, with `routines`.
    func homeLines(routines: Set<String>) throws -> [String] {
        let night = HealthReading(stepsPermission: .granted, sleepPermission: .granted, sleepMinutes: 420, sleepStart: 1800, sleepEnd: 27_000)
        return try EngineDays(routines: routines).at("2026-07-15", "09:00", .open(night)).at("2026-07-15", "12:00", .log("water", 250)).live()
            .rendered(on: "home")
    }

    /// A night's sleep completes the sleep routine at the first sync, a completion of the
    /// user's only when the routine is enabled: otherwise the first line is the day's
    /// default, not "하나 처리 완료" with 0 of 4 done.
    @Test func aDisabledRoutineMetBySyncedDataIsNoCompletion() throws {
        #expect(try homeLines(routines: ["steps", "water", "study", "skincare"]) == ["home_default", "home_default"])
        #expect(try homeLines(routines: ["steps", "water", "study", "skincare", "sleep"]) == ["home_completed", "home_default"])
    }

    func newYorkNight(_ ruleset: Ruleset) throws -> Lived {
        let settings: [String: Value] = [
            "evening_underachievement": .bool(false), "recovery_route": .bool(false), "routine_reminder": .bool(true),
            "reminders": .map(["water": .time(23 * 3600)]),
        ]
        return try EngineDays(ruleset, zone: "America/New_York", routines: ["water"], settings: settings)
            .at("2026-03-07", "20:00", .open()).at("2026-03-08", "12:00", .open()).live()
    }

    @Test func aReminderDeferredOverTheSpringForwardNightLandsAtSevenLocal() throws {
        let result = try newYorkNight(try deferringRuleset())
        let clock = result.clock
        let sunday = try #require(DateFormat.days("2026-03-08"))
        let delivery = try #require(
            result.records.compactMap { record -> ScheduledNotification? in
                if case .notificationDelivered(let n, _) = record.kind, n.id == "routine_reminder.water.20260307" { return n }
                return nil
            }.first)
        #expect(clock.iso8601(delivery.scheduledAt) == "2026-03-08T07:00:00-04:00")
        #expect(delivery.scheduledAt == clock.instant(day: sunday, seconds: 7 * 3600))
        // It belongs to the day it fires on.
        #expect(delivery.day == sunday)
    }

    @Test func aDeferredRequestCountsAgainstTheCapOfTheDayItFiresOn() throws {
        let result = try newYorkNight(try deferringRuleset(maxPerDay: 1))
        let sunday = try #require(DateFormat.days("2026-03-08"))
        #expect(result.deliveries.map(\.0) == ["routine_reminder"])
        #expect(
            result.records.contains {
                if case .notificationSuppressed(let s) = $0.kind {
                    s.type == "morning_checkin" && s.day == sunday && s.reason == .dailyCap
                } else {
                    false
                }
            })
    }

    @Test func afterSkippingTheDayARouteRequestChangesNothing() throws {
        let result = try EngineDays(routines: ["water", "study"]).at("2026-07-20", "08:00", .open())
            .at("2026-07-20", "09:00", .action(.skipToday)).at("2026-07-20", "10:00", .action(.startRecovery))
            .at("2026-07-20", "11:00", .widget(.startRecovery)).live()
        #expect(!result.records.contains { if case .routeChanged(_, .recovery, _) = $0.kind { true } else { false } })
        // An ordinary user action, recorded as refused, never a problem.
        #expect(result.records.filter { if case .routeRequestRefused(_, .daySkipped) = $0.kind { true } else { false } }.count == 2)
        #expect(!result.records.contains { if case .problem = $0.kind { true } else { false } })
        #expect(result.closedDays.first?.result == .skipped)
    }

    @Test func undoingALogTakesBackAKeptCompletion() throws {
        let result = try EngineDays(routines: ["water", "study"]).at("2026-07-20", "08:00", .open())
            .at("2026-07-20", "09:00", .log("water", 1500)).at("2026-07-20", "10:00", .deleteLog(id: "log_20260720_001")).live()
        let statuses = result.closedDays.first?.statuses
        #expect(statuses?["water"] == .failed)
    }
}

/// DST gaps around the day start and events: no day is lost, nothing is out of order.
@Suite struct DaylightSavingGapTests {
    @Test func aDayStartInsideTheGapStillClosesTheDayBefore() throws {
        let result = try EngineDays(zone: "America/New_York", routines: ["water"], settings: ["day_starts_at": .time(2 * 3600 + 1800)])
            .at("2026-03-07", "09:00", .open()).at("2026-03-08", "03:00", .open()).at("2026-03-08", "09:00", .open())
            .at("2026-03-09", "09:00", .open()).live()
        #expect(result.closedDays.map { DateFormat.string($0.day) } == ["2026-03-07", "2026-03-08", "2026-03-09"])
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

}

/// An expression that fails to evaluate is a `problem` record naming its file and line —
/// never a silent `false` or a silently skipped line — and `rules test` fails such a day.
@Suite struct EvaluationProblemTests {
    /// One app open at 08:00 under `ruleset`.
    func morning(_ ruleset: Ruleset, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Lived {
        try EngineDays(ruleset, routines: ["water"]).at("2026-07-20", "08:00", .open()).live(sourceLocation: sourceLocation)
    }

    func evaluationProblems(_ result: Lived) -> [String] {
        result.records.compactMap { record -> String? in
            if case .problem(.evaluation, let message) = record.kind { return message }
            return nil
        }
    }

    @Test func aFailingPlaceholderIsAProblemRecordWithItsFileAndLine() throws {
        let overflowing = try Shipped.variant([
            (
                "templates/character.yaml", "text: 오늘 루트는 {completed}/{total} 진행 중. 다음 하나만 처리해.",
                "text: 오늘 루트는 {(completed + 1) * 9000000000000000000 * 9000000000000000000}/{total} 진행 중."
            )
        ])
        let result = try morning(overflowing)
        let problems = evaluationProblems(result)
        let shipped = try String(contentsOfFile: Shipped.root + "/templates/character.yaml", encoding: .utf8)
        let lineOfHomeDefault = (shipped.components(separatedBy: "\n").firstIndex { $0.contains("text: 오늘 루트는 {completed}/{total}") } ?? 0) + 1
        #expect(problems.contains { $0.hasPrefix("templates/character.yaml:\(lineOfHomeDefault): ") && $0.contains("home_default") })
    }

    @Test func aFailingTableConditionIsAProblemRecord() throws {
        let overflowing = try Shipped.variant([
            (
                "rules/route.yaml", "when: (sleep.minutes ?? 420) < 360",
                "when: (sleep.minutes ?? 420) * 9000000000000000000 * 9000000000000000000 < 360"
            )
        ])
        let result = try morning(overflowing)
        #expect(evaluationProblems(result).contains { $0.hasPrefix("rules/route.yaml:") })
    }

    @Test func aFailingFireTimeIsAProblemRecordAndLeavesItsTypeOut() throws {
        // A fire time that divides by zero: the type cannot be planned, and says so.
        let failing = try Shipped.variant([
            ("rules/notifications.yaml", "at: \"09:00\"", "at: 09:00 + 1m * (1 / ((steps.today ?? 0) - (steps.today ?? 0)))")
        ])
        let result = try morning(failing)
        let problems = evaluationProblems(result)
        #expect(problems.contains { $0.hasPrefix("rules/notifications.yaml:14: ") && $0.contains("could not be evaluated") }, "\(problems)")
        #expect(!result.records.contains { if case .notificationScheduled(let n) = $0.kind { n.type == "morning_checkin" } else { false } })
    }
}
