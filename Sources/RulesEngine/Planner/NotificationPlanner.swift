import Foundation
import RulesExpression
import Ruleset

/// A candidate and what the gates decided, kept from the last plan to explain it on demand.
struct PlannedCandidate: Sendable {
    var candidate: Candidate
    var reason: GateReason?
    var gates: GateOutcome
    var at: Date
    var today: Bool
}

/// A notification rule behind one reference: candidates are copied many times per plan,
/// and a rule is a large value.
final class RuleBox: Sendable {
    let value: NotificationRule
    /// Its text and title templates with their surfaces' fallbacks (looked up once), and
    /// its thread.
    let body: ResolvedTemplate?
    let title: ResolvedTemplate?
    let threadID: String
    /// Its place in the ruleset's notifications (for tables worked out per profile).
    let index: Int

    init(_ value: NotificationRule, index: Int, in ruleset: Ruleset) {
        self.value = value
        self.index = index
        func resolve(_ id: String) -> ResolvedTemplate? {
            ruleset.template(id).map {
                ResolvedTemplate(
                    template: $0, fallback: ruleset.surface($0.surface)?.fallback ?? "",
                    refusedAt: TemplateRenderer.refusedSegment($0, in: ruleset))
            }
        }
        body = resolve(value.template)
        title = value.title.flatMap(resolve)
        threadID = "thread.\(value.category)"
    }
}

/// A template with its surface's fallback, behind one reference (copying the template out
/// of the rule's box retained each of its fields).
final class ResolvedTemplate: Sendable {
    let template: Template
    let fallback: String
    /// Its refused segment (see `TemplateRenderer.refusedSegment`).
    let refusedAt: Int?
    /// Its text when it has no placeholder (then it renders as it is).
    let constantText: String?

    init(template: Template, fallback: String, refusedAt: Int?) {
        self.template = template
        self.fallback = fallback
        self.refusedAt = refusedAt
        if template.segments.count == 1, case .text(let literal) = template.segments[0] {
            constantText = literal
        } else {
            constantText = template.segments.isEmpty ? "" : nil
        }
    }
}

/// Tomorrow's gated candidates, kept while what plans read off the profile
/// (`ProfileDerived.planVersion`) and the known permissions (which `health.*` reads when
/// there is no sync yet) do not change. Immutable, behind one reference: engines that
/// share it cannot change it, and letting go of it is one release.
final class TomorrowPlan: Sendable {
    let day: Int
    let planVersion: Int
    let permissions: KnownPermissions
    /// The planning run's time of day, when tomorrow's plan reads it
    /// (`RulesetDerived.tomorrowReadsNow`), else nil.
    let now: Int?
    let candidates: [Candidate]
    let accepted: [ScheduledNotification]
    let refusals: [SuppressedNotification]
    let planned: [PlannedCandidate]

    init(
        day: Int, planVersion: Int, permissions: KnownPermissions, now: Int?, candidates: [Candidate], accepted: [ScheduledNotification],
        refusals: [SuppressedNotification], planned: [PlannedCandidate]
    ) {
        self.day = day
        self.planVersion = planVersion
        self.now = now
        self.permissions = permissions
        self.candidates = candidates
        self.accepted = accepted
        self.refusals = refusals
        self.planned = planned
    }
}

/// What a plan was made from, to tell whether the next app run may keep it: a plan is a
/// function of the facts it reads (`RulesetDerived.planReads`), what it reads off the
/// profile (`ProfileDerived.planVersion`), the day's
/// route, skip, deliveries and pending requests, and — through "fires after now" — of the
/// time only when one of its candidates' fire time has come.
struct PlanMemo: Sendable, Equatable {
    var day: Int
    var planVersion: Int
    var skipped: Bool
    var route: RouteKind
    var reason: String
    var deliveries: Int
    var delivered: Int
    var pending: Int
}

/// The request ids of a day's candidates (`<type>.<yyyymmdd>`, by rule index; per-routine
/// types are named when made), kept for today and tomorrow instead of formatted at every plan.
struct CandidateIDs: Sendable {
    var day: Int
    var date: String
    var ids: [String]
}

