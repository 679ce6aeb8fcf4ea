import Foundation
import RulesExpression
import Ruleset

/// A plan in the making: the requests accepted and refused so far, the soonest fire time
/// among its candidates, and the `at:` evaluation errors met.
struct PlanDraft {
    var accepted: [ScheduledNotification] = []
    var refusals: [SuppressedNotification] = []
    var nextFire = Date.distantFuture
    var atProblems: [String] = []
    /// Every candidate gated, with its gates (to explain the plan).
    var planned: [PlannedCandidate] = []

    init() {
        accepted.reserveCapacity(8)
        refusals.reserveCapacity(8)
    }
}

extension OperatorEngine {
    /// Recomputes the plan from what the app knows now (SPEC §5.6): the rest of today plus
    /// tomorrow's candidates against a fresh day, the gates in order, at most `max_pending`
    /// soonest first; emits `schedule` / `cancel` records against the previous plan.
    mutating func plan(at time: Date, today reading: DayReading) {
        guard let current = planDay else { return }
        let memo = PlanMemo(
            day: current.day, planInputs: fromProfile.planInputs, skipped: current.skipped, route: current.route,
            reason: current.reason, deliveries: current.deliveries.count, delivered: delivered.count, pending: pending.count,
            explained: explains)
        let reads = fromProfile.planReads
        if memoises, let kept = memos.plan, kept.inputs == memo, time < kept.nextFire, kept.reads.matches(reading.facts, slots: reads.slots),
            reads.sidesMatch(kept.sides, reading.facts, dayStart: dayStart)
        {
            if explains { decisions.planned = keptCandidates(kept.planned, at: time, today: reading) }
            return
        }
        let recordsBefore = records.count
        var draft = PlanDraft()
        // Today's candidates, then tomorrow's: every one of tomorrow's fires after today's.
        // (The ids first: a mutating call inside the arguments made Swift copy the engine.)
        let todayIDs = candidateIDs(day: current.day)
        var today = self.candidates(for: current.day, reading: reading, at: time, ids: todayIDs, problems: &draft.atProblems)
        order(&today)
        let recovery = current.route == .recovery ? TodaysRecovery(day: current.day, reason: current.reason) : nil
        let gates = gateContext()
        for candidate in today {
            decide(candidate, gates, &draft, skipped: current.skipped, recovery: recovery, today: current.day, at: time)
            draft.nextFire = Swift.min(draft.nextFire, candidate.fireAt)
        }
        planTomorrow(&draft, current, gates: gates, recovery: recovery, at: time)
        // An `at:` that failed to evaluate leaves its type out of the plan, on the record.
        for message in draft.atProblems { problem(at: time, .evaluation, message) }
        MaxPendingGate.apply(&draft.accepted, &draft.refusals, limit: ruleset.policy.maxPending)
        // Most plans leave every request as it was: then there is nothing to tell iOS.
        // (By index: a request copied out of an array retains each of its fields.)
        let accepted = draft.accepted
        var unchanged = pending.count == accepted.count
        for index in pending.indices where unchanged && !pending[index].sameRequest(as: accepted[index]) { unchanged = false }
        if !unchanged { recordChanges(from: pending, to: accepted, refusals: draft.refusals, at: time) }
        pending = accepted
        refused = draft.refusals
        // A plan that reported a problem is made again (and reports it again) at every run.
        var reported = false
        for index in recordsBefore..<records.count {
            if case .problem = records[index].kind { reported = true }
        }
        var inputs = memo
        inputs.pending = pending.count
        if explains { decisions.planned = draft.planned }
        memos.plan =
            reported
            ? nil
            : KeptPlan(
                inputs: inputs, reads: FactSample(reading.facts, slots: reads.slots), sides: reads.sides(of: reading.facts, dayStart: dayStart),
                nextFire: draft.nextFire, planned: draft.planned)
    }

