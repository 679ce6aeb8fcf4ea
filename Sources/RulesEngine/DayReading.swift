import Foundation
import RulesExpression
import Ruleset

/// A routine behind one reference: readings are copied often and a routine is a large value.
final class RoutineBox: Sendable {
    let value: Routine
    init(_ value: Routine) { self.value = value }
}

/// One routine as judged at a moment.
struct RoutineReading: Sendable {
    /// The routine, read through the box (`box.value.id`): a copy of it retains every field.
    var box: RoutineBox
    var enabled: Bool
    var value: Double
    var goal: Double
    var progress: Double
    var status: RoutineStatus
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

extension OperatorEngine {
    /// Reads the day at `now` (seconds since midnight) with the goals of `route`.
    func read(_ day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String = "home") -> DayReading {
        var readings: [RoutineReading] = []
        readings.reserveCapacity(routineBoxes.count)
        let enabled = fromProfile.enabled
        for (index, box) in routineBoxes.enumerated() {
            // Fields read through the box: a routine copied out of it costs a retain per field.
            let value = value(of: box, in: day)
            let goal = goal(of: box, on: route, in: day)
            let progress = goal > 0 ? Swift.min(1, Swift.max(0, value / goal)) : (value > 0 ? 1 : 0)
            let provisional: RoutineStatus = progress >= 1 ? .completed : value > 0 ? .inProgress : .notStarted
            readings.append(
                RoutineReading(
                    box: box, enabled: index < enabled.count && enabled[index], value: value, goal: goal,
                    progress: progress, status: provisional))
        }
        // No facts yet (`fillFacts` makes the array): an array made here would be thrown away.
        var reading = DayReading(routines: readings, completed: 0, total: 0, facts: FactValues(count: 0))
        countCompletion(&reading)
        fillFacts(&reading, day: day, route: route, risk: risk, now: now, event: event)
        // Statuses by the judgement table (one scratch copy of the facts for the bindings),
        // then facts again with the judged statuses.
        // The facts move into the context (no copy) for the bindings, and back.
        var context = EvaluationContext(facts: reading.facts, dayStart: dayStart)
        reading.facts = FactValues(count: 0)
        for index in reading.routines.indices {
            // A routine completed earlier today stays completed (the route never takes back
            // what was done); otherwise the judgement table decides.
            reading.routines[index].status =
                day.completedRoutines.contains(reading.routines[index].box.value.id)
                ? .completed
                : judgeRoutine(reading.routines[index], context: &context, closing: false, skipped: day.skipped, problems: &reading.problems)
        }
        // Moved back (swapped, not copied): a copy left in the context would make the next
        // write copy the whole array.
        swap(&reading.facts, &context.facts)
        countCompletion(&reading)
        // Only the judged facts changed: statuses and the counts made from them.
        reading.facts.put(layout.completed, .int(reading.completed))
        reading.facts.put(layout.total, .int(reading.total))
        reading.facts.put(layout.completionRate, .number(reading.rate))
        for (index, routine) in reading.routines.enumerated() where index < layout.routines.count {
            reading.facts.put(layout.routines[index].status, .string(routine.status.rawValue))
        }
        return reading
    }

    private func countCompletion(_ reading: inout DayReading) {
        var total = 0
        var completed = 0
        for routine in reading.routines where routine.enabled && routine.box.value.core {
            total += 1
            if routine.status == .completed { completed += 1 }
        }
        reading.total = total
        reading.completed = completed
    }

}
