import Foundation
import RulesExpression
import Ruleset

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
