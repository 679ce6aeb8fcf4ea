import Foundation
import RulesExpression
import Ruleset

/// Judgement: each routine by the first matching `judgement.routine` entry, and the day
/// when it closes, with streak and XP.
extension OperatorEngine {

    /// Closes the current day at `time` (the next `day_starts_at`): judged from what the app
    /// knew at its last run; streak and XP carry on. A fresh day opens for the device's
    /// deliveries.
    mutating func closeDay(at time: Date) {
        // Moved out (nothing here reads `self.day`); a fresh day takes its place below.
        guard let current = day.take() else { return }
        let reading = closingReading(current)
        var ids: [String] = []
        var statuses: [RoutineStatus] = []
        ids.reserveCapacity(reading.routines.count)
        statuses.reserveCapacity(reading.routines.count)
        var completed = 0
        var partial = 0
        var context = EvaluationContext(facts: reading.facts, dayStart: dayStart)
        var problems: [String] = []
        for routine in reading.routines where routine.enabled {
            let id = routine.box.value.id
            var status =
                current.completedRoutines.contains(id)
                ? .completed : judgeRoutine(routine, context: &context, closing: true, skipped: current.skipped, problems: &problems)
            // A status earned at an earlier run stays (SPEC: "statuses earned earlier stay").
            if status == .failed || status == .skipped, current.partialRoutines.contains(id) { status = .partial }
            ids.append(id)
            statuses.append(status)
            if status == .completed { completed += 1 }
            if status == .partial { partial += 1 }
        }
        for message in problems { problem(at: time, .evaluation, message) }
        var result = DayResult.failed
        if current.skipped {
            result = .skipped
        } else {
            let table = ruleset.judgement?.day ?? []
            var failures: [String] = []
            let index = FirstMatch.index(table, { $0.when }, { $0.origin }, facts: reading.facts, dayStart: dayStart, problems: &failures)
            for message in failures { problem(at: time, .evaluation, message) }
            decisions.day = .table(.day(table), facts: reading.facts, at: time, dayStart: dayStart)
            result = index.map { table[$0].result } ?? .failed
        }
        let xp = ruleset.judgement?.xp ?? ExperiencePoints()
        let gained = completed * xp.completed + partial * xp.partial + (recoveryCompleted(current) ? xp.recoveryCompleted : 0)
        let streakCounts = ruleset.judgement?.streakCounts ?? [.success, .recovered]
        // One change of the profile, not two (each change works out what runs read off it).
        var updated = profile
        updated.streakDays = streakCounts.contains(result) ? Swift.min(profile.streakDays + 1, OperatorProfile.maxCount) : 0
        // XP per entry is at most 10^9 (checked at load); the total saturates at the most a
        // saved state holds rather than trap.
        let (total, overflow) = profile.xp.addingReportingOverflow(gained)
        updated.xp = overflow ? OperatorProfile.maxCount : Swift.min(total, OperatorProfile.maxCount)
        profile = updated
        let close = DayClose(
            day: current.day, result: result, streak: profile.streakDays, xpGained: gained, xp: profile.xp, routineIDs: ids,
            routineStatuses: statuses)
        records.append(EngineRecord(at: time, kind: .dayClosed(close)))
        day = DayState(day: current.day + 1)
        delivered = [:]
    }

    /// The day as the app knew it at its last run, which its close reads.
    private func closingReading(_ current: DayState) -> DayReading {
        if memoises, let kept = lastReading, kept.day == current.day, current.lastRun != nil, kept.profileVersion == profileVersion,
            kept.permissions == lastPermissions
        {
            // What the last run read (see `KeptReading`), as a fresh reading would give it.
            var last = kept.reading
            last.facts.patch(layout.event, cell: EnumCells.home)
            last.facts.patch(layout.sentToday, cell: .int(current.deliveries.count))
            return last
        }
        let lastSeconds = current.lastRun.map { clock.local($0).seconds } ?? dayStart
        return read(current, route: current.route.route, risk: current.risk ?? .low, now: lastSeconds)
    }

    /// A routine's status by the first matching `judgement.routine` entry; no match is
    /// `in_progress` with some progress, `not_started` without, and `failed` when the day
    /// closes — `skipped` on a skipped day, where earned statuses stay.
    /// `context` carries the day's facts; the entry's bindings are written into it in place.
    /// An entry whose condition fails to evaluate does not match; the failure goes to `problems`.
    func judgeRoutine(
        _ reading: RoutineReading, context: inout EvaluationContext, closing: Bool, skipped: Bool, problems: inout [String]
    ) -> RoutineStatus {
        // Patched: the bindings change for every routine, and a patch is no write into the
        // (shared or not) cells. The caller drops the patches when it is done.
        context.facts.patch(layout.progress, cell: .number(reading.progress))
        context.facts.patch(layout.value, cell: .number(reading.value))
        context.facts.patch(layout.goal, cell: .number(reading.goal))
        let entries = derived.routineJudgement
        for index in entries.indices {
            do {
                if try entries[index].when.isTrue(&context) { return entries[index].status }
            } catch {
                problems.append(evaluationProblem(entries[index].when, origin: entries[index].origin, error) + " (routine '\(reading.box.value.id)')")
            }
        }
        if closing { return skipped ? .skipped : .failed }
        return reading.value > 0 ? .inProgress : .notStarted
    }
}