    /// Tomorrow's candidates through the gates, into `draft`. They depend on the profile
    /// alone, unless one of today's notifications is within a category's cooldown of one of
    /// them (or a request of today's was deferred into tomorrow); so they are gated once per
    /// profile and day (`TomorrowPlan`, keyed by what they read).
    private mutating func planTomorrow(_ draft: inout PlanDraft, _ current: PlanDay, gates: GateContext, recovery: TodaysRecovery?, at time: Date) {
        // The latest of each category today: a short list (a day has a few categories), not
        // a dictionary made and hashed at every plan.
        var latestToday: [CategoryTime] = []
        latestToday.reserveCapacity(ruleBoxes.count)
        func note(_ category: String, _ at: Date) {
            if let index = latestToday.firstIndex(where: { $0.category == category }) {
                latestToday[index].at = max(latestToday[index].at, at)
            } else {
                latestToday.append(CategoryTime(category: category, at: at))
            }
        }
        for request in draft.accepted { note(request.category, request.scheduledAt) }
        for delivery in current.deliveries { note(delivery.category, delivery.at) }
        let cooldown = TimeInterval(ruleset.policy.categoryCooldown)
        func touchesToday(_ candidates: [Candidate]) -> Bool {
            candidates.contains { candidate in
                let category = candidate.box.value.category
                return latestToday.contains { $0.category == category && $0.at.addingTimeInterval(cooldown) > candidate.fireAt }
            }
        }
        // A request of today's deferred into tomorrow counts against tomorrow's cap: no cache.
        let deferredIntoTomorrow = draft.accepted.contains { $0.day != current.day }
        let now = clock.timeOfDay(time, inLogicalDay: current.day, dayStart: dayStart)
        let tomorrowNow = derived.tomorrowReadsNow ? now : nil
        if memoises, let cached = memos.tomorrowPlan, cached.day == current.day + 1, cached.planInputs == fromProfile.planInputs,
            cached.explained == explains,
            cached.permissions == lastPermissions, cached.now == tomorrowNow, !deferredIntoTomorrow, !touchesToday(cached.candidates)
        {
            for candidate in cached.candidates { draft.nextFire = Swift.min(draft.nextFire, candidate.fireAt) }
            draft.accepted += cached.accepted
            draft.refusals += cached.refusals
            draft.planned += cached.planned.map { planned in
                var copy = planned
                copy.at = time
                return copy
            }
            return
        }
        let tomorrow = DayState(day: current.day + 1)
        let fresh = reader.read(tomorrow, route: .regular, risk: .low, now: now)
        let tomorrowIDs = candidateIDs(day: tomorrow.day)
        var made = self.candidates(for: tomorrow.day, reading: fresh, at: time, ids: tomorrowIDs, problems: &draft.atProblems)
        order(&made)
        for candidate in made { draft.nextFire = Swift.min(draft.nextFire, candidate.fireAt) }
        let before = (draft.accepted.count, draft.refusals.count, draft.planned.count)
        for candidate in made {
            decide(candidate, gates, &draft, skipped: false, recovery: recovery, today: current.day, at: time)
        }
        memos.tomorrowPlan =
            touchesToday(made) || deferredIntoTomorrow
            ? nil
            : TomorrowPlan(
                day: current.day + 1, planInputs: fromProfile.planInputs, permissions: lastPermissions, now: tomorrowNow, candidates: made,
                accepted: Array(draft.accepted[before.0...]), refusals: Array(draft.refusals[before.1...]),
                planned: Array(draft.planned[before.2...]), explained: explains)
    }

    /// `cancel` records for the pending requests a plan drops and `schedule` records for the
    /// ones it adds or changes. A plan holds a few requests (at most `max_pending`, 64):
    /// looked up in turn, which costs less than hashing their ids, unless there are many.
    private mutating func recordChanges(
        from old: [ScheduledNotification], to new: [ScheduledNotification], refusals: [SuppressedNotification], at time: Date
    ) {
        if old.count + new.count <= 32 {
            for request in old where !new.contains(where: { $0.id == request.id }) {
                let reason = refusals.first { $0.id == request.id }?.reason
                records.append(EngineRecord(at: time, kind: .notificationCancelled(request, reason: reason.map(CancelReason.refused) ?? .replanned)))
            }
            for request in new where !(old.first { $0.id == request.id }.map { $0.sameRequest(as: request) } ?? false) {
                records.append(EngineRecord(at: time, kind: .notificationScheduled(request)))
            }
            return
        }
        let previous = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let refusedByID = Dictionary(refusals.map { ($0.id, $0.reason) }, uniquingKeysWith: { a, _ in a })
        let newIDs = Set(new.map(\.id))
        for request in old where !newIDs.contains(request.id) {
            records.append(
                EngineRecord(at: time, kind: .notificationCancelled(request, reason: refusedByID[request.id].map(CancelReason.refused) ?? .replanned))
            )
        }
        for request in new where !(previous[request.id].map { $0.sameRequest(as: request) } ?? false) {
            records.append(EngineRecord(at: time, kind: .notificationScheduled(request)))
        }
    }

    /// The plan of the last run stands: its candidates, explained as seen now — today's
    /// with this run's facts, as a new plan would give them (a banded fact may have moved
    /// within its band).
    private func keptCandidates(_ kept: [PlannedCandidate], at time: Date, today reading: DayReading) -> [PlannedCandidate] {
        var planned = kept
        for index in planned.indices {
            planned[index].at = time
            guard planned[index].today else { continue }
            var facts = reading.facts
            if let routine = planned[index].candidate.routine,
                let position = reading.routines.firstIndex(where: { $0.box.value.id == routine }),
                position < fromProfile.reminders.count, let reminder = fromProfile.reminders[position]
            {
                bind(&facts, reading.routines[position], reminder: reminder)
            }
            planned[index].fireFacts = explainedFactsAtFire(facts, fireSeconds: planned[index].candidate.seconds)
            planned[index].candidate.facts = facts
        }
        return planned
    }

