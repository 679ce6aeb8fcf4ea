import Foundation
import RulesExpression
import Ruleset

extension OperatorEngine {
    /// The decisions of an app run (SPEC §5.1): risk, then route, with `now` = the run's
    /// time; recovery items and the quest; the snapshot and the lines; the notification plan.
    /// `routeRequested`: the run's event started a route (a user's request).
    mutating func decide(at time: Date, routeRequested: Bool = false) {
        // The day is moved out while the run decides (nothing in between reads `self.day`)
        // and put back: a copy retained every array it holds, and the first change of one
        // of them copied that array too. The local day lives in a scope that ends where it
        // is put back: put back with the run going on, it was copied and the copy destroyed
        // at the run's end.
        var reading: DayReading
        let event: String
        let today: Int
        do {
            guard var current = day.take() else { return }
            (reading, event, today) = decideDay(&current, at: time, routeRequested: routeRequested)
            day = current
        }

        // Patched (the reading's array is shared with the decisions kept for explanations):
        // with `risk` and `event` patched, a candidate's `now` still fits without a copy.
        if let index = EnumCells.eventIndex(event), let cell = EnumCells.eventCells[index] {
            reading.facts.patch(layout.event, cell: cell)
        } else {
            reading.facts.patch(layout.event, .string(event))
        }
        memos.reading = KeptReading(day: today, profile: profileBox, permissions: lastPermissions, reading: reading)
        saveSnapshot(reading, event: event, at: time)
        plan(at: time, today: reading)
    }

    /// The part of an app run that changes the day: risk, route, items and the quest, the
    /// completions earned and the run's event; returns the reading with the route in force.
    private mutating func decideDay(_ current: inout DayState, at time: Date, routeRequested: Bool) -> (DayReading, String, Int) {
        let now = clock.timeOfDay(time, inLogicalDay: current.day, dayStart: dayStart)
        let before = reader.read(current, route: current.route.route, risk: current.risk ?? .low, now: now)
        for message in before.problems { problem(at: time, .evaluation, message) }
        // Routines done at the previous run: a routine done now and not then was completed
        // by this run's event.
        let completedBefore = current.completedRoutines
        // What this run's event earned under the route in force when it happened is kept
        // before the route is decided: a completion reached in the run that turns light →
        // recovery stays (the route never takes back what was done).
        current.earn(before.routines, prepared)

        // What the reading read of the route: its kind (the goals), its items and the quest.
        let (routeRead, itemsRead, questRead) = (current.route.route, current.route.items, current.quest)
        let risk = decideRisk(&current, facts: before.facts, at: time)
        // Patched, not put: a put would copy the whole (shared) array of facts.
        var facts = before.facts
        facts.patch(layout.risk, cell: risk.cell)
        let start = decideRoute(&current, facts: facts, at: time)
        updateRouteItems(&current, at: time)
        RecoveryRoute.keepTexts(&current, prepared)

        // The reading with the route in force: unless the route's kind, its items or the quest
        // changed, the first reading stands with the new risk — as on the day's first run,
        // whose table starts the `regular` route the day was read with (a reading reads
        // neither the route's reason nor its start).
        var reading: DayReading
        let sameReading = current.route.route == routeRead && current.route.items == itemsRead && current.quest == questRead
        if sameReading {
            reading = before
            reading.facts.patch(layout.risk, cell: risk.cell)
        } else {
            reading = reader.read(current, route: current.route.route, risk: risk, now: now)
        }
        let event = appEvent(&current, reading: reading, completedBefore: completedBefore, routeChanged: routeRequested || start == .announced)
        // Under the same route and items the routines read as before, which were earned
        // above (and `appEvent` keeps exactly the completed ones): only a new reading earns.
        if !sameReading { current.earn(reading.routines, prepared) }
        current.lastRun = time
        current.lastEvent = event
        return (reading, event, current.day)
    }

    /// The notification plan of this run (`NotificationPlanner`), applied: the requests iOS
    /// holds, the refusals, the plan's records and what the next plan may keep.
    private mutating func plan(at time: Date, today reading: DayReading) {
        guard let today = planDay else { return }
        // The memos and the requests are swapped into the plan's input and its results
        // swapped back, not copied: a kept array would be copied when the planner adds to it,
        // and each field copied out of the plan was retained and the plan then destroyed.
        var input = PlanInput(today: today, reading: reading, pending: [], refused: [], delivered: delivered, time: time, memos: PlanMemos())
        swap(&input.memos, &memos.planning)
        swap(&input.pending, &pending)
        swap(&input.refused, &refused)
        var plan = planner.plan(input)
        records += plan.records
        swap(&pending, &plan.pending)
        swap(&refused, &plan.refused)
        if let planned = plan.planned { decisions.planned = planned }
        swap(&memos.planning, &plan.memos)
    }