/// The latest notification of a category (see `plan`).
struct CategoryTime {
    var category: String
    var at: Date
}

/// The last plan's inputs and the soonest fire time among its candidates (immutable,
/// behind one reference, as `TomorrowPlan`).
final class KeptPlan: Sendable {
    let inputs: PlanMemo
    /// The facts the plan read (`ProfileDerived.planReads`), as they were, and the sides of
    /// the constants its banded facts were on.
    let reads: FactSample
    let sides: [UInt8]
    let nextFire: Date

    init(inputs: PlanMemo, reads: FactSample, sides: [UInt8], nextFire: Date) {
        self.inputs = inputs
        self.reads = reads
        self.sides = sides
        self.nextFire = nextFire
    }
}

/// One candidate of a plan: a notification type (and routine) on a logical day.
struct Candidate: Sendable {
    var box: RuleBox
    var routine: String?
    var day: Int
    /// Fire time, seconds since midnight, and its instant.
    var seconds: Int
    var fireAt: Date
    var facts: FactValues
    var id: String
}

extension OperatorEngine {
    /// Recomputes the plan from what the app knows now (SPEC §5.6): the rest of today plus
    /// tomorrow's candidates against a fresh day, the gates in order, at most `max_pending`
    /// soonest first; emits `schedule` / `cancel` records against the previous plan.
    mutating func plan(at time: Date, today reading: DayReading) {
        guard let current = planDay else { return }
        let memo = PlanMemo(
            day: current.day, planVersion: fromProfile.planVersion, skipped: current.skipped, route: current.route,
            reason: current.reason, deliveries: current.deliveries.count, delivered: delivered.count, pending: pending.count)
        let reads = fromProfile.planReads
        if memoises, let kept = planMemo, kept.inputs == memo, time < kept.nextFire, kept.reads.matches(reading.facts, slots: reads.slots),
            reads.sidesMatch(kept.sides, reading.facts, dayStart: dayStart)
        {
            keepPlan(at: time, today: reading)
            return
        }
        let recordsBefore = records.count
        // Explanations of earlier plans' candidates are replaced by this plan's.
        plannedCandidates.removeAll(keepingCapacity: true)
        var accepted: [ScheduledNotification] = []
        var refusals: [SuppressedNotification] = []
        accepted.reserveCapacity(8)
        refusals.reserveCapacity(8)
        // Today's candidates, then tomorrow's: every one of tomorrow's fires after today's.
        var atProblems: [String] = []
        // (The ids first: a mutating call inside the arguments made Swift copy the engine.)
        let todayIDs = candidateIDs(day: current.day)
        var today = self.candidates(for: current.day, reading: reading, at: time, ids: todayIDs, problems: &atProblems)
        order(&today)
        let recovery = current.route == .recovery ? TodaysRecovery(day: current.day, reason: current.reason) : nil
        for candidate in today {
            decide(candidate, accepted: &accepted, refusals: &refusals, skipped: current.skipped, recovery: recovery, today: current.day, at: time)
        }
        // Tomorrow's candidates and gates depend on the profile alone, unless one of today's
        // notifications is within a category's cooldown of one of them; so they are gated
        // once per profile and day.
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
        for request in accepted { note(request.category, request.scheduledAt) }
        for delivery in current.deliveries { note(delivery.category, delivery.at) }
        let cooldown = TimeInterval(ruleset.policy.categoryCooldown)
        func touchesToday(_ candidates: [Candidate]) -> Bool {
            candidates.contains { candidate in
                let category = candidate.box.value.category
                return latestToday.contains { $0.category == category && $0.at.addingTimeInterval(cooldown) > candidate.fireAt }
            }
        }
        // A request of today's deferred into tomorrow counts against tomorrow's cap: no cache.
        let deferredIntoTomorrow = accepted.contains { $0.day != current.day }
        var nextFire = Date.distantFuture
        for candidate in today { nextFire = Swift.min(nextFire, candidate.fireAt) }
        let tomorrowNow = derived.tomorrowReadsNow ? clock.local(time).seconds : nil
        if memoises, let cached = tomorrowPlan, cached.day == current.day + 1, cached.planVersion == fromProfile.planVersion,
            cached.permissions == lastPermissions, cached.now == tomorrowNow, !deferredIntoTomorrow, !touchesToday(cached.candidates)
        {
            for candidate in cached.candidates { nextFire = Swift.min(nextFire, candidate.fireAt) }
            accepted += cached.accepted
            refusals += cached.refusals
            plannedCandidates += cached.planned.map { planned in
                var copy = planned
                copy.at = time
                return copy
            }
        } else {
            let tomorrow = DayState(day: current.day + 1)
            let fresh = read(tomorrow, route: .regular, risk: .low, now: clock.local(time).seconds)
            let tomorrowIDs = candidateIDs(day: tomorrow.day)
            var made = self.candidates(for: tomorrow.day, reading: fresh, at: time, ids: tomorrowIDs, problems: &atProblems)
            order(&made)
            for candidate in made { nextFire = Swift.min(nextFire, candidate.fireAt) }
            let before = (accepted.count, refusals.count, plannedCandidates.count)
            for candidate in made {
                decide(candidate, accepted: &accepted, refusals: &refusals, skipped: false, recovery: recovery, today: current.day, at: time)
            }
            tomorrowPlan =
                touchesToday(made) || deferredIntoTomorrow
                ? nil
                : TomorrowPlan(
                    day: current.day + 1, planVersion: fromProfile.planVersion, permissions: lastPermissions, now: tomorrowNow, candidates: made,
                    accepted: Array(accepted[before.0...]),
                    refusals: Array(refusals[before.1...]), planned: Array(plannedCandidates[before.2...]))
        }
        // An `at:` that failed to evaluate leaves its type out of the plan, on the record.
        for message in atProblems { problem(at: time, "expression.evaluation", message) }
        accepted.sort { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        if accepted.count > ruleset.policy.maxPending {
            for extra in accepted[ruleset.policy.maxPending...] {
                refusals.append(
                    SuppressedNotification(
                        id: extra.id, type: extra.type, routine: extra.routine, fireAt: extra.scheduledAt, day: extra.day, reason: .maxPending))
            }
            accepted.removeSubrange(ruleset.policy.maxPending...)
        }
        // Most plans leave every request as it was: then there is nothing to tell iOS.
        // (By index: a request copied out of an array retains each of its fields.)
        var unchanged = pending.count == accepted.count
        for index in pending.indices where unchanged && !pending[index].sameRequest(as: accepted[index]) { unchanged = false }
        if !unchanged { recordChanges(from: pending, to: accepted, refusals: refusals, at: time) }
        pending = accepted
        refused = refusals
        // A plan that reported a problem is made again (and reports it again) at every run.
        var reported = false
        for index in recordsBefore..<records.count {
            if case .problem = records[index].kind { reported = true }
        }
        var inputs = memo
        inputs.pending = pending.count
        planMemo =
            reported
            ? nil
            : KeptPlan(
                inputs: inputs, reads: FactSample(reading.facts, slots: reads.slots), sides: reads.sides(of: reading.facts, dayStart: dayStart),
                nextFire: nextFire)
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

    /// The plan of the last run stands: its candidates are explained as seen now — today's
    /// with this run's facts, as a new plan would give them (a banded fact may have moved
    /// within its band).
    private mutating func keepPlan(at time: Date, today reading: DayReading) {
        for index in plannedCandidates.indices {
            plannedCandidates[index].at = time
            guard plannedCandidates[index].today else { continue }
            var facts = reading.facts
            if let routine = plannedCandidates[index].candidate.routine,
                let position = reading.routines.firstIndex(where: { $0.box.value.id == routine }),
                position < fromProfile.reminders.count, let reminder = fromProfile.reminders[position]
            {
                bind(&facts, reading.routines[position], reminder: reminder)
            }
            plannedCandidates[index].candidate.facts = facts
        }
    }

    /// The ids of `day`'s candidates, from the two days kept (today's and tomorrow's).
    mutating func candidateIDs(day: Int) -> CandidateIDs {
        for index in keptCandidateIDs.indices where keptCandidateIDs[index].day == day { return keptCandidateIDs[index] }
        let date = LocalClock.compactDate(day)
        let made = CandidateIDs(day: day, date: date, ids: ruleBoxes.map { String.joined($0.value.id, ".", date) })
        keptCandidateIDs.removeAll { $0.day < day - 1 || $0.day > day + 1 }
        keptCandidateIDs.append(made)
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

    /// Gates one candidate and records its fate.
    mutating func decide(
        _ candidate: Candidate, accepted: inout [ScheduledNotification], refusals: inout [SuppressedNotification], skipped: Bool,
        recovery: TodaysRecovery?, today day: Int, at time: Date
    ) {
        var gates = GateOutcome()
        var problems: [String] = []
        let today = candidate.day == day
        let decision = gate(
            candidate, accepted: accepted, skipped: skipped && today, recovery: recovery, explain: &gates, problems: &problems)
        for message in problems { problem(at: time, "expression.evaluation", message) }
        plannedCandidates.append(PlannedCandidate(candidate: candidate, reason: decision.reason, gates: gates, at: time, today: today))
        if let reason = decision.reason {
            refusals.append(
                SuppressedNotification(
                    id: candidate.id, type: candidate.box.value.id, routine: candidate.routine, fireAt: candidate.fireAt, day: candidate.day,
                    reason: reason))
        } else if let scheduled = decision.scheduled {
            accepted.append(scheduled)
        }
    }

    /// The candidates of `day` that fire after `time` and were not delivered already; an
    /// `at:` that fails to evaluate adds its message to `problems`.
    func candidates(for day: Int, reading base: DayReading, at time: Date, ids: CandidateIDs, problems: inout [String]) -> [Candidate] {
        let isToday = day == currentDay
        let date = ids.date
        var result: [Candidate] = []
        result.reserveCapacity(ruleBoxes.count)
        // Fields read through the boxes: a rule or routine copied out costs a retain per field.
        for box in ruleBoxes {
            if box.value.perRoutine {
                // Reminders by routine index, worked out per profile (not two lookups by name here).
                let reminders = fromProfile.reminders
                for (index, reading) in base.routines.enumerated() where reading.enabled {
                    guard index < reminders.count, let reminder = reminders[index] else { continue }
                    let routine = reading.box.value.id
                    var facts = base.facts
                    bind(&facts, reading, reminder: reminder)
                    if let made = candidate(
                        box, routine: routine, facts: facts, day: day, date: date, today: isToday, after: time, problems: &problems)
                    {
                        result.append(made)
                    }
                }
            } else if let made = candidate(
                box, routine: nil, facts: base.facts, day: day, date: date, today: isToday, after: time, id: ids.ids[safe: box.index],
                problems: &problems)
            {
                result.append(made)
            }
        }
        return result
    }

    /// One candidate: its `at:` with `facts`, unless it fires by `time` or was delivered.
    private func candidate(
        _ box: RuleBox, routine: String?, facts: FactValues, day: Int, date: String, today: Bool, after time: Date, id made: String? = nil,
        problems: inout [String]
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
        let id = made ?? routine.map { box.value.id + "." + $0 + "." + date } ?? box.value.id + "." + date
        // A day has a few deliveries: compared in turn (hashing the id costs more).
        if today, !delivered.isEmpty, delivered.keys.contains(where: { $0 == id }) { return nil }
        return Candidate(box: box, routine: routine, day: day, seconds: seconds % 86_400, fireAt: fireAt, facts: context.facts, id: id)
    }

    /// Binds `routine.*` for a per-routine notification.
    func bind(_ facts: inout FactValues, _ reading: RoutineReading, reminder: Int) {
        layout.routineBinding.put(reading, into: &facts)
        facts.put(layout.routineID, .string(reading.box.value.id))
        facts.put(layout.routineReminder, cell: .time(reminder))
    }

    /// Facts moved to a fire time: `now` set there and risk re-derived.
    func factsAtFire(_ facts: FactValues, fireSeconds: Int) -> FactValues {
        var facts = facts
        if let now = layout.now { facts.patch(now, cell: .time(fireSeconds)) }
        let index = firstMatchIndex(ruleset.risk, \.when, facts: facts)
        if let risk = layout.risk { facts.patch(risk, cell: (index.map { ruleset.risk[$0].level } ?? .low).cell) }
        return facts
    }

    /// The gates in order (`runGates`), then the request as iOS will show it; nil reason
    /// means scheduled.
    private func gate(
        _ candidate: Candidate, accepted: [ScheduledNotification], skipped: Bool, recovery: TodaysRecovery?, explain: inout GateOutcome,
        problems: inout [String]
    ) -> (reason: GateReason?, scheduled: ScheduledNotification?) {
        var gated = GatedCandidate(
            candidate: candidate, fireSeconds: candidate.seconds, fireAt: candidate.fireAt, fireDay: candidate.day,
            facts: factsAtFire(candidate.facts, fireSeconds: candidate.seconds), level: candidate.box.value.interruptionLevel)
        let inputs = GateInputs(accepted: accepted, skipped: skipped, recovery: recovery)
        let refusal = runGates(&gated, inputs)
        explain = gated.outcome
        if !gated.problems.isEmpty { problems += gated.problems }
        if let refusal { return (refusal, nil) }
        return (nil, request(for: gated, recovery: recovery, problems: &problems))
    }

    /// The request iOS will hold for a candidate that passed every gate.
    func request(for gated: GatedCandidate, recovery: TodaysRecovery?, problems: inout [String]) -> ScheduledNotification {
        // Fields read through the box: copies retain every field.
        let box = gated.candidate.box
        let body = notificationText(box.body, facts: gated.facts, problems: &problems)
        let title = box.value.title == nil ? nil : notificationText(box.title, facts: gated.facts, problems: &problems)
        let reason: String
        if let recovery, gated.candidate.day == recovery.day {
            reason = recovery.reason
        } else {
            reason = firstMatchIndex(ruleset.route, \.when, facts: gated.facts).map { ruleset.route[$0].reason } ?? "default"
        }
        let redacted = body.redacted || (title?.redacted ?? false)
        return ScheduledNotification(
            id: gated.candidate.id, type: box.value.id, routine: gated.candidate.routine, scheduledAt: gated.fireAt, day: gated.fireDay,
            status: "scheduled", deepLink: box.value.deepLink, templateID: box.value.template, sensitive: redacted, createdReason: reason,
            interruptionLevel: gated.level, relevance: gated.relevance, threadID: box.threadID, category: box.value.category,
            actions: box.value.actions, title: title?.text, text: body.text, redacted: redacted)
    }

    /// A notification's text on its template's surface (the fallback when refused or unknown;
    /// no template: nothing, redacted).
    func notificationText(_ resolved: ResolvedTemplate?, facts: FactValues, problems: inout [String]) -> (text: String, redacted: Bool) {
        guard let resolved else { return ("", true) }
        if let text = resolved.constantText { return (text, false) }
        let fallback = resolved.fallback
        switch renderer.render(resolved.template, refusedAt: resolved.refusedAt, facts: facts) {
        case .rendered(let text): return (text, false)
        case .refused: return (fallback, true)
        case .unknown: return (fallback, false)
        case .failed(let message):
            problems.append(message)
            return (fallback, false)
        }
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
        guard let planned = plannedCandidates.first(where: { $0.today && $0.candidate.box.value.id == type }) else { return nil }
        let candidate = planned.candidate
        return (planned.reason, factsAtFire(candidate.facts, fireSeconds: candidate.seconds), candidate.box.value.when, candidate.seconds)
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
