import Foundation
import Ruleset

/// One record of a routine (seed 8.2). Edits change `value` and `updatedAt`; deletion
/// removes the log from the day.
public struct HabitLog: Sendable, Hashable, Codable {
    public var id: String
    /// Logical day (days since 1970-01-01).
    public var day: Int
    public var routine: String
    public var category: RoutineCategory
    public var value: Double
    public var unit: RoutineUnit
    public var source: LogSource
    public var createdAt: Date
    public var updatedAt: Date
}

/// A ticked checklist item.
public struct ChecklistTick: Sendable, Hashable, Codable {
    public var routine: String
    public var item: String
    public var at: Date
}
