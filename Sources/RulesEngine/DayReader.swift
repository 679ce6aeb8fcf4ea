import Foundation
import RulesExpression
import Ruleset

/// Reading the day: each routine's value against the goals of a route, its status (the
/// judgement table's, `Judgement.judgeAll`), the completion counts and every fact
/// expressions read, as a `DayReading`.
///
/// A part with its own inputs — the prepared ruleset, what the profile gives every reading
/// (the routines on, the profile's cells: settings, ignore counts, names), the day start and
/// the permissions last known — and one output; a test builds one without an engine.
struct DayReader {
    let prepared: PreparedRuleset
    /// What the profile gives every reading: whether each routine is on, the cells every
    /// reading starts from and the settings boxed for them, the day start.
    let profile: ProfileBox
    /// Permissions as last known (before any sync today: from the last sync of any day).
    let permissions: KnownPermissions

    init(prepared: PreparedRuleset, profile: ProfileBox, permissions: KnownPermissions) {
        self.prepared = prepared
        self.profile = profile
        self.permissions = permissions
    }

    var enabled: [Bool] { profile.value.enabled }
    var baseCells: [FactCell] { profile.value.baseCells }
    var boxedSettings: [Value] { profile.value.boxedSettings }
    var dayStart: Int { profile.value.dayStart }

    /// A reader for `profile` (the ruleset's defaults when nil), without an engine.
    init(prepared: PreparedRuleset, profile: OperatorProfile? = nil, permissions: KnownPermissions = KnownPermissions()) {
        let profile = profile ?? OperatorProfile(ruleset: prepared.ruleset)
        self.init(
            prepared: prepared,
            profile: ProfileBox(profile, prepared),
            permissions: permissions)
    }

    var layout: FactLayout { prepared.layout }
    var derived: RulesetDerived { prepared.derived }
    var judgement: Judgement { Judgement(prepared: prepared, dayStart: dayStart) }

    /// Reads the day at `now` (seconds since midnight) with the goals of `route`.
    func read(_ day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String = "home") -> DayReading {
        // The readings are made inside the reading (a local array, moved in, was still
        // referenced when the statuses were written: the first write copied it).
        var reading = DayReading(routines: [], completed: 0, total: 0, facts: FactValues(count: 0))
        reading.routines.reserveCapacity(prepared.routineBoxes.count)
        let goals = prepared.goals
        for (index, box) in prepared.routineBoxes.enumerated() {
            // Fields read through the box: a routine copied out of it costs a retain per field.
            let value = Goals.value(of: box, in: day)
            let goal = goals.goal(of: box, on: route, in: day)
            let progress = goal > 0 ? Swift.min(1, Swift.max(0, value / goal)) : (value > 0 ? 1 : 0)
            let provisional: RoutineStatus = progress >= 1 ? .completed : value > 0 ? .inProgress : .notStarted
            reading.routines.append(
                RoutineReading(
                    index: index, core: box.value.core, enabled: index < enabled.count && enabled[index], value: value, goal: goal,
                    progress: progress, status: provisional))
        }
        if derived.judgementReadsOnlyBindings {
            // The table reads nothing but each routine's bindings (the shipped one): the
            // statuses need no facts, and the facts are filled once, with them.
            var context = EvaluationContext(facts: FactValues(count: 0), dayStart: dayStart)
            judgement.judgeAll(&reading, day: day, context: &context, byBindings: true)
            countCompletion(&reading)
            fillFacts(&reading, day: day, route: route, risk: risk, now: now, event: event)
            return reading
        }
        countCompletion(&reading)
        fillFacts(&reading, day: day, route: route, risk: risk, now: now, event: event)
        // Statuses by the judgement table, then facts again with the judged statuses.
        // The facts move into the context (no copy) for the bindings, and back.
        var context = EvaluationContext(facts: reading.facts, dayStart: dayStart)
        reading.facts = FactValues(count: 0)
        judgement.judgeAll(&reading, day: day, context: &context, byBindings: false)
        // Moved back (swapped, not copied): a copy left in the context would make the next
        // write copy the whole array. The bindings were patches: dropped with them.
        swap(&reading.facts, &context.facts)
        reading.facts.removePatches()
        countCompletion(&reading)
        // Only the judged facts changed: statuses and the counts made from them.
        // (Nothing of `self` in the closure: a capture of the engine copied all of it.)
        let routines = reading.routines
        let counts = (completed: reading.completed, total: reading.total, rate: reading.rate)
        let countSlots = (completed: layout.completed, total: layout.total, rate: layout.completionRate)
        let routineSlots = layout.routines
        reading.facts.update { facts in
            facts.put(countSlots.completed, cell: .int(counts.completed))
            facts.put(countSlots.total, cell: .int(counts.total))
            facts.put(countSlots.rate, cell: .number(counts.rate))
            for (index, routine) in routines.enumerated() where index < routineSlots.count {
                facts.put(routineSlots[index].status, cell: routine.status.cell)
            }
        }
        return reading
    }

