import Foundation
import RulesExpression
import Ruleset

/// A routine behind one reference: readings are copied often and a routine is a large value.
final class RoutineBox: Sendable {
    let value: Routine
    /// `routines.<id>.name` as a fact (made once: most names fit a cell).
    let nameCell: FactCell?
    /// Where its value comes from (worked out once, not at every reading).
    let valueSource: ValueSource
    /// Its checklist items, each once (a repeated item counts once).
    let distinctItems: [String]
    /// Whether no two of its items are canonically equivalent: then the item that has an
    /// item's bytes is the one `==` would find first (see `OperatorEngine.tick`). A loaded
    /// ruleset always has this (its decoder refuses such items); a ruleset built in code may not.
    let itemsCanonicallyDistinct: Bool
    /// `Routine.scalesOnLightRoute`, worked out once (the getter, in another module, copied
    /// the whole routine out of the box at every goal on the light route).
    let scalesOnLightRoute: Bool

    enum ValueSource: Sendable {
        /// HealthKit steps when permitted, else its logs.
        case healthSteps
        /// HealthKit sleep when permitted and known, else its logs.
        case healthSleep
        /// Ticked checklist items.
        case checklist
        /// The sum of its logs.
        case logs
    }

    init(_ value: Routine) {
        self.value = value
        nameCell = FactCell.string(value.name)
        // Distinct by bytes (as ticks are counted), first spelling kept: a set of the bytes
        // seen, linear in the items (a search of those kept before was quadratic).
        var seen = Set<[UInt8]>()
        distinctItems = value.items.filter { seen.insert(Array($0.utf8)).inserted }
        // A set compares as `==` does (canonical equivalence): linear in the items, where
        // comparing each with those before it was quadratic.
        itemsCanonicallyDistinct = Set(value.items).count == value.items.count
        scalesOnLightRoute = value.scalesOnLightRoute
        if value.source == .healthkit, value.unit == .steps {
            valueSource = .healthSteps
        } else if value.source == .healthkit, value.category == .sleep {
            valueSource = .healthSleep
        } else if !value.items.isEmpty {
            valueSource = .checklist
        } else {
            valueSource = .logs
        }
    }
}

/// One routine as judged at a moment: a plain value (no reference), copied and dropped
/// without reference counting — readings are copied, walked and dropped at every app run.
struct RoutineReading: Sendable {
    /// The routine's position in the ruleset: its box is `PreparedRuleset.routine(of:)`
    /// (a reading is made from the routines in ruleset order, so also its position in the day's
    /// reading).
    var index: Int
    /// Whether the routine is a core one (counted in the completion rate).
    var core: Bool
    var enabled: Bool
    var value: Double
    var goal: Double
    var progress: Double
    var status: RoutineStatus
}

/// The bindings a routine was judged with (those the table reads) and its status.
struct JudgedBindings {
    var progress: UInt64
    var value: UInt64
    var goal: UInt64
    var done: Bool
    var status: RoutineStatus

    func sameKey(as other: JudgedBindings) -> Bool {
        progress == other.progress && value == other.value && goal == other.goal && done == other.done
    }
}

/// The day as the app sees it at one moment: routine values against the goals of the
/// route in force, statuses, completion and the facts expressions read.
struct DayReading {
    var routines: [RoutineReading]
    var completed: Int
    var total: Int
    var rate: Double { total == 0 ? 0 : Double(completed) / Double(total) }
    var facts: FactValues
    /// Judgement conditions that failed to evaluate (reported by the app run that reads).
    var problems: [String] = []
}

extension PreparedRuleset {
    /// The routine a reading is of (readings are made from these boxes, by position, and
    /// read with the ruleset they were made with: an engine's memos go with its ruleset).
    func routine(of reading: RoutineReading) -> RoutineBox { routineBoxes[reading.index] }
}
