import Foundation
import RulesExpression
import Ruleset

extension OperatorEngine {
    /// Fills every fact of SPEC §3 from the day, the profile and the reading.
    func fillFacts(_ reading: inout DayReading, day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String) {
        // Written straight into fresh cells: one allocation, no uniqueness check per fact.
        // The profile's cells (settings, ignore counts, routine names) come first, copied.
        reading.facts = FactValues(base: fromProfile.baseCells, sharing: fromProfile.boxedSettings) { builder in
            fill(&builder, reading, day: day, route: route, risk: risk, now: now, event: event)
        }
    }

    private func fill(_ facts: inout FactBuilder, _ reading: DayReading, day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String) {
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
        // By index: a reading copied out of the array retains its routine's box. (Names,
        // enabled and core are among the profile's cells.)
        for index in reading.routines.indices where index < layout.routines.count {
            layout.routines[index].putReading(reading.routines[index], into: &facts)
            if reading.routines[index].box.nameCell == nil { facts.put(layout.routines[index].name, .string(reading.routines[index].box.value.name)) }
        }
    }

    /// The steps, sleep and permission facts: HealthKit's when granted, else the routines'
    /// own values (steps and sleep logged by hand).
    private func fillHealth(_ facts: inout FactBuilder, _ reading: DayReading, day: DayState) {
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
        facts.put(layout.healthSteps, cell: (health?.stepsPermission ?? lastPermissions.steps).cell)
        facts.put(layout.healthSleep, cell: (health?.sleepPermission ?? lastPermissions.sleep).cell)
        facts.put(layout.healthSyncedAt, cell: day.syncedAt.map(FactCell.time) ?? .unknown)
    }

    /// The value and goal of a routine by index (a reading copied out of the array retains
    /// its routine's box), 0 without the routine.
    private static func value(_ reading: DayReading, _ index: Int?) -> Double {
        guard let index, index >= 0, index < reading.routines.count else { return 0 }
        return reading.routines[index].value
    }

    private static func goal(_ reading: DayReading, _ index: Int?) -> Double {
        guard let index, index >= 0, index < reading.routines.count else { return 0 }
        return reading.routines[index].goal
    }
}

extension FactBuilder: FactSink {}

extension SlotValue {
    @inline(__always)
    func write(into facts: inout FactBuilder) {
        if let cell {
            facts.put(slot, cell: cell)
        } else if let boxedIndex {
            facts.put(slot, boxed: boxedIndex)
        } else {
            facts.put(slot, value)
        }
    }
}

/// Cells of the enum facts the engine writes at every reading, made once (an inline
/// string is a copy of its bytes).
enum EnumCells {
    static let statuses = RoutineStatus.allCases.map { cell($0.rawValue) }
    static let routes = RouteKind.allCases.map { cell($0.rawValue) }
    static let risks = RiskLevel.allCases.map { cell($0.rawValue) }
    static let permissions = HealthReading.Permission.allCases.map { cell($0.rawValue) }
    /// Day 0 (1970-01-01) first, as `DateFormat.weekday` counts.
    static let weekdays = (0..<7).map { cell(DateFormat.weekday($0)) }

    /// `event` of a run that answered nothing in particular.
    static let home = cell("home")
    /// The events an app run answers (see `decide`), with their cells (nil: too long for
    /// one, written as a value).
    static let eventNames = ["home", "completed", "route_changed", "recovery_completed"]
    static let eventCells = eventNames.map { FactCell.string($0) }

    /// The place of `event` among `eventNames`.
    static func eventIndex(_ event: String) -> Int? { eventNames.firstIndex(of: event) }

    /// Writes `event` (a cell made once when it is one of the run's events).
    static func put<Sink: FactSink>(event: String, _ slot: Int?, into facts: inout Sink) {
        if let index = eventIndex(event), let cell = eventCells[index] {
            facts.put(slot, cell: cell)
        } else {
            facts.put(slot, .string(event))
        }
    }

    static func weekday(_ day: Int) -> FactCell { weekdays[((day % 7) + 7) % 7] }

    /// Every enum case is short enough for a cell (a test holds this).
    static func cell(_ text: String) -> FactCell { FactCell.string(text) ?? .unknown }
}

// By a switch on the case (`allCases` makes a new array at every call).
extension RoutineStatus {
    var cell: FactCell {
        let index: Int
        switch self {
        case .notStarted: index = 0
        case .inProgress: index = 1
        case .completed: index = 2
        case .partial: index = 3
        case .failed: index = 4
        case .skipped: index = 5
        case .recovered: index = 6
        }
        return EnumCells.statuses[index]
    }
}

extension RouteKind {
    var cell: FactCell {
        switch self {
        case .regular: EnumCells.routes[0]
        case .light: EnumCells.routes[1]
        case .recovery: EnumCells.routes[2]
        }
    }
}

extension RiskLevel {
    var cell: FactCell {
        switch self {
        case .low: EnumCells.risks[0]
        case .medium: EnumCells.risks[1]
        case .high: EnumCells.risks[2]
        }
    }
}

extension HealthReading.Permission {
    var cell: FactCell {
        switch self {
        case .granted: EnumCells.permissions[0]
        case .denied: EnumCells.permissions[1]
        case .notDetermined: EnumCells.permissions[2]
        }
    }
}