    private func countCompletion(_ reading: inout DayReading) {
        var total = 0
        var completed = 0
        for routine in reading.routines where routine.enabled && routine.core {
            total += 1
            if routine.status == .completed { completed += 1 }
        }
        reading.total = total
        reading.completed = completed
    }

    /// Fills every fact of SPEC §3 from the day, the profile and the reading.
    func fillFacts(_ reading: inout DayReading, day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String) {
        // Written straight into fresh cells: one allocation, no uniqueness check per fact.
        // The profile's cells (settings, ignore counts, routine names) come first, copied.
        // The closure reads the routines and counts, not the reading being written: capturing
        // that copied it (a retain of each array) and destroyed the copy, twice a reading; a
        // reading made for the closure still held (and destroyed) four references.
        let judged = JudgedRoutines(routines: reading.routines, completed: reading.completed, total: reading.total, rate: reading.rate)
        reading.facts = FactValues(base: baseCells, sharing: boxedSettings) { builder in
            fill(&builder, judged, day: day, route: route, risk: risk, now: now, event: event)
        }
    }

    private func fill(
        _ facts: inout FactBuilder, _ reading: JudgedRoutines, day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String
    ) {
        facts.put(layout.now, cell: .time(now))
        facts.put(layout.today, cell: .date(day.day))
        facts.put(layout.weekday, cell: EnumCells.weekday(day.day))
        fillHealth(&facts, reading, day: day)
        facts.put(layout.waterML, cell: .int(Int(saturating: Self.value(reading, derived.waterRoutine))))
        facts.put(layout.waterGoal, cell: .int(Int(saturating: Self.goal(reading, derived.waterRoutine))))
        facts.put(layout.completed, cell: .int(reading.completed))
        facts.put(layout.total, cell: .int(reading.total))
        facts.put(layout.completionRate, cell: .number(reading.rate))
        facts.put(layout.route, cell: route.cell)
        facts.put(layout.risk, cell: risk.cell)
        facts.put(layout.recoveryCompleted, cell: .bool(RecoveryRoute.completed(day)))
        // No item left: unknown, so no template renders an empty list. Before the route
        // starts, the declared items (shared by every reading); after, the texts of the
        // day's items (made again only when the items change).
        // (The declared items are among the profile's cells.)
        if !day.route.items.isEmpty || day.route.route == .recovery {
            let texts = RecoveryRoute.texts(day, prepared)
            facts.put(layout.recoveryItemsText, cell: .unknown)
            if !texts.items.isEmpty { facts.put(layout.recoveryItemsText, .string(texts.items)) }
            if !texts.remaining.isEmpty { facts.put(layout.recoveryRemainingText, .string(texts.remaining)) }
        }
        facts.put(layout.recoveryItemCount, cell: .int(day.route.items.isEmpty ? derived.plannedRecoveryCount : day.route.items.count))
        if let quest = day.quest {
            facts.put(layout.questStart, cell: .int(quest.startSteps))
            facts.put(layout.questTarget, cell: .int(quest.targetDelta))
            facts.put(layout.questClear, cell: .int(quest.clearSteps))
            facts.put(layout.questCurrent, cell: .int(quest.currentSteps))
            facts.put(layout.questRemaining, cell: .int(quest.remainingSteps))
            facts.put(layout.questProgress, cell: .number(quest.progress))
        }
        facts.put(layout.sentToday, cell: .int(day.deliveries.count))

        EnumCells.put(event: event, layout.event, into: &facts)
        // By index, with the routine's box read only for a name that is no cell. (Names,
        // enabled and core are among the profile's cells.)
        for index in reading.routines.indices where index < layout.routines.count {
            layout.routines[index].putReading(reading.routines[index], into: &facts)
            let box = prepared.routine(of: reading.routines[index])
            if box.nameCell == nil { facts.put(layout.routines[index].name, .string(box.value.name)) }
        }
    }

