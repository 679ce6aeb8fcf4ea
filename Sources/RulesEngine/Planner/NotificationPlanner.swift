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
    /// The plan's records so far: problems of gating, then of `at:`, then the changes.
    var records: [EngineRecord] = []
    /// Whether a problem was reported (a plan that reported one is made again next run).
    var reported = false

    mutating func problem(at time: Date, _ message: String) {
        records.append(EngineRecord(at: time, kind: .problem(code: .evaluation, message: message)))
        reported = true
    }

    init() {
        accepted.reserveCapacity(8)
        refusals.reserveCapacity(8)
    }
}

/// Everything a plan reads of the run: the day as the plan sees it, today's reading, what iOS
/// holds and was delivered, the run's time and what earlier plans kept.
struct PlanInput {
    var today: PlanDay
    var reading: DayReading
    var pending: [ScheduledNotification]
    var refused: [SuppressedNotification]
    var delivered: [String: ScheduledNotification]
    var time: Date
    var memos: PlanMemos
}

/// What a plan decided: the requests iOS holds after it, the candidates refused (reported
/// when their fire time passes), its records (`schedule`/`cancel` and the problems met), the
/// candidates with their gates (when explaining) and what the next plan may keep.
struct Plan {
    var pending: [ScheduledNotification]
    var refused: [SuppressedNotification]
    var records: [EngineRecord] = []
    /// Nil when the planner does not explain.
    var planned: [PlannedCandidate]?
    var memos: PlanMemos
}

/// What plans keep for the next ones (`MemoLayer.planning`).
struct PlanMemos: Sendable {
    /// Tomorrow's gated candidates, made for this profile and these permissions
    /// (`KeptTomorrow`).
    var tomorrowPlan: KeptTomorrow?
    /// The last plan with what it was made from (`KeptPlan`: `PlanMemo` and the facts it
    /// read); nil when the next run must plan anew.
    var plan: KeptPlan?
    /// Request ids of today's and tomorrow's candidates (`CandidateIDs`).
    var candidateIDs: [CandidateIDs] = []
}

/// The notification planner (SPEC §5.6): the rest of today plus tomorrow's candidates
/// against a fresh day, the gates in order, at most `max_pending` soonest first, and the
/// `schedule` / `cancel` operations against the previous plan.
///
/// A part with its own inputs — the prepared ruleset, what the profile gives plans
/// (`ProfileDerived`), the clock, the permissions last known and the switches; per run a
/// `PlanInput` — and one output, a `Plan`, which the engine applies.
struct NotificationPlanner {
    let prepared: PreparedRuleset
    /// What the profile gives plans (`ProfileDerived`, behind one reference).
    let profileBox: ProfileBox
    /// The day each weakened type was first weakened, by type (the profile's).
    let weakenedSince: [String: Int]
    let clock: LocalClock
    let permissions: KnownPermissions
    /// Whether the candidates are kept to be explained (`OperatorEngine.explains`).
    let explains: Bool
    /// Whether kept plans may be read (the verification switch).
    let memoises: Bool

    var profile: ProfileDerived { profileBox.value }
    var ruleset: Ruleset { prepared.ruleset }
    var layout: FactLayout { prepared.layout }
    var derived: RulesetDerived { prepared.derived }
    var ruleBoxes: [RuleBox] { prepared.ruleBoxes }
    var dayStart: Int { profile.dayStart }
    var renderer: TemplateRenderer { profile.renderer }
    var reader: DayReader { DayReader(prepared: prepared, profile: profileBox, permissions: permissions) }

