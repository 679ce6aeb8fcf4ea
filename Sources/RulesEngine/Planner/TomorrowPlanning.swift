import Foundation
import RulesExpression
import Ruleset

/// Tomorrow's part of a plan: its candidates gated once per profile and day and kept
/// (`KeptTomorrow`), moved by a day when the day turns, and what of today's requests touches them.
extension NotificationPlanner {
    /// Tomorrow's candidates through the gates, into `draft`. They depend on the profile
    /// alone, unless one of today's notifications is within a category's cooldown of one of
    /// them (or a request of today's was deferred into tomorrow); so they are gated once per
    /// profile and day (`TomorrowPlan`, keyed by what they read).
    func planTomorrow(
        _ draft: inout PlanDraft, _ current: PlanDay, gates: GateContext, recovery: TodaysRecovery?, memos: inout PlanMemos, at time: Date
    ) {
        let latestToday = Self.latestByCategory(draft.accepted, current.deliveries, capacity: ruleBoxes.count)
        let cooldown = TimeInterval(ruleset.policy.categoryCooldown)
        func touchesToday(_ fires: [CategoryTime]) -> Bool {
            fires.contains { fire in latestToday.contains { $0.category == fire.category && $0.at.addingTimeInterval(cooldown) > fire.at } }
        }
        // A request of today's deferred into tomorrow counts against tomorrow's cap: no cache.
        let deferredIntoTomorrow = draft.accepted.contains { $0.day != current.day }
        let now = clock.timeOfDay(time, inLogicalDay: current.day, dayStart: dayStart)
        let tomorrowNow = derived.tomorrowReadsNow ? now : nil
        let inputs = TomorrowInputs(planInputs: profile.planInputs, permissions: permissions, now: tomorrowNow, explained: explains)
        if memoises, !deferredIntoTomorrow, let cached = memos.tomorrowPlan?.value(for: inputs),
            let plan = cached.day == current.day + 1 ? cached : movesToNextDay(cached, today: current.day), !touchesToday(plan.fires)
        {
            for fire in plan.fires { draft.nextFire = Swift.min(draft.nextFire, fire.at) }
            draft.accepted += plan.accepted
            draft.refusals += plan.refusals
            draft.planned += plan.planned.map { planned in
                var copy = planned
                copy.at = time
                return copy
            }
            if plan !== cached { memos.tomorrowPlan?.value = plan }
            return
        }
        let tomorrow = DayState(day: current.day + 1)
        let fresh = reader.read(tomorrow, route: .regular, risk: .low, now: now)
        let tomorrowIDs = Self.candidateIDs(day: tomorrow.day, &memos, ruleBoxes)
        let reportedBefore = (draft.records.count, draft.atProblems.count)
        var made = candidates(
            for: tomorrow.day, today: current.day, reading: fresh, at: time, ids: tomorrowIDs, delivered: [:], problems: &draft.atProblems)
        order(&made)
        for candidate in made { draft.nextFire = Swift.min(draft.nextFire, candidate.fireAt) }
        let before = (draft.accepted.count, draft.refusals.count, draft.planned.count)
        for candidate in made {
            decide(candidate, gates, &draft, skipped: false, recovery: recovery, today: current.day, at: time)
        }
        let fires = made.map { CategoryTime(category: $0.box.value.category, at: $0.fireAt) }
        // A plan that met a problem (an `at:` or a gate's) is made again, and tells it again, at every run.
        let reported = draft.records.count != reportedBefore.0 || draft.atProblems.count != reportedBefore.1
        memos.tomorrowPlan =
            touchesToday(fires) || deferredIntoTomorrow || reported
            ? nil
            : KeptTomorrow(
                inputs: inputs,
                value: TomorrowPlan(
                    day: current.day + 1, fires: fires, accepted: Array(draft.accepted[before.0...]), refusals: Array(draft.refusals[before.1...]),
                    planned: Array(draft.planned[before.2...])))
    }

    /// The latest request or delivery of each category today: a short list (a day has a few
    /// categories), not a dictionary made and hashed at every plan.
    private static func latestByCategory(_ accepted: [ScheduledNotification], _ deliveries: [Delivery], capacity: Int) -> [CategoryTime] {
        var latest: [CategoryTime] = []
        latest.reserveCapacity(capacity)
        func note(_ category: String, _ at: Date) {
            if let index = latest.firstIndex(where: { $0.category == category }) {
                latest[index].at = max(latest[index].at, at)
            } else {
                latest.append(CategoryTime(category: category, at: at))
            }
        }
        for request in accepted { note(request.category, request.scheduledAt) }
        for delivery in deliveries { note(delivery.category, delivery.at) }
        return latest
    }

    /// Today's plan of tomorrow, made yesterday, moved to the day after (`TomorrowPlan.nextDay`)
    /// when nothing a plan reads tells the days apart: no date fact, and no type weakened to
    /// every other day (its parity moves with the day). Nil otherwise.
    private func movesToNextDay(_ cached: TomorrowPlan, today: Int) -> TomorrowPlan? {
        // A plan kept to be explained is not moved: its candidates' gates were seen on its own day.
        guard cached.day == today, !explains, derived.tomorrowReadsNoDate else { return nil }
        if ruleset.policy.weakenEffect == .everyOtherDay, profile.planInputs.weakening.contains(where: { $0 != Int.min }) { return nil }
        return cached.nextDay(clock: clock)
    }
}