    /// The steps, sleep and permission facts: HealthKit's when granted, else the routines'
    /// own values (steps and sleep logged by hand).
    private func fillHealth(_ facts: inout FactBuilder, _ reading: JudgedRoutines, day: DayState) {
        let health = day.health
        let stepsGranted = health?.stepsPermission == .granted
        facts.put(
            layout.stepsToday, cell: .int(stepsGranted ? health?.stepsToday ?? 0 : Int(saturating: Self.value(reading, derived.stepsRoutine))))
        facts.put(layout.stepsYesterday, cell: .int(stepsGranted ? health?.stepsYesterday ?? 0 : 0))
        facts.put(layout.stepsAverage7, cell: .int(stepsGranted ? health?.stepsAverage7 ?? 0 : 0))
        facts.put(layout.stepsGoal, cell: .int(Int(saturating: Self.goal(reading, derived.stepsRoutine))))
        let sleepGranted = health?.sleepPermission == .granted
        var sleepMinutes: Int? = sleepGranted ? health?.sleepMinutes : nil
        // Sleep logged by hand counts only without permission: granted, HealthKit is the truth
        // (no night recorded stays unknown), as for steps.
        if !sleepGranted, derived.sleepRoutine != nil, Self.value(reading, derived.sleepRoutine) > 0 {
            sleepMinutes = Int(saturating: Self.value(reading, derived.sleepRoutine))
        }
        facts.put(layout.sleepMinutes, cell: sleepMinutes.map(FactCell.int) ?? .unknown)
        facts.put(layout.sleepStart, cell: (sleepGranted ? health?.sleepStart : nil).map(FactCell.time) ?? .unknown)
        facts.put(layout.sleepEnd, cell: (sleepGranted ? health?.sleepEnd : nil).map(FactCell.time) ?? .unknown)
        facts.put(layout.healthSteps, cell: (health?.stepsPermission ?? permissions.steps).cell)
        facts.put(layout.healthSleep, cell: (health?.sleepPermission ?? permissions.sleep).cell)
        facts.put(layout.healthSyncedAt, cell: day.syncedAt.map(FactCell.time) ?? .unknown)
    }

    /// The value and goal of a routine by index, 0 without the routine.
    private static func value(_ reading: JudgedRoutines, _ index: Int?) -> Double {
        guard let index, index >= 0, index < reading.routines.count else { return 0 }
        return reading.routines[index].value
    }

    private static func goal(_ reading: JudgedRoutines, _ index: Int?) -> Double {
        guard let index, index >= 0, index < reading.routines.count else { return 0 }
        return reading.routines[index].goal
    }
}

/// What filling the facts reads of a reading: its routines (judged) and their counts.
private struct JudgedRoutines {
    var routines: [RoutineReading]
    var completed: Int
    var total: Int
    var rate: Double
}
