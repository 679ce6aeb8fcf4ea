import Foundation
import RulesExpression
import Ruleset

extension OperatorEngine {
    /// The decisions of an app run (SPEC §5.1): risk, then route, with `now` = the run's
    /// time; recovery items and the quest; the snapshot and the lines; the notification plan.
    mutating func decide(at time: Date) {
        guard var current = day else { return }
        let now = clock.local(time).seconds
        let before = read(current, route: current.route.route, risk: current.risk ?? .low, now: now)
        // Routines done at the previous run: a routine done now and not then was completed
        // by this run's event.
        let completedBefore = current.completedRoutines

        // Risk, with the goals of the route in force (a skipped day keeps what it had).
        let risk: RiskLevel
        if current.skipped, let kept = current.risk {
            risk = kept
        } else {
            let (riskIndex, riskExplanation) = firstMatch(
                ruleset.risk.map { ($0.level.rawValue, $0.when, $0.origin) }, facts: before.facts, decision: "risk", at: time,
                fallback: RiskLevel.low.rawValue)
            risk = riskIndex.map { ruleset.risk[$0].level } ?? .low
            decisionExplanations["risk"] = riskExplanation
        }
        if risk != current.risk {
            records.append(EngineRecord(at: time, kind: .riskChanged(from: current.risk, to: risk)))
            current.risk = risk
        }

        // Route: user requests and sticky routes stay; otherwise the table decides.
        var facts = before.facts
        facts.put(layout.risk, .string(risk.rawValue))
        if current.skipped, current.routeDecided {
            decisionExplanations["route"] = Explanation(
                decision: "route", outcome: current.route.route.rawValue, at: time, entries: [], facts: [],
                note: "the user skipped today: the route in force stays")
        } else if current.route.requestedByUser {
            decisionExplanations["route"]?.at = time
        } else if current.routeDecided, ruleset.sticky.contains(current.route.route) {
            decisionExplanations["route"] = Explanation(
                decision: "route", outcome: current.route.route.rawValue, at: time, entries: [], facts: [],
                note: "'\(current.route.route.rawValue)' is sticky: once entered it stays for the rest of the day")
        } else {
            let (routeIndex, routeExplanation) = firstMatch(
                ruleset.route.map { ($0.route.rawValue, $0.when, $0.origin) }, facts: facts, decision: "route", at: time,
                fallback: RouteKind.regular.rawValue)
            decisionExplanations["route"] = routeExplanation
            let route = routeIndex.map { ruleset.route[$0].route } ?? .regular
            let reason = routeIndex.map { ruleset.route[$0].reason } ?? "default"
            if !current.routeDecided || route != current.route.route {
                let from = current.routeDecided ? current.route.route : nil
                current.route = RouteState(
                    route: route, reason: reason, startedAt: time, requestedByUser: false, items: [], logsBefore: current.nextLogNumber - 1)
                if route == .recovery {
                    current.route.items = startRecoveryItems(current, at: time)
                    current.quest = startQuest(current)
                }
                current.routeDecided = true
                records.append(EngineRecord(at: time, kind: .routeChanged(from: from, to: route, reason: reason)))
                if from != nil || route != .regular { routeChangedThisRun = true }
            }
        }
        let routeBefore = day?.route
        let questBefore = day?.quest
        updateRouteItems(&current, at: time)

        // The reading with the route in force: unless the route or its items changed, the
        // first reading stands with the new risk.
        var reading: DayReading
        if current.route == routeBefore, current.quest == questBefore {
            reading = before
            reading.facts.put(layout.risk, .string(risk.rawValue))
        } else {
            reading = read(current, route: current.route.route, risk: risk, now: now)
        }
        let completedAfter = reading.routines.filter { $0.status == .completed }.map(\.routine.id)
        let recoveryDone = recoveryCompleted(current)
        var event = "home"
        if recoveryDone, !current.recoveryWasCompleted {
            event = "recovery_completed"
        } else if routeChangedThisRun {
            event = "route_changed"
        } else if completedAfter.contains(where: { !completedBefore.contains($0) }) {
            event = "completed"
        }
        current.recoveryWasCompleted = recoveryDone
        // A completion is kept whatever route follows (read() keeps it completed).
        current.completedRoutines = completedAfter
        current.lastRun = time
        routeChangedThisRun = false
        day = current

        reading.facts.put(layout.event, .string(event))
        day?.lastEvent = event
        lastFacts = reading.facts
        saveSnapshot(reading, event: event, at: time)
        plan(at: time, today: reading)
    }