    /// The run's `event` fact (`recovery_completed`, `route_changed`, `completed` or `home`),
    /// with the day's completed routines and recovery state brought up to date.
    private mutating func appEvent(_ current: inout DayState, reading: DayReading, completedBefore: [String], routeChanged: Bool) -> String {
        // The routines completed now (ruleset order), compared with those of the last run in
        // place: a new array only when they differ. Only an enabled routine's completion is
        // the user's (`completed`): a disabled sleep routine met by last night's sleep is not.
        var sameCompleted = true
        var newlyCompleted = false
        var position = 0
        for routine in reading.routines where routine.status == .completed {
            let id = prepared.routine(of: routine).value.id
            if position >= completedBefore.count || completedBefore[position] != id { sameCompleted = false }
            if !sameCompleted, !newlyCompleted, routine.enabled, !completedBefore.contains(id) { newlyCompleted = true }
            position += 1
        }
        if position != completedBefore.count { sameCompleted = false }
        let recoveryDone = RecoveryRoute.completed(current)
        var event = "home"
        if recoveryDone, !current.recoveryWasCompleted {
            event = "recovery_completed"
        } else if routeChanged {
            event = "route_changed"
        } else if newlyCompleted {
            event = "completed"
        }
        current.recoveryWasCompleted = recoveryDone
        // A completion is kept whatever route follows (read() keeps it completed).
        if !sameCompleted {
            current.completedRoutines = reading.routines.filter { $0.status == .completed }.map { prepared.routine(of: $0).value.id }
        }
        return event
    }
}

/// An app run's reading, kept for the day's close: until the next app run the day changes
/// only by deliveries (`notifications.sent_today`), so the close — which reads the day as
/// of the last run — takes this reading with `event` back to `home` and the deliveries
/// counted anew, unless what a reading reads of the profile or the known permissions
/// changed since.
struct KeptReading {
    var day: Int
    /// What the profile gave the reading (compared at the close by what a reading reads of
    /// it, `ProfileBox.readsSame`: nothing bumped by hand). The box, not a copy of the profile:
    /// a copy was made at every app run, and the next change of an ignore count then copied
    /// the profile's dictionaries it shared.
    var profile: ProfileBox
    var permissions: KnownPermissions
    var reading: DayReading
}

extension OperatorEngine {
    /// The recovery route as it stands for this user.
    var recoveryRoute: RecoveryRoute { RecoveryRoute(prepared: prepared, enabled: profile.enabledRoutines) }

    /// Brings the route's items and quest up to date (`RecoveryRoute.updateItems`), each
    /// item done recorded.
    mutating func updateRouteItems(_ day: inout DayState, at time: Date) {
        let update = recoveryRoute.updateItems(&day)
        for item in update.done { note(at: time, .routeItemDone(item)) }
    }
}

extension OperatorEngine {
    /// The route tables as they stand for this user (their day start).
    var routeTables: RouteTables { RouteTables(ruleset, dayStart: dayStart) }

    /// The risk of this run (`RouteTables.decideRisk`), its change recorded.
    mutating func decideRisk(_ current: inout DayState, facts: FactValues, at time: Date) -> RiskLevel {
        let decision = routeTables.decideRisk(kept: current.risk, skipped: current.skipped, facts: facts, at: time, explains: explains)
        for message in decision.problems { problem(at: time, .evaluation, message) }
        if explains, let explanation = decision.explanation { decisions.risk = explanation }
        if decision.level != current.risk {
            note(at: time, .riskChanged(from: current.risk, to: decision.level))
            current.risk = decision.level
        }
        return decision.level
    }

    /// The route of this run (`RouteTables.decideRoute`), started when it changes.
    mutating func decideRoute(_ current: inout DayState, facts: FactValues, at time: Date) -> RouteStart? {
        let decision = routeTables.decideRoute(
            current.route, decided: current.routeDecided, skipped: current.skipped, facts: facts, at: time, explains: explains)
        for message in decision.problems { problem(at: time, .evaluation, message) }
        if explains { decisions.route = decision.explanation }
        guard let (route, reason) = decision.chosen, !current.routeDecided || route != current.route.route else { return nil }
        return startRoute(&current, route, reason: reason, at: time)
    }

    /// The one way a route starts, the table's or the user's: a fresh route state from `time`,
    /// on the recovery route its items and walking quest (`RecoveryRoute`; the table's other
    /// routes leave the quest as it is, the user's light route ends it), and the
    /// `route.changed` record.
    mutating func startRoute(
        _ current: inout DayState, _ route: RouteKind, reason: String, at time: Date, requestedByUser: Bool = false
    )
        -> RouteStart
    {
        let from = current.routeDecided ? current.route.route : nil
        current.route = RouteState(
            route: route, reason: reason, startedAt: time, requestedByUser: requestedByUser, items: [], logsBefore: current.nextLogNumber - 1)
        if route == .recovery {
            var leftOut: [RouteItemLeftOut] = []
            current.route.items = recoveryRoute.startItems(current, leftOut: &leftOut)
            for item in leftOut { note(at: time, .routeItemLeftOut(item)) }
            current.quest = recoveryRoute.startQuest(current)
        } else if requestedByUser {
            current.quest = nil
        }
        current.routeDecided = true
        records.append(EngineRecord(at: time, kind: .routeChanged(from: from, to: route, reason: reason)))
        return from != nil || route != .regular ? .announced : .first
    }
}