    /// The plan from what the app knows now; the last plan stands when what it was made from
    /// is the same and none of its candidates' fire time has come — or when the only
    /// candidates whose time came were its requests, delivered since (`KeptPlan.afterDeliveries`).
    /// The input is consumed: its memos and requests move into the plan (copied out and the
    /// input destroyed, they were retained and released field by field at every app run).
    func plan(_ input: consuming PlanInput) -> Plan {
        let current = input.today
        let time = input.time
        var memos = PlanMemos()
        swap(&memos, &input.memos)
        let memo = PlanMemo(
            day: current.day, planInputs: profile.planInputs, skipped: current.skipped, route: current.route,
            reason: current.reason, deliveries: current.deliveries.count, delivered: input.delivered.count, pending: input.pending.count,
            explained: explains)
        if memoises, let plan = kept(&memos, memo, &input) { return plan }
        let (reading, pending, delivered, reads) = (input.reading, input.pending, input.delivered, profile.planReads)
        var draft = PlanDraft()
        // Today's candidates, then tomorrow's: every one of tomorrow's fires after today's.
        let todayIDs = Self.candidateIDs(day: current.day, &memos, ruleBoxes)
        var today = candidates(
            for: current.day, today: current.day, reading: reading, at: time, ids: todayIDs, delivered: delivered, problems: &draft.atProblems)
        order(&today)
        let recovery = current.route == .recovery ? TodaysRecovery(day: current.day, reason: current.reason) : nil
        let gates = gateContext(current)
        var fires: [KeptFire] = []
        fires.reserveCapacity(today.count)
        for candidate in today {
            let acceptedBefore = draft.accepted.count
            decide(candidate, gates, &draft, skipped: current.skipped, recovery: recovery, today: current.day, at: time)
            draft.nextFire = Swift.min(draft.nextFire, candidate.fireAt)
            // Requested at its own time (not deferred): its delivery leaves the rest as it is.
            let delivers = draft.accepted.count > acceptedBefore && draft.accepted[draft.accepted.count - 1].scheduledAt == candidate.fireAt
            fires.append(KeptFire(at: candidate.fireAt, id: candidate.id, delivers: delivers))
        }
        let todayNextFire = draft.nextFire
        draft.nextFire = .distantFuture
        planTomorrow(&draft, current, gates: gates, recovery: recovery, memos: &memos, at: time)
        let tomorrowFire = draft.nextFire
        draft.nextFire = Swift.min(todayNextFire, tomorrowFire)
        // An `at:` that failed to evaluate leaves its type out of the plan, on the record.
        for message in draft.atProblems { draft.problem(at: time, message) }
        MaxPendingGate.apply(&draft.accepted, &draft.refusals, limit: ruleset.policy.maxPending)
        // Most plans leave every request as it was: then there is nothing to tell iOS.
        // (By index: a request copied out of an array retains each of its fields.)
        let accepted = draft.accepted
        var unchanged = pending.count == accepted.count
        for index in pending.indices where unchanged && !pending[index].sameRequest(as: accepted[index]) { unchanged = false }
        if !unchanged { recordChanges(from: pending, to: accepted, refusals: draft.refusals, at: time, into: &draft.records) }
        var inputs = memo
        inputs.pending = accepted.count
        // A delivery frees a place that a candidate refused for `max_pending` would take.
        let deliveries =
            explains || draft.refusals.contains { $0.reason == .maxPending }
            ? nil : KeptFires(today: fires, tomorrow: tomorrowFire)
        // A plan that reported a problem is made again (and reports it again) at every run.
        memos.plan =
            draft.reported
            ? nil
            : KeptPlan(
                .plan, inputs: inputs, facts: reading.facts, reads: reads, dayStart: dayStart,
                value: PlanKept(nextFire: draft.nextFire, planned: draft.planned, fires: deliveries))
        return Plan(pending: accepted, refused: draft.refusals, records: draft.records, planned: explains ? draft.planned : nil, memos: memos)
    }

    /// The last plan, when it stands (see `plan`): the requests iOS holds and the refusals as
    /// they are, moved out of `input` with `memos`; nil when the plan must be made again (then
    /// only the kept plan was taken out of `memos`: the plan made anew replaces it).
    private func kept(_ memos: inout PlanMemos, _ memo: PlanMemo, _ input: inout PlanInput) -> Plan? {
        // Taken out, not copied (a copy retained each of its arrays at every app run); a plan
        // made anew replaces it, and a plan that stands puts it back.
        guard let kept = memos.plan.take() else { return nil }
        let (time, reads) = (input.time, profile.planReads)
        var planned: [PlannedCandidate]?
        if kept.inputs == memo, time < kept.value.nextFire {
            // The inputs are compared above: only what the plan read of the facts is left.
            guard kept.read(input.reading.facts, reads, dayStart: dayStart) else { return nil }
            planned = explains ? keptCandidates(kept.value.planned, at: time, today: input.reading) : nil
            memos.plan = consume kept
        } else {
            guard let rest = kept.afterDeliveries(memo, at: time, delivered: input.delivered),
                kept.read(input.reading.facts, reads, dayStart: dayStart)
            else { return nil }
            memos.plan = rest
        }
        var plan = Plan(pending: [], refused: [], planned: planned, memos: PlanMemos())
        swap(&plan.pending, &input.pending)
        swap(&plan.refused, &input.refused)
        swap(&plan.memos, &memos)
        return plan
    }

    /// `cancel` records for the pending requests a plan drops and `schedule` records for the
    /// ones it adds or changes. A plan holds a few requests (at most `max_pending`, 64):
    /// looked up in turn, which costs less than hashing their ids, unless there are many.
    private func recordChanges(
        from old: [ScheduledNotification], to new: [ScheduledNotification], refusals: [SuppressedNotification], at time: Date,
        into records: inout [EngineRecord]
    ) {
        if old.count + new.count <= 32 {
            for request in old where !new.contains(where: { $0.sameID(as: request) }) {
                let reason = refusals.first { $0.id == request.id }?.reason
                records.append(EngineRecord(at: time, kind: .notificationCancelled(request, reason: reason.map(CancelReason.refused) ?? .replanned)))
            }
            for request in new where !(old.first { $0.sameID(as: request) }.map { $0.sameRequest(as: request) } ?? false) {
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
                let position = reading.routines.firstIndex(where: { prepared.routine(of: $0).value.id == routine }),
                position < profile.reminders.count, let reminder = profile.reminders[position]
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
    func gateContext(_ today: PlanDay) -> GateContext {
        GateContext(
            prepared: prepared, typeOff: profile.typeOff, ignoredStreaks: profile.ignoredStreaks, weakenedSince: weakenedSince,
            today: today.day, deliveries: today.deliveries, clock: clock, dayStart: dayStart)
    }

    /// Gates one candidate and records its fate.
    func decide(
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
        for message in problems { draft.problem(at: time, message) }
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

extension ScheduledNotification {
    /// Whether a re-plan would leave this request as it is with iOS (same time, text, title
    /// and presentation): then no `schedule` operation is needed.
    func sameRequest(as other: ScheduledNotification) -> Bool {
        id == other.id && scheduledAt == other.scheduledAt && text == other.text && title == other.title
            && interruptionLevel == other.interruptionLevel && relevance == other.relevance && actions == other.actions
            && createdReason == other.createdReason && redacted == other.redacted
    }
}
