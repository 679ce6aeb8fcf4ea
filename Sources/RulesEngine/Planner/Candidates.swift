import Foundation
import RulesExpression
import Ruleset

/// A day's candidates: each notification type (per routine where it is one) at its `at:`.
extension NotificationPlanner {
    /// The ids of `day`'s candidates, from the two days kept (today's and tomorrow's).
    static func candidateIDs(day: Int, _ memos: inout PlanMemos, _ ruleBoxes: [RuleBox]) -> CandidateIDs {
        for index in memos.candidateIDs.indices where memos.candidateIDs[index].day == day { return memos.candidateIDs[index] }
        let date = LocalClock.compactDate(day)
        let made = CandidateIDs(day: day, date: date, ids: ruleBoxes.map { CandidateIDs.id(type: $0.value.id, routine: nil, date: date) })
        memos.candidateIDs.removeAll { $0.day < day - 1 || $0.day > day + 1 }
        memos.candidateIDs.append(made)
        return made
    }

    /// Puts candidates in time order, then higher priority, then id (in place: a sorted copy
    /// retained every field of every candidate).
    func order(_ candidates: inout [Candidate]) {
        candidates.sort { a, b in
            if a.fireAt != b.fireAt { return a.fireAt < b.fireAt }
            if a.box.value.priority != b.box.value.priority { return a.box.value.priority > b.box.value.priority }
            return a.id < b.id
        }
    }

    /// The candidates of `day` that fire after `time` and were not delivered already; an
    /// `at:` that fails to evaluate adds its message to `problems`.
    func candidates(
        for day: Int, today: Int, reading base: DayReading, at time: Date, ids: CandidateIDs, delivered: [String: ScheduledNotification],
        problems: inout [String]
    ) -> [Candidate] {
        let isToday = day == today
        let date = ids.date
        var result: [Candidate] = []
        result.reserveCapacity(ruleBoxes.count)
        // Fields read through the boxes: a rule or routine copied out costs a retain per field.
        for box in ruleBoxes {
            if box.value.perRoutine {
                // Reminders by routine index, worked out per profile (not two lookups by name here).
                let reminders = profile.reminders
                for (index, reading) in base.routines.enumerated() where reading.enabled {
                    guard index < reminders.count, let reminder = reminders[index] else { continue }
                    let routine = prepared.routine(of: reading).value.id
                    var facts = base.facts
                    bind(&facts, reading, reminder: reminder)
                    if let made = candidate(
                        box, routine: routine, facts: facts, day: day, date: date, today: isToday, after: time, delivered: delivered,
                        problems: &problems)
                    {
                        result.append(made)
                    }
                }
            } else if let made = candidate(
                box, routine: nil, facts: base.facts, day: day, date: date, today: isToday, after: time, delivered: delivered,
                id: ids.ids[safe: box.index], problems: &problems)
            {
                result.append(made)
            }
        }
        return result
    }

    /// One candidate: its `at:` with `facts`, unless it fires by `time` or was delivered.
    private func candidate(
        _ box: RuleBox, routine: String?, facts: FactValues, day: Int, date: String, today: Bool, after time: Date,
        delivered: [String: ScheduledNotification], id made: String? = nil, problems: inout [String]
    ) -> Candidate? {
        var context = EvaluationContext(facts: facts, dayStart: dayStart)
        let at: Value
        do { at = try box.value.at.value(&context) } catch {
            problems.append(evaluationProblem(box.value.at, origin: box.value.atOrigin, error))
            return nil
        }
        guard case .time(let seconds) = at else { return nil }
        let fireAt = clock.instant(logicalDay: day, seconds: seconds, dayStart: dayStart)
        guard fireAt > time else { return nil }
        let id = made ?? CandidateIDs.id(type: box.value.id, routine: routine, date: date)
        // A day has a few deliveries: compared in turn (hashing the id costs more).
        if today, !delivered.isEmpty, delivered.keys.contains(where: { $0 == id }) { return nil }
        return Candidate(box: box, routine: routine, day: day, seconds: seconds % 86_400, fireAt: fireAt, facts: context.facts, id: id)
    }

    /// Binds `routine.*` for a per-routine notification.
    func bind(_ facts: inout FactValues, _ reading: RoutineReading, reminder: Int) {
        Self.bind(&facts, reading, of: prepared.routine(of: reading), reminder: reminder, layout: layout)
    }

    static func bind(_ facts: inout FactValues, _ reading: RoutineReading, of box: RoutineBox, reminder: Int, layout: FactLayout) {
        layout.routineBinding.put(reading, of: box, into: &facts)
        facts.put(layout.routineID, .string(box.value.id))
        facts.put(layout.routineReminder, cell: .time(reminder))
    }
}
