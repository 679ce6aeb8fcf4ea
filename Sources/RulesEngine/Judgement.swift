import Foundation
import RulesExpression
import Ruleset

/// Judgement, all of it: each routine by the first matching `judgement.routine` entry (at
/// every reading: `judgeAll`, which `DayReader` calls), and the day when it closes by the
/// `judgement.day` table, with streak and XP.
///
/// A part with its own inputs (the tables, the XP and streak rules, the fact slots of the
/// bindings, the day start; the day as last read, the streak and XP so far) and outputs
/// (each routine's status; the day's close, how to explain it, the conditions that failed):
/// pure functions — the engine applies and records what they return.
struct Judgement {
    let prepared: PreparedRuleset
    let dayStart: Int

    /// A routine's status by the first matching `judgement.routine` entry; no match is
    /// `in_progress` with some progress, `not_started` without, and `failed` when the day
    /// closes — `skipped` on a skipped day, where earned statuses stay.
    /// `context` carries the day's facts; the entry's bindings are written into it in place.
    /// An entry whose condition fails to evaluate does not match; the failure goes to `problems`.
    func judgeRoutine(
        _ reading: RoutineReading, context: inout EvaluationContext, closing: Bool, skipped: Bool, problems: inout [String]
    ) -> RoutineStatus {
        let layout = prepared.layout
        // Patched: the bindings change for every routine, and a patch is no write into the
        // (shared or not) cells. The caller drops the patches when it is done.
        context.facts.patch(layout.progress, cell: .number(reading.progress))
        context.facts.patch(layout.value, cell: .number(reading.value))
        context.facts.patch(layout.goal, cell: .number(reading.goal))
        let entries = prepared.derived.routineJudgement
        for index in entries.indices {
            do {
                if try entries[index].when.isTrue(&context) { return entries[index].status }
            } catch {
                problems.append(
                    evaluationProblem(entries[index].when, origin: entries[index].origin, error)
                        + " (routine '\(prepared.routine(of: reading).value.id)')")
            }
        }
        if closing { return skipped ? .skipped : .failed }
        return reading.value > 0 ? .inProgress : .notStarted
    }

    /// Each routine's status: completed earlier today stays completed (the route never
    /// takes back what was done); otherwise the judgement table decides.
    /// `byBindings`: the table reads nothing but the bindings, so routines that agree on
    /// the bindings it reads (and on whether anything was done) share one evaluation.
    func judgeAll(_ reading: inout DayReading, day: DayState, context: inout EvaluationContext, byBindings: Bool) {
        let reads = prepared.derived.judgementReads
        let completed = day.completedRoutines
        // Routines completed at the last run, listed in ruleset order (as `decide` writes
        // them): walked with the routines, one comparison each; in another order (a state
        // saved otherwise) each is searched for.
        var inOrder = 0
        for routine in reading.routines where inOrder < completed.count && completed[inOrder] == prepared.routine(of: routine).value.id {
            inOrder += 1
        }
        let walk = inOrder == completed.count
        var nextCompleted = 0
        var problems = reading.problems
        // In place (one uniqueness check, no copy of a reading per routine).
        reading.routines.withUnsafeMutableBufferPointer { routines in
            withUnsafeTemporaryAllocation(of: JudgedBindings.self, capacity: byBindings ? routines.count : 0) { memo in
                var kept = 0
                for index in routines.indices {
                    if nextCompleted < completed.count {
                        let id = prepared.routine(of: routines[index]).value.id
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
                    let status = judgeRoutine(routines[index], context: &context, closing: false, skipped: day.skipped, problems: &problems)
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

    /// What closing a day decided.
    struct Closing {
        var close: DayClose
        /// How the day table decided (nil on a skipped day: it was not consulted).
        var explanation: PendingExplanation?
        var problems: [String] = []
    }

    /// Closes `current`, read as the app knew it at its last run (`reading`): each enabled
    /// routine's final status (completed earlier stays, partial earned earlier stays), the
    /// day's result, XP gained and the streak and XP carried on from `streak` and `xp`. The
    /// table's explanation only when `explains` (it holds the table and the day's facts).
    func close(_ current: DayState, reading: DayReading, streak: Int, xp: Int, at time: Date, explains: Bool = true) -> Closing {
        var ids: [String] = []
        var statuses: [RoutineStatus] = []
        ids.reserveCapacity(reading.routines.count)
        statuses.reserveCapacity(reading.routines.count)
        var completed = 0
        var partial = 0
        var context = EvaluationContext(facts: reading.facts, dayStart: dayStart)
        var problems: [String] = []
        for routine in reading.routines where routine.enabled {
            let id = prepared.routine(of: routine).value.id
            var status =
                current.completedRoutines.contains(id)
                ? .completed : judgeRoutine(routine, context: &context, closing: true, skipped: current.skipped, problems: &problems)
            // A status earned at an earlier run stays ("statuses earned earlier stay").
            if status == .failed || status == .skipped, current.partialRoutines.contains(id) { status = .partial }
            ids.append(id)
            statuses.append(status)
            if status == .completed { completed += 1 }
            if status == .partial { partial += 1 }
        }
        let judgement = prepared.ruleset.judgement
        var result = DayResult.failed
        var explanation: PendingExplanation?
        if current.skipped {
            result = .skipped
        } else {
            let table = judgement?.day ?? []
            var tried: [Explanation.Result]? = explains ? [] : nil
            let index = FirstMatch.index(
                table, { $0.when }, { $0.origin }, facts: reading.facts, dayStart: dayStart, problems: &problems, tried: &tried)
            explanation = tried.map { .table(.day(table), tried: $0, facts: reading.facts, at: time) }
            result = index.map { table[$0].result } ?? .failed
        }
        let points = judgement?.xp ?? ExperiencePoints()
        let gained = completed * points.completed + partial * points.partial + (RecoveryRoute.completed(current) ? points.recoveryCompleted : 0)
        let streakCounts = judgement?.streakCounts ?? [.success, .recovered]
        let newStreak = streakCounts.contains(result) ? Swift.min(streak + 1, OperatorProfile.maxCount) : 0
        // XP per entry is at most 10^9 (checked at load); the total saturates at the most a
        // saved state holds rather than trap.
        let (total, overflow) = xp.addingReportingOverflow(gained)
        let newXP = overflow ? OperatorProfile.maxCount : Swift.min(total, OperatorProfile.maxCount)
        let close = DayClose(
            day: current.day, result: result, streak: newStreak, xpGained: gained, xp: newXP, routineIDs: ids, routineStatuses: statuses)
        return Closing(close: close, explanation: explanation, problems: problems)
    }
}
