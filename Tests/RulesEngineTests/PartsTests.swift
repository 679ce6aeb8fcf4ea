import Foundation
import RulesExpression
import Ruleset
import Testing

@testable import RulesEngine

/// Each part of the engine is a value with its own inputs and outputs: the route tables,
/// goals, the recovery route, judgement, reconciliation, the ignore rule and the explainer
/// are tested here without running an engine step through them (an engine only reads
/// realistic facts and days for them).
@Suite struct PartsTests {
    static let prepared = PreparedRuleset(Shipped.ruleset)
    static let day = EngineStateTests.day
    static let dayStart = 4 * 3600
    static func at(_ hour: Int, _ minute: Int = 0) -> Date { EngineStateTests.at(hour, minute) }

    /// The facts of `current` read at `hour`:`minute` on `route`.
    static func facts(_ current: DayState = DayState(day: day), at hour: Int, route: RouteKind = .regular) -> FactValues {
        DayReader(prepared: prepared).read(current, route: route, risk: .low, now: hour * 3600).facts
    }

    static func box(_ id: String) throws -> RoutineBox { try #require(prepared.routineBoxes.first { $0.value.id == id }) }

    @Test func theRouteTablesDecideFromFactsAlone() throws {
        let tables = RouteTables(Shipped.ruleset, dayStart: Self.dayStart)
        let fresh = RouteState(route: .regular, reason: "default", startedAt: nil, requestedByUser: false, items: [])
        // Morning of an empty day: low risk, the regular route.
        let morning = Self.facts(at: 8)
        #expect(tables.decideRisk(kept: nil, skipped: false, facts: morning, at: Self.at(8)).level == .low)
        #expect(tables.decideRoute(fresh, decided: false, skipped: false, facts: morning, at: Self.at(8)).chosen?.route == .regular)
        // 21:30 with nothing done: high risk, the recovery route, each with its table's explanation.
        let evening = Self.facts(at: 21)
        let risk = tables.decideRisk(kept: .low, skipped: false, facts: evening, at: Self.at(21))
        #expect(risk.level == .high && risk.problems.isEmpty)
        let route = tables.decideRoute(fresh, decided: true, skipped: false, facts: evening, at: Self.at(21))
        #expect(route.chosen?.route == .recovery)
        let explained = Explainer(Self.prepared).explain(try #require(route.explanation))
        #expect(explained.outcome == "recovery" && explained.entries.last?.result == .matched)
        // Not explaining, the same decisions without their explanations.
        let quiet = tables.decideRoute(fresh, decided: true, skipped: false, facts: evening, at: Self.at(21), explains: false)
        #expect(quiet.chosen?.route == .recovery && quiet.explanation == nil)
        let quietRisk = tables.decideRisk(kept: .low, skipped: false, facts: evening, at: Self.at(21), explains: false)
        #expect(quietRisk.level == .high && quietRisk.explanation == nil)
        // What keeps the route without the table: a skipped day, a request, a sticky route.
        #expect(tables.decideRisk(kept: .medium, skipped: true, facts: evening, at: Self.at(21)).level == .medium)
        var requested = fresh
        requested.route = .light
        requested.requestedByUser = true
        #expect(tables.decideRoute(requested, decided: true, skipped: false, facts: evening, at: Self.at(21)).chosen == nil)
        var sticky = fresh
        sticky.route = .recovery
        let kept = tables.decideRoute(sticky, decided: true, skipped: false, facts: morning, at: Self.at(8))
        #expect(kept.chosen == nil)
        #expect(Explainer(Self.prepared).explain(try #require(kept.explanation)).note?.contains("sticky") == true)
    }

    @Test func goalsScaleOnTheLightRouteAndOverridesWin() throws {
        let goals = Goals(Shipped.ruleset)
        let steps = try Self.box("steps")
        let water = try Self.box("water")
        var current = DayState(day: Self.day)
        #expect(goals.goal(of: steps, on: .regular, in: current) == steps.value.goal)
        #expect(goals.goal(of: steps, on: .light, in: current) == (steps.value.goal * 0.6 + 0.5).rounded(.down))
        // A routine that names its own light goal keeps it.
        #expect(water.value.lightGoal != nil && goals.goal(of: water, on: .light, in: current) == water.value.lightGoal)
        current.goalOverrides["water"] = 700
        #expect(goals.goal(of: water, on: .light, in: current) == 700)
        // Sleep does not scale.
        let sleep = try Self.box("sleep")
        #expect(goals.goal(of: sleep, on: .light, in: DayState(day: Self.day)) == sleep.value.goal)
    }

    /// A checklist's value counts each of its items ticked today once, by the bytes the
    /// ruleset spells it with: not a tick of another routine, an item it does not have or an
    /// item ticked twice (a saved state may hold that) — with few items and with more than a
    /// 64-bit mask holds.
    @Test func aChecklistCountsEachOfItsItemsTickedOnce() throws {
        let skincare = try Self.box("skincare")
        let first = try #require(skincare.value.items.first)
        let last = try #require(skincare.value.items.last)
        func tick(_ routine: String, _ item: String) -> ChecklistTick { ChecklistTick(routine: routine, item: item, at: Self.at(8)) }
        var current = DayState(day: Self.day)
        current.ticks = [
            tick("room", first), tick("skincare", first), tick("skincare", first), tick("skincare", "없는 항목"),
            tick("skincare", first.decomposedStringWithCanonicalMapping),
        ]
        #expect(Goals.value(of: skincare, in: current) == 1)
        current.ticks.append(tick("skincare", last))
        #expect(Goals.value(of: skincare, in: current) == 2)

        var many = skincare.value
        many.items = (0..<70).map { "항목\($0)" }
        let box = RoutineBox(many)
        current.ticks = [tick("skincare", "항목69"), tick("skincare", "항목0"), tick("skincare", "항목69"), tick("room", "항목5")]
        #expect(Goals.value(of: box, in: current) == 2)
        many.items = Array(many.items.prefix(64))
        current.ticks.append(tick("skincare", "항목63"))
        #expect(Goals.value(of: RoutineBox(many), in: current) == 2)
    }

    @Test func theRecoveryRouteStartsItsItemsAndCountsWhatCameAfter() throws {
        var current = DayState(day: Self.day)
        current.health = HealthReading(stepsPermission: .denied, sleepPermission: .granted, stepsToday: nil, stepsAverage7: nil, sleepMinutes: 400)
        // Skincare not enabled, no steps permission: only water is left.
        let route = RecoveryRoute(prepared: Self.prepared, enabled: ["water", "steps"])
        var leftOut: [RouteItemLeftOut] = []
        let items = route.startItems(current, leftOut: &leftOut)
        #expect(items.map(\.routine) == ["water"])
        #expect(items.first?.id == "route_item_001")
        #expect(leftOut.map(\.reason) == [.routineNotEnabled, .noStepsPermission])
        #expect(route.startQuest(current) == nil)
        // A log after the route started completes the water item; the part says so.
        current.route = RouteState(route: .recovery, reason: "x", startedAt: Self.at(21), requestedByUser: false, items: items)
        current.appendLog(
            HabitLog(
                id: "log_20260720_001", day: Self.day, routine: "water", category: .water, value: 300, unit: .ml, source: .manual,
                createdAt: Self.at(21, 10), updatedAt: Self.at(21, 10)))
        let update = route.updateItems(&current)
        #expect(update.changed && update.done.map(\.routine) == ["water"])
        #expect(RecoveryRoute.completed(current))
        #expect(RecoveryRoute.texts(current, Self.prepared).items == "물 300ml")
    }

    @Test func judgementClosesADayFromItsReading() throws {
        let judgement = Judgement(prepared: Self.prepared, dayStart: Self.dayStart)
        let reader = DayReader(prepared: Self.prepared)
        // Nothing done: failed, the streak ends, no XP.
        let empty = DayState(day: Self.day)
        let failed = judgement.close(
            empty, reading: reader.read(empty, route: .regular, risk: .low, now: 22 * 3600), streak: 4, xp: 100, at: Self.at(23))
        #expect(failed.close.result == .failed && failed.close.streak == 0 && failed.close.xp == 100)
        #expect(Explainer(Self.prepared).explain(try #require(failed.explanation)).outcome == "failed")
        // Not explaining, the same close without its explanation.
        let quiet = judgement.close(
            empty, reading: reader.read(empty, route: .regular, risk: .low, now: 22 * 3600), streak: 4, xp: 100, at: Self.at(23), explains: false)
        #expect(quiet.close == failed.close && quiet.explanation == nil)
        // Every enabled routine completed earlier: success, the streak goes on, 10 XP each.
        var done = DayState(day: Self.day)
        let enabled = Shipped.ruleset.routines.filter(\.defaultEnabled).map(\.id)
        done.completedRoutines = Shipped.ruleset.routines.map(\.id).filter(enabled.contains)
        let success = judgement.close(
            done, reading: reader.read(done, route: .regular, risk: .low, now: 22 * 3600), streak: 4, xp: 100, at: Self.at(23))
        #expect(success.close.result == .success && success.close.streak == 5)
        #expect(success.close.xp == 100 + 10 * enabled.count && success.close.routineStatuses.allSatisfy { $0 == .completed })
        // A skipped day is not judged by the table.
        var skipped = DayState(day: Self.day)
        skipped.skipped = true
        let closed = judgement.close(
            skipped, reading: reader.read(skipped, route: .regular, risk: .low, now: 22 * 3600), streak: 4, xp: 0, at: Self.at(23))
        #expect(closed.close.result == .skipped && closed.explanation == nil)
    }

    @Test func theReconcilerReturnsEveryChange() throws {
        let reconciler = Reconciler(ruleset: Shipped.ruleset)
        var current = DayState(day: Self.day)
        current.ticks = [ChecklistTick(routine: "skincare", item: "양치", at: Self.at(8)), ChecklistTick(routine: "gone", item: "x", at: Self.at(8))]
        current.completedRoutines = ["gone", "water"]
        var changes: [Reconciliation] = []
        reconciler.reconcile(&current, changes: &changes)
        #expect(changes == [Reconciliation(subject: .item, id: "gone.x", action: .dropped)])
        #expect(current.ticks.count == 1 && current.completedRoutines == ["water"])
        var profile = OperatorProfile(ruleset: Shipped.ruleset)
        profile.enabledRoutines.insert("gone")
        profile.ignoredStreaks["gone_type"] = 2
        changes = []
        reconciler.reconcile(&profile, fittedAtStart: [], changes: &changes)
        #expect(changes == [Reconciliation(subject: .routine, id: "gone", action: .dropped)])
        #expect(!profile.enabledRoutines.contains("gone") && profile.ignoredStreaks["gone_type"] == nil)
    }

    @Test func aRunOfIgnoresWeakensAtTheThreshold() {
        var run = IgnoreRun(streak: 0, weakenedSince: nil)
        run = run.ignored(today: Self.day, weakenAfter: 3)
        run = run.ignored(today: Self.day, weakenAfter: 3)
        #expect(run == IgnoreRun(streak: 2, weakenedSince: nil))
        run = run.ignored(today: Self.day + 1, weakenAfter: 3)
        #expect(run == IgnoreRun(streak: 3, weakenedSince: Self.day + 1))
        // A later ignore keeps the day it became weakened.
        #expect(run.ignored(today: Self.day + 2, weakenAfter: 3) == IgnoreRun(streak: 4, weakenedSince: Self.day + 1))
        #expect(IgnoreRun.ended == IgnoreRun(streak: 0, weakenedSince: nil))
    }
}
