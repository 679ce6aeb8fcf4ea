import Foundation
import Ruleset

/// One record of a routine (seed 8.2). Edits change `value` and `updatedAt`; deletion
/// removes the log from the day.
public struct HabitLog: Sendable, Hashable, Codable {
    /// `log_<yyyyMMdd>_<nnn>`: unique within the day, in order of logging.
    public var id: String
    /// Logical day (days since 1970-01-01).
    public var day: Int
    /// The routine logged.
    public var routine: String
    /// Its category.
    public var category: RoutineCategory
    /// The amount, in `unit`.
    public var value: Double
    /// The routine's unit.
    public var unit: RoutineUnit
    /// Where it came from (HealthKit, manual, widget, tool, timer…).
    public var source: LogSource
    /// When it was logged.
    public var createdAt: Date
    /// When it was last edited.
    public var updatedAt: Date

    /// The log's number within its day (`log_20260629_003` is 3; 0 for a foreign id).
    public var number: Int {
        // The usual shape (digits after the last "_") read from the end, without splitting
        // the id into an array at every use; any other shape as split and parsed.
        var value = 0
        var place = 1
        var digits = 0
        for byte in id.utf8.reversed() {
            if byte == UInt8(ascii: "_"), digits > 0 { return value }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { break }
            value += Int(byte - UInt8(ascii: "0")) * place
            place *= 10
            digits += 1
        }
        guard let suffix = id.split(separator: "_").last else { return 0 }
        return Int(suffix) ?? 0
    }
}

/// A ticked checklist item.
public struct ChecklistTick: Sendable, Hashable, Codable {
    /// The checklist routine.
    public var routine: String
    /// The item ticked.
    public var item: String
    /// When.
    public var at: Date
}
