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
        var distinct: [String] = []
        for item in value.items where !distinct.contains(where: { $0.sameBytes(as: item) }) { distinct.append(item) }
        distinctItems = distinct
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

extension OperatorEngine {
    /// Reads the day at `now` (seconds since midnight) with the goals of `route`.
    func read(_ day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String = "home") -> DayReading {
        // The readings are made inside the reading (a local array, moved in, was still
        // referenced when the statuses were written: the first write copied it).
        var reading = DayReading(routines: [], completed: 0, total: 0, facts: FactValues(count: 0))
        reading.routines.reserveCapacity(routineBoxes.count)
        let enabled = fromProfile.enabled
        let goals = prepared.goals
        for (index, box) in routineBoxes.enumerated() {
            // Fields read through the box: a routine copied out of it costs a retain per field.
            let value = Goals.value(of: box, in: day)
            let goal = goals.goal(of: box, on: route, in: day)
            let progress = goal > 0 ? Swift.min(1, Swift.max(0, value / goal)) : (value > 0 ? 1 : 0)
            let provisional: RoutineStatus = progress >= 1 ? .completed : value > 0 ? .inProgress : .notStarted
            reading.routines.append(
                RoutineReading(
                    box: box, enabled: index < enabled.count && enabled[index], value: value, goal: goal,
                    progress: progress, status: provisional))
        }
        if derived.judgementReadsOnlyBindings {
            // The table reads nothing but each routine's bindings (the shipped one): the
            // statuses need no facts, and the facts are filled once, with them.
            var context = EvaluationContext(facts: FactValues(count: 0), dayStart: dayStart)
            judgeAll(&reading, day: day, context: &context, byBindings: true)
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
        judgeAll(&reading, day: day, context: &context, byBindings: false)
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

    /// Each routine's status: completed earlier today stays completed (the route never
    /// takes back what was done); otherwise the judgement table decides.
    /// `byBindings`: the table reads nothing but the bindings, so routines that agree on
    /// the bindings it reads (and on whether anything was done) share one evaluation.
    private func judgeAll(_ reading: inout DayReading, day: DayState, context: inout EvaluationContext, byBindings: Bool) {
        let reads = derived.judgementReads
        let completed = day.completedRoutines
        // Routines completed at the last run, listed in ruleset order (as `decide` writes
        // them): walked with the routines, one comparison each; in another order (a state
        // saved otherwise) each is searched for.
        var inOrder = 0
        for routine in reading.routines where inOrder < completed.count && completed[inOrder] == routine.box.value.id { inOrder += 1 }
        let walk = inOrder == completed.count
        var nextCompleted = 0
        var problems = reading.problems
        let judgement = self.judgement
        // In place (one uniqueness check, no copy of a reading per routine).
        reading.routines.withUnsafeMutableBufferPointer { routines in
            withUnsafeTemporaryAllocation(of: JudgedBindings.self, capacity: byBindings ? routines.count : 0) { memo in
                var kept = 0
                for index in routines.indices {
                    if nextCompleted < completed.count {
                        let id = routines[index].box.value.id
                        let done = walk ? completed[nextCompleted] == id : completed.contains(id)
                        if done {
                            if walk { nextCompleted += 1 }
                            routines[index].status = .completed
                            continue
                        }
                    }
                    let key = JudgedBindings(
                        progress: reads.progress ? routines[index].progress.bitPattern : 0,
                        value: reads.value ? routines[index].value.bitPattern : 0, goal: reads.goal ? routines[index].goal.bitPattern : 0,
                        done: routines[index].value > 0, status: .notStarted)
                    var found: RoutineStatus?
                    for position in 0..<kept where memo[position].sameKey(as: key) {
                        found = memo[position].status
                        break
                    }
                    if let found {
                        routines[index].status = found
                        continue
                    }
                    let problemsBefore = problems.count
                    let status = judgement.judgeRoutine(routines[index], context: &context, closing: false, skipped: day.skipped, problems: &problems)
                    routines[index].status = status
                    // A routine whose judging reported a problem is judged again (its message names it).
                    if kept < memo.count, problems.count == problemsBefore {
                        var entry = key
                        entry.status = status
                        memo.initializeElement(at: kept, to: entry)
                        kept += 1
                    }
                }
            }
        }
        reading.problems = problems
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