    /// Facts moved to a fire time: `now` set there and risk re-derived; a risk entry that
    /// cannot be evaluated there is told in `problems`.
    func factsAtFire(_ facts: FactValues, fireSeconds: Int, problems: inout [String]) -> FactValues {
        GateContext.atFire(facts, fireSeconds: fireSeconds, ruleset: ruleset, layout: layout, dayStart: dayStart, problems: &problems)
    }

    /// Facts moved to a fire time for explaining a candidate the gates already decided with
    /// the same facts (any evaluation problem was recorded then, at the run that gated it).
    func explainedFactsAtFire(_ facts: FactValues, fireSeconds: Int) -> FactValues {
        var toldAtGating: [String] = []
        return factsAtFire(facts, fireSeconds: fireSeconds, problems: &toldAtGating)
    }

    /// What the gates of a plan made now read.
    func gateContext() -> GateContext {
        GateContext(
            ruleset: ruleset, layout: layout, typeOff: fromProfile.typeOff, ignoredStreaks: fromProfile.ignoredStreaks,
            weakenedSince: profile.weakenedSince, today: day?.day, deliveries: day?.deliveries ?? [], clock: clock, dayStart: dayStart)
    }

    /// Gates one candidate and records its fate.
    mutating func decide(
        _ candidate: Candidate, _ context: GateContext, _ draft: inout PlanDraft, skipped: Bool, recovery: TodaysRecovery?, today day: Int,
        at time: Date
    ) {
        var gates = GateOutcome()
        var problems: [String] = []
        let today = candidate.day == day
        var fireFacts = candidate.facts
        let decision = gate(
            candidate, context, accepted: draft.accepted, skipped: skipped && today, recovery: recovery, explain: &gates, read: &fireFacts,
            problems: &problems)
        for message in problems { problem(at: time, .evaluation, message) }
        if explains {
            draft.planned.append(
                PlannedCandidate(candidate: candidate, fireFacts: fireFacts, reason: decision.reason, gates: gates, at: time, today: today))
        }
        if let reason = decision.reason {
            draft.refusals.append(
                SuppressedNotification(
                    id: candidate.id, type: candidate.box.value.id, routine: candidate.routine, fireAt: candidate.fireAt, day: candidate.day,
                    reason: reason))
        } else if let scheduled = decision.scheduled {
            draft.accepted.append(scheduled)
        }
    }

    /// The gates in order (`Gates.run`), then the request as iOS will show it; nil reason
    /// means scheduled. `read` is given the facts the gates read.
    private func gate(
        _ candidate: Candidate, _ context: GateContext, accepted: [ScheduledNotification], skipped: Bool, recovery: TodaysRecovery?,
        explain: inout GateOutcome, read: inout FactValues, problems: inout [String]
    ) -> (reason: GateReason?, scheduled: ScheduledNotification?) {
        var gated = GatedCandidate(
            candidate: candidate, fireSeconds: candidate.seconds, fireAt: candidate.fireAt, fireDay: candidate.day,
            facts: context.atFire(candidate.facts, fireSeconds: candidate.seconds, problems: &problems), level: candidate.box.value.interruptionLevel)
        let inputs = GateInputs(accepted: accepted, skipped: skipped, recovery: recovery)
        let refusal = Gates.run(&gated, inputs, context)
        explain = gated.outcome
        read = gated.facts
        if !gated.problems.isEmpty { problems += gated.problems }
        if let refusal { return (refusal, nil) }
        return (nil, request(for: gated, recovery: recovery, problems: &problems))
    }
}

extension Array {
    subscript(safe index: Int?) -> Element? {
        guard let index, index >= 0, index < count else { return nil }
        return self[index]
    }
}

extension OperatorEngine {
    /// Today's candidate of a notification type at the last plan: the refusing gate (nil when
    /// scheduled) and the facts at its fire time, for "why not" answers.
    public func plannedCandidate(type: String) -> (reason: GateReason?, facts: FactValues, when: CompiledExpression?, fireSeconds: Int)? {
        guard let planned = decisions.plannedToday(type: type) else { return nil }
        let candidate = planned.candidate
        return (planned.reason, explainedFactsAtFire(candidate.facts, fireSeconds: candidate.seconds), candidate.box.value.when, candidate.seconds)
    }
}

extension ScheduledNotification {
    /// Whether a re-plan would leave this request as it is with iOS (same time, text, title
    /// and presentation): then no `schedule` operation is needed.
    func sameRequest(as other: ScheduledNotification) -> Bool {
        id == other.id && scheduledAt == other.scheduledAt && text == other.text && title == other.title
            && interruptionLevel == other.interruptionLevel && relevance == other.relevance && actions == other.actions
            && createdReason == other.createdReason && redacted == other.redacted
    }
}
