import Foundation
import RulesExpression
import Ruleset

/// The records a part of the engine made, in the order it made them, as the engine keeps
/// them (`RecordsKept`): the part returns them and the engine appends them to its step's.
struct RecordLog {
    let kept: RecordsKept
    private(set) var records: [EngineRecord] = []

    init(_ kept: RecordsKept) { self.kept = kept }

    /// A record of what a run did that decides nothing: skipped when only decisions are kept.
    @inline(__always)
    mutating func note(at time: Date, _ kind: @autoclosure () -> EngineRecord.Kind) {
        guard kept == .all else { return }
        records.append(EngineRecord(at: time, kind: kind()))
    }

    /// A record of a decision, always kept.
    mutating func append(_ record: EngineRecord) { records.append(record) }

    mutating func problem(at time: Date, _ code: ProblemCode, _ message: String) {
        records.append(EngineRecord(at: time, kind: .problem(code: code, message: message)))
    }
}

/// What an app run decided about the day besides the day itself (`DayDecider.decide`): the
/// reading with the route in force, the run's `event`, its records, and — when explanations
/// are kept — the risk and route tables' readings. The engine applies it.
struct DayOutcome {
    var reading: DayReading
    var event: String
    var log: RecordLog
    /// The risk table's reading; nil when not consulted or not explained (the last one stands).
    var risk: PendingExplanation?
    /// The route table's reading (or why the route was kept); nil when not explained.
    var route: PendingExplanation?
}

/// The part of an app run that changes the day (SPEC §5.1, §5.3): risk, then route with
/// `now` = the run's time, the recovery route's items and quest, the completions earned and
/// the run's `event`. Its inputs are the ruleset, how this user reads the day (profile,
/// permissions, clock, day start) and the day, which it changes; its output is a `DayOutcome`.
struct DayDecider {
    let prepared: PreparedRuleset
    let reader: DayReader
    let tables: RouteTables
    let recovery: RecoveryRoute
    let clock: LocalClock
    let dayStart: Int
    let explains: Bool
    let kept: RecordsKept

    var layout: FactLayout { prepared.layout }

    /// The run at `time` on `current`, changed in place (the engine moves its day out and back:
    /// a copy would retain every array the day holds, and the first change of one copy it;
    /// handed through an outcome it was copied twice more). `routeRequested`: the run's event
    /// started a route (a user's request).
    func decide(_ current: inout DayState, at time: Date, routeRequested: Bool) -> DayOutcome {
        var log = RecordLog(kept)
        let now = clock.timeOfDay(time, inLogicalDay: current.day, dayStart: dayStart)
        let before = reader.read(current, route: current.route.route, risk: current.risk ?? .low, now: now)
        for message in before.problems { log.problem(at: time, .evaluation, message) }
        // Routines done at the previous run: a routine done now and not then was completed
        // by this run's event.
        let completedBefore = current.completedRoutines
        // What this run's event earned under the route in force when it happened is kept
        // before the route is decided: a completion reached in the run that turns light →
        // recovery stays (the route never takes back what was done).
        current.earn(before.routines, prepared)

        // What the reading read of the route: its kind (the goals), its items and the quest.
        let (routeRead, itemsRead, questRead) = (current.route.route, current.route.items, current.quest)
        let riskDecision = tables.decideRisk(kept: current.risk, skipped: current.skipped, facts: before.facts, at: time, explains: explains)
        for message in riskDecision.problems { log.problem(at: time, .evaluation, message) }
        let risk = riskDecision.level
        if risk != current.risk {
            log.note(at: time, .riskChanged(from: current.risk, to: risk))
            current.risk = risk
        }
        // Patched, not put: a put would copy the whole (shared) array of facts.
        var facts = before.facts
        facts.patch(layout.risk, cell: risk.cell)
        let routeDecision = tables.decideRoute(
            current.route, decided: current.routeDecided, skipped: current.skipped, facts: facts, at: time, explains: explains)
        for message in routeDecision.problems { log.problem(at: time, .evaluation, message) }
        var start: RouteStart?
        if let (route, reason) = routeDecision.chosen, !current.routeDecided || route != current.route.route {
            start = Self.startRoute(&current, route, reason: reason, at: time, recovery: recovery, log: &log)
        }
        for item in recovery.updateItems(&current).done { log.note(at: time, .routeItemDone(item)) }
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
        return DayOutcome(
            reading: reading, event: event, log: log, risk: explains ? riskDecision.explanation : nil,
            route: explains ? routeDecision.explanation : nil)
    }

    /// The one way a route starts, the table's or the user's: a fresh route state from `time`,
    /// on the recovery route its items and walking quest (`RecoveryRoute`; the table's other
    /// routes leave the quest as it is, the user's light route ends it), and the
    /// `route.changed` record.
    static func startRoute(
        _ current: inout DayState, _ route: RouteKind, reason: String, at time: Date, requestedByUser: Bool = false, recovery: RecoveryRoute,
        log: inout RecordLog
    ) -> RouteStart {
        let from = current.routeDecided ? current.route.route : nil
        current.route = RouteState(
            route: route, reason: reason, startedAt: time, requestedByUser: requestedByUser, items: [], logsBefore: current.nextLogNumber - 1)
        if route == .recovery {
            var leftOut: [RouteItemLeftOut] = []
            current.route.items = recovery.startItems(current, leftOut: &leftOut)
            for item in leftOut { log.note(at: time, .routeItemLeftOut(item)) }
            current.quest = recovery.startQuest(current)
        } else if requestedByUser {
            current.quest = nil
        }
        current.routeDecided = true
        log.append(EngineRecord(at: time, kind: .routeChanged(from: from, to: route, reason: reason)))
        return from != nil || route != .regular ? .announced : .first
    }

    /// The run's `event` fact (`recovery_completed`, `route_changed`, `completed` or `home`),
    /// with the day's completed routines and recovery state brought up to date.
    private func appEvent(_ current: inout DayState, reading: DayReading, completedBefore: [String], routeChanged: Bool) -> String {
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
