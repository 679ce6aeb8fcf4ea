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
    public var routine: String
    public var item: String
    public var at: Date
}