    /// Recovery items at the route's start (SPEC §5.3): items of routines not enabled,
    /// `delta` items without steps permission, and checklist items already ticked are left
    /// out; at most `max_items`.
    func startRecoveryItems(_ day: DayState, at time: Date) -> [RouteItemState] {
        guard let recovery = ruleset.recovery else { return [] }
        var items: [RouteItemState] = []
        for item in recovery.items where items.count < recovery.maxItems {
            guard profile.enabledRoutines.contains(item.routine) else { continue }
            var baseline = 0
            switch item.requirement {
            case .delta:
                guard day.health?.stepsPermission == .granted else { continue }
                baseline = day.health?.stepsToday ?? 0
            case .item(let name):
                if day.ticked(item.routine).contains(name) { continue }
            case .target:
                break
            }
            items.append(
                RouteItemState(
                    id: "route_item_\(String(format: "%03d", items.count + 1))", routine: item.routine, requirement: item.requirement,
                    baseline: baseline, status: .notStarted))
        }
        return items
    }

    /// The walking quest of the route's first `delta` item (seed 5.5).
    func startQuest(_ day: DayState) -> WalkingQuest? {
        guard let steps = day.health?.stepsToday, day.health?.stepsPermission == .granted else { return nil }
        for item in day.route.items {
            if case .delta(let delta) = item.requirement {
                return WalkingQuest(startSteps: item.baseline, targetDelta: delta, currentSteps: steps)
            }
        }
        return startRecoveryItems(day, at: .distantPast).compactMap { item -> WalkingQuest? in
            if case .delta(let delta) = item.requirement { return WalkingQuest(startSteps: steps, targetDelta: delta, currentSteps: steps) }
            return nil
        }.first
    }

    /// Route items count only what happens after the route started.
    mutating func updateRouteItems(_ day: inout DayState, at time: Date) {
        guard let start = day.route.startedAt else { return }
        if var quest = day.quest, let steps = day.health?.stepsToday {
            quest.currentSteps = steps
            day.quest = quest
        }
        for index in day.route.items.indices {
            let item = day.route.items[index]
            let status: RoutineStatus
            switch item.requirement {
            case .target(let amount):
                let logged = day.logged(item.routine, after: day.route.logsBefore)
                status = logged >= amount ? .completed : logged > 0 ? .inProgress : .notStarted
            case .item(let name):
                status = day.ticks.contains { $0.routine == item.routine && $0.item == name && $0.at > start } ? .completed : .notStarted
            case .delta(let delta):
                let steps = day.health?.stepsToday ?? item.baseline
                status = steps - item.baseline >= delta ? .completed : steps > item.baseline ? .inProgress : .notStarted
            }
            if status != item.status {
                day.route.items[index].status = status
                if status == .completed { records.append(EngineRecord(at: time, kind: .routeItemDone(day.route.items[index]))) }
            }
        }
    }

    /// Closes the current day at `time` (the next `day_starts_at`): judged from what the app
    /// knew at its last run; streak and XP carry on. A fresh day opens for the device's
    /// deliveries.
    mutating func closeDay(at time: Date) {
        guard let current = day else { return }
        let lastSeconds = current.lastRun.map { clock.local($0).seconds } ?? profile.dayStart(ruleset)
        let reading = read(current, route: current.route.route, risk: current.risk ?? .low, now: lastSeconds)
        var statuses: [String: RoutineStatus] = [:]
        var completed = 0
        var partial = 0
        var context = EvaluationContext(facts: reading.facts, dayStart: profile.dayStart(ruleset))
        for routine in reading.routines where routine.enabled {
            let status =
                current.completedRoutines.contains(routine.routine.id)
                ? .completed : judgeRoutine(routine, context: &context, closing: true, skipped: current.skipped)
            statuses[routine.routine.id] = status
            if status == .completed { completed += 1 }
            if status == .partial { partial += 1 }
        }
        var result = DayResult.failed
        if current.skipped {
            result = .skipped
        } else {
            let (index, explanation) = firstMatch(
                (ruleset.judgement?.day ?? []).map { ($0.result.rawValue, $0.when, $0.origin) }, facts: reading.facts,
                decision: "day", at: time, fallback: DayResult.failed.rawValue)
            decisionExplanations["day"] = explanation
            result = index.map { ruleset.judgement?.day[$0].result ?? .failed } ?? .failed
        }
        let xp = ruleset.judgement?.xp ?? ExperiencePoints()
        let gained = completed * xp.completed + partial * xp.partial + (recoveryCompleted(current) ? xp.recoveryCompleted : 0)
        let streakCounts = ruleset.judgement?.streakCounts ?? [.success, .recovered]
        profile.streakDays = streakCounts.contains(result) ? profile.streakDays + 1 : 0
        profile.xp += gained
        let close = DayClose(day: current.day, result: result, streak: profile.streakDays, xpGained: gained, xp: profile.xp, statuses: statuses)
        closedDays.append(close)
        records.append(EngineRecord(at: time, kind: .dayClosed(close)))
        day = DayState(day: current.day + 1)
        delivered = [:]
    }
}
