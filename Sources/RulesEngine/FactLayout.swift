import RulesExpression
import Ruleset

/// Slots of every fact the engine fills, looked up once per ruleset so that building the
/// facts of an app run does no string hashing.
struct FactLayout: Sendable {
    let count: Int
    let now, today, weekday: Int?
    let stepsToday, stepsYesterday, stepsAverage7, stepsGoal: Int?
    let sleepMinutes, sleepStart, sleepEnd: Int?
    let healthSteps, healthSleep, healthSyncedAt: Int?
    let waterML, waterGoal: Int?
    let completed, total, completionRate, route, risk: Int?
    let recoveryCompleted, recoveryItemsText, recoveryRemainingText, recoveryItemCount: Int?
    let questStart, questTarget, questClear, questCurrent, questRemaining, questProgress: Int?
    let sentToday, streakDays, event: Int?
    /// Per routine (in ruleset order): `routines.<id>.*`.
    let routines: [RoutineSlots]
    /// Per setting (in ruleset order).
    let settings: [Int?]
    /// Per notification type (in ruleset order): `notifications.<id>.ignored_streak`.
    let ignoredStreaks: [Int?]
    /// Bindings of a judgement entry and of a per-routine notification.
    let progress, value, goal: Int?
    /// `routine.*` of a per-routine notification.
    let routineBinding: RoutineSlots
    let routineID, routineReminder: Int?

    /// `schema`: the ruleset's schema with every binding (`Ruleset.perRoutineSchema`).
    init(ruleset: Ruleset, schema: FactSchema) {
        func slot(_ name: String) -> Int? { schema.fact(named: name)?.slot }
        func slot(_ fact: BuiltInFact) -> Int? { slot(fact.name) }
        count = schema.slotCount
        now = slot(.now)
        today = slot(.today)
        weekday = slot(.weekday)
        stepsToday = slot(.stepsToday)
        stepsYesterday = slot(.stepsYesterday)
        stepsAverage7 = slot(.stepsAverage7)
        stepsGoal = slot(.stepsGoal)
        sleepMinutes = slot(.sleepMinutes)
        sleepStart = slot(.sleepStart)
        sleepEnd = slot(.sleepEnd)
        healthSteps = slot(.healthSteps)
        healthSleep = slot(.healthSleep)
        healthSyncedAt = slot(.healthSyncedAt)
        waterML = slot(.waterML)
        waterGoal = slot(.waterGoal)
        completed = slot(.completed)
        total = slot(.total)
        completionRate = slot(.completionRate)
        route = slot(.route)
        risk = slot(.risk)
        recoveryCompleted = slot(.recoveryCompleted)
        recoveryItemsText = slot(.recoveryItemsText)
        recoveryRemainingText = slot(.recoveryRemainingText)
        recoveryItemCount = slot(.recoveryItemCount)
        questStart = slot(.questStart)
        questTarget = slot(.questTarget)
        questClear = slot(.questClear)
        questCurrent = slot(.questCurrent)
        questRemaining = slot(.questRemaining)
        questProgress = slot(.questProgress)
        sentToday = slot(.sentToday)
        streakDays = slot(.streakDays)
        event = slot(.event)
        routines = ruleset.routines.map { routine in RoutineSlots { slot("routines.\(routine.id).\($0)") } }
        settings = ruleset.settings.map { slot("settings.\($0.key)") }
        ignoredStreaks = ruleset.notifications.map { slot("notifications.\($0.id).ignored_streak") }
        progress = slot("progress")
        value = slot("value")
        goal = slot("goal")
        routineBinding = RoutineSlots { slot("routine.\($0)") }
        routineID = slot("routine.id")
        routineReminder = slot("routine.reminder")
    }
}

/// The slots of one routine's facts (`routines.<id>.*`, or the `routine.*` binding).
struct RoutineSlots: Sendable {
    let name, value, goal, progress, status, enabled, core: Int?

    /// Looks each field up by its name (`name`, `value`, … as the fact schema spells them).
    init(_ slot: (String) -> Int?) {
        name = slot("name")
        value = slot("value")
        goal = slot("goal")
        progress = slot("progress")
        status = slot("status")
        enabled = slot("enabled")
        core = slot("core")
    }

    /// Writes a routine's reading into these slots (fresh cells or a reading's facts);
    /// generic over where the facts go, so that each use is specialized.
    /// Writes what a reading of the routine found: value, goal, progress, status.
    @inline(__always)
    func putReading<Sink: FactSink>(_ reading: RoutineReading, into sink: inout Sink) {
        sink.put(value, cell: .number(reading.value))
        sink.put(goal, cell: .number(reading.goal))
        sink.put(progress, cell: .number(reading.progress))
        sink.put(status, cell: reading.status.cell)
    }

    @inline(__always)
    func put<Sink: FactSink>(_ reading: RoutineReading, of box: RoutineBox, into sink: inout Sink) {
        if let cell = box.nameCell { sink.put(name, cell: cell) } else { sink.put(name, .string(box.value.name)) }
        sink.put(value, cell: .number(reading.value))
        sink.put(goal, cell: .number(reading.goal))
        sink.put(progress, cell: .number(reading.progress))
        sink.put(status, cell: reading.status.cell)
        sink.put(enabled, cell: .bool(reading.enabled))
        sink.put(core, cell: .bool(reading.core))
    }
}

/// Where facts are written: fresh cells in place (`FactBuilder`) or a reading's facts.
protocol FactSink {
    mutating func put(_ slot: Int?, _ value: Value)
    mutating func put(_ slot: Int?, cell: FactCell)
}

extension FactValues: FactSink {
    /// Sets a slot when the layout has it.
    mutating func put(_ slot: Int?, _ value: Value) {
        if let slot { self[slot] = value }
    }

    /// Sets a slot when the layout has it, to a ready cell.
    mutating func put(_ slot: Int?, cell: FactCell) {
        if let slot { put(slot, cell: cell) }
    }

    /// Overrides a slot the layout has without copying shared cells (see `patch`).
    mutating func patch(_ slot: Int?, _ value: Value) {
        if let slot { patch(slot, value) }
    }

    mutating func patch(_ slot: Int?, cell: FactCell) {
        if let slot { patch(slot, cell: cell) }
    }
}
