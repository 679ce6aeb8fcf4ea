import Foundation
import RulesExpression
import Ruleset

/// A candidate and what the gates decided, kept from the last plan to explain it on demand.
struct PlannedCandidate: Sendable {
    var candidate: Candidate
    var reason: GateReason?
    var gates: [Explanation.Entry]
    var at: Date
    var today: Bool
}

/// A notification rule behind one reference: candidates are copied many times per plan,
/// and a rule is a large value.
final class RuleBox: Sendable {
    let value: NotificationRule
    init(_ value: NotificationRule) { self.value = value }
}

/// Tomorrow's gated candidates, kept while the profile does not change.
struct TomorrowPlan: Sendable {
    var day: Int
    var profileVersion: Int
    var candidates: [Candidate]
    var accepted: [ScheduledNotification]
    var refusals: [SuppressedNotification]
    var planned: [PlannedCandidate]
}

/// One candidate of a plan: a notification type (and routine) on a logical day.
struct Candidate: Sendable {
    var box: RuleBox
    var rule: NotificationRule { box.value }
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
        guard let current = day else { return }
        // Explanations of earlier plans' candidates are replaced by this plan's.
        plannedCandidates = []
        var accepted: [ScheduledNotification] = []
        var refusals: [SuppressedNotification] = []
        // Today's candidates, then tomorrow's: every one of tomorrow's fires after today's.
        let today = self.candidates(for: current, reading: reading, at: time)
        for candidate in ordered(today) {
            decide(candidate, accepted: &accepted, refusals: &refusals, skipped: current.skipped, at: time)
        }
        // Tomorrow's candidates and gates depend on the profile alone, unless one of today's
        // notifications is within a category's cooldown of one of them; so they are gated
        // once per profile and day.
        let latestToday = Dictionary(
            (accepted.map { ($0.category, $0.scheduledAt) } + current.deliveries.map { ($0.category, $0.at) }),
            uniquingKeysWith: { max($0, $1) })
        let cooldown = TimeInterval(ruleset.policy.categoryCooldown)
        func touchesToday(_ candidates: [Candidate]) -> Bool {
            candidates.contains { candidate in
                latestToday[candidate.rule.category].map { $0.addingTimeInterval(cooldown) > candidate.fireAt } ?? false
            }
        }
        // A request of today's deferred into tomorrow counts against tomorrow's cap: no cache.
        let deferredIntoTomorrow = accepted.contains { $0.day != current.day }
        if let cached = tomorrowPlan, cached.day == current.day + 1, cached.profileVersion == profileVersion, !deferredIntoTomorrow,
            !touchesToday(cached.candidates)
        {
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
            let made = self.candidates(for: tomorrow, reading: fresh, at: time)
            let before = (accepted.count, refusals.count, plannedCandidates.count)
            for candidate in ordered(made) {
                decide(candidate, accepted: &accepted, refusals: &refusals, skipped: false, at: time)
            }
            tomorrowPlan =
                touchesToday(made) || deferredIntoTomorrow
                ? nil
                : TomorrowPlan(
                    day: current.day + 1, profileVersion: profileVersion, candidates: made, accepted: Array(accepted[before.0...]),
                    refusals: Array(refusals[before.1...]), planned: Array(plannedCandidates[before.2...]))
        }
        accepted.sort { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        if accepted.count > ruleset.policy.maxPending {
            for extra in accepted[ruleset.policy.maxPending...] {
                refusals.append(
                    SuppressedNotification(
                        id: extra.id, type: extra.type, routine: extra.routine, fireAt: extra.scheduledAt, day: extra.day, reason: .maxPending))
            }
            accepted.removeSubrange(ruleset.policy.maxPending...)
        }
        let previous = Dictionary(uniqueKeysWithValues: pending.map { ($0.id, $0) })
        let refusedByID = Dictionary(refusals.map { ($0.id, $0.reason) }, uniquingKeysWith: { a, _ in a })
        let acceptedIDs = Set(accepted.map(\.id))
        for old in pending where !acceptedIDs.contains(old.id) {
            records.append(
                EngineRecord(at: time, kind: .notificationCancelled(old, reason: refusedByID[old.id].map(CancelReason.refused) ?? .replanned)))
        }
        for new in accepted where !(previous[new.id].map { $0.sameRequest(as: new) } ?? false) {
            records.append(EngineRecord(at: time, kind: .notificationScheduled(new)))
        }
        pending = accepted
        refused = refusals
    }

    /// Candidates in time order, then higher priority, then id (sorting indices: candidates
    /// are large).
    func ordered(_ candidates: [Candidate]) -> [Candidate] {
        candidates.indices.sorted { i, j in
            let a = candidates[i]
            let b = candidates[j]
            if a.fireAt != b.fireAt { return a.fireAt < b.fireAt }
            if a.rule.priority != b.rule.priority { return a.rule.priority > b.rule.priority }
            return a.id < b.id
        }.map { candidates[$0] }
    }

    /// Gates one candidate and records its fate.
    mutating func decide(
        _ candidate: Candidate, accepted: inout [ScheduledNotification], refusals: inout [SuppressedNotification], skipped: Bool, at time: Date
    ) {
        var gates: [Explanation.Entry] = []
        let today = candidate.day == day?.day
        let decision = gate(candidate, accepted: accepted, skipped: skipped && today, explain: &gates)
        plannedCandidates.append(PlannedCandidate(candidate: candidate, reason: decision.reason, gates: gates, at: time, today: today))
        if let reason = decision.reason {
            refusals.append(
                SuppressedNotification(
                    id: candidate.id, type: candidate.rule.id, routine: candidate.routine, fireAt: candidate.fireAt, day: candidate.day,
                    reason: reason))
        } else if let scheduled = decision.scheduled {
            accepted.append(scheduled)
        }
    }

    /// The candidates of `day` that fire after `time` and were not delivered already.
    func candidates(for day: DayState, reading base: DayReading, at time: Date) -> [Candidate] {
        let dayStart = profile.dayStart(ruleset)
        let isToday = day.day == self.day?.day
        var result: [Candidate] = []
        for box in ruleBoxes {
            let rule = box.value
            var bindings: [(routine: String?, facts: FactValues)] = []
            if rule.perRoutine {
                for reading in base.routines where reading.enabled {
                    guard let reminder = profile.reminder(for: reading.routine.id) else { continue }
                    var facts = base.facts
                    bind(&facts, reading, reminder: reminder)
                    bindings.append((reading.routine.id, facts))
                }
            } else {
                bindings.append((nil, base.facts))
            }
            for (routine, facts) in bindings {
                var context = EvaluationContext(facts: facts, dayStart: dayStart)
                guard case .time(let seconds)? = try? rule.at.value(&context) else { continue }
                let fireAt = clock.instant(logicalDay: day.day, seconds: seconds, dayStart: dayStart)
                guard fireAt > time else { continue }
                let id = [rule.id, routine, LocalClock.compactDate(day.day)].compactMap { $0 }.joined(separator: ".")
                if isToday, delivered[id] != nil { continue }
                result.append(Candidate(box: box, routine: routine, day: day.day, seconds: seconds % 86_400, fireAt: fireAt, facts: facts, id: id))
            }
        }
        return result
    }

    /// Binds `routine.*` for a per-routine notification.
    func bind(_ facts: inout FactValues, _ reading: RoutineReading, reminder: Int) {
        let values: [Value] = [
            .string(reading.routine.name), .number(reading.value), .number(reading.goal), .number(reading.progress),
            .string(reading.status.rawValue), .bool(reading.enabled), .bool(reading.routine.core),
        ]
        for (slot, value) in zip(layout.routineBinding, values) { facts.put(slot, value) }
        facts.put(layout.routineID, .string(reading.routine.id))
        facts.put(layout.routineReminder, .time(reminder))
    }

    /// Facts moved to a fire time: `now` set there and risk re-derived.
    func factsAtFire(_ facts: FactValues, fireSeconds: Int) -> FactValues {
        var facts = facts
        if let now = layout.now { facts.patch(now, .time(fireSeconds)) }
        let index = firstMatchIndex(ruleset.risk, \.when, facts: facts)
        if let risk = layout.risk { facts.patch(risk, .string((index.map { ruleset.risk[$0].level } ?? .low).rawValue)) }
        return facts
    }

    /// The gates in order; nil reason means scheduled.
    private func gate(
        _ candidate: Candidate, accepted: [ScheduledNotification], skipped: Bool, explain: inout [Explanation.Entry]
    ) -> (reason: GateReason?, scheduled: ScheduledNotification?) {
        let rule = candidate.rule
        let policy = ruleset.policy
        func refuse(_ reason: GateReason, _ detail: String? = nil) -> (GateReason?, ScheduledNotification?) {
            explain.append(Explanation.Entry(label: reason.rawValue, condition: detail, origin: nil, result: .notMatched))
            return (reason, nil)
        }
        func pass(_ gate: GateReason) { explain.append(Explanation.Entry(label: gate.rawValue, condition: nil, origin: nil, result: .matched)) }
        if profile.flag(rule.id) == false { return refuse(.disabled, "setting '\(rule.id)' is false") }
        pass(.disabled)
        if skipped { return refuse(.skipped, "the user skipped today") }
        pass(.skipped)
        var fireSeconds = candidate.seconds
        var fireAt = candidate.fireAt
        var facts = factsAtFire(candidate.facts, fireSeconds: fireSeconds)
        if let when = rule.when {
            var context = EvaluationContext(facts: facts, dayStart: profile.dayStart(ruleset))
            guard (try? when.isTrue(&context)) == true else { return refuse(.conditionFalse, when.source) }
            explain.append(
                Explanation.Entry(label: GateReason.conditionFalse.rawValue, condition: when.source, origin: rule.whenOrigin, result: .matched))
        } else {
            pass(.conditionFalse)
        }
        if rule.perRoutine, policy.cancelWhenCompleted, let routine = candidate.routine,
            let slot = layout.routines[safe: ruleset.routines.firstIndex { $0.id == routine }]?[safe: 4],
            case .string(let status)? = slot.map({ facts[$0] }), status == RoutineStatus.completed.rawValue
        {
            return refuse(.completed, "routine '\(routine)' is done")
        }
        pass(.completed)
        var deferredBy = 0
        if policy.isQuiet(fireSeconds) {
            switch rule.inQuietHours {
            case .drop: return refuse(.quietHours, "\(TimeFormat.clock(fireSeconds)) is inside quiet hours")
            case .allow: pass(.quietHours)
            case .defer:
                guard let quiet = policy.quietHours else { break }
                // The next wall-clock end of quiet hours, DST-correct: over a spring-forward
                // night 23:00 → 07:00 is seven hours, not eight.
                let end = quiet.end
                let local = clock.local(fireAt)
                let deferredTo = clock.instant(day: end > local.seconds ? local.day : local.day + 1, seconds: end)
                deferredBy = Int(deferredTo.timeIntervalSince(fireAt))
                fireSeconds = end
                fireAt = deferredTo
                facts = factsAtFire(candidate.facts, fireSeconds: fireSeconds)
                explain.append(
                    Explanation.Entry(
                        label: GateReason.quietHours.rawValue, condition: "deferred to \(TimeFormat.clock(end))", origin: nil, result: .matched))
            }
        } else {
            pass(.quietHours)
        }
        // A request belongs to the logical day it fires on (a deferred one, to the next).
        let fireDay = deferredBy > 0 ? clock.logical(fireAt, dayStart: profile.dayStart(ruleset)).day : candidate.day
        let sameDayDelivered = fireDay == day?.day ? (day?.deliveries.count ?? 0) : 0
        let sameDayScheduled = accepted.count { $0.day == fireDay }
        if sameDayDelivered + sameDayScheduled >= policy.maxPerDay {
            return refuse(.dailyCap, "\(sameDayDelivered + sameDayScheduled) of \(policy.maxPerDay) already delivered or scheduled")
        }
        pass(.dailyCap)
        let cooldown = TimeInterval(policy.categoryCooldown)
        let recent =
            (day?.deliveries ?? []).filter { $0.category == rule.category }.map(\.at)
            + accepted.filter { $0.category == rule.category }.map(\.scheduledAt)
        if let close = recent.first(where: { abs(fireAt.timeIntervalSince($0)) < cooldown }) {
            return refuse(.categoryCooldown, "category '\(rule.category)' delivered or scheduled at \(clock.iso8601(close))")
        }
        pass(.categoryCooldown)
        var level = rule.interruptionLevel
        var relevance = 1.0
        if (profile.ignoredStreaks[rule.id] ?? 0) >= policy.weakenAfterIgnored {
            switch policy.weakenEffect {
            case .off: return refuse(.weakened, "ignored \(policy.weakenAfterIgnored) times in a row: off")
            case .everyOtherDay:
                let since = profile.weakenedSince[rule.id] ?? candidate.day
                if (candidate.day - since) % 2 == 1 {
                    return refuse(.weakened, "ignored \(policy.weakenAfterIgnored) times in a row: every other day")
                }
            case .passive:
                level = .passive
                relevance = 0.2
            }
        }
        pass(.weakened)
        if deferredBy > 0, let expires = rule.expiresAfter, deferredBy > expires {
            return refuse(.stale, "deferred \(TimeFormat.duration(deferredBy)), over expires_after \(TimeFormat.duration(expires))")
        }
        pass(.stale)
        let body = notificationText(rule.template, facts: facts)
        let title = rule.title.map { notificationText($0, facts: facts) }
        let routeIndex = firstMatchIndex(ruleset.route, \.when, facts: facts)
        let reason =
            candidate.day == day?.day && day?.route.route == .recovery
            ? (day?.route.reason ?? "default")
            : routeIndex.map { ruleset.route[$0].reason } ?? "default"
        return (
            nil,
            ScheduledNotification(
                id: candidate.id, type: rule.id, routine: candidate.routine, scheduledAt: fireAt, day: fireDay, status: "scheduled",
                deepLink: rule.deepLink, templateID: rule.template, sensitive: body.redacted || (title?.redacted ?? false),
                createdReason: reason, interruptionLevel: level, relevance: relevance, threadID: "thread.\(rule.category)",
                category: rule.category, actions: rule.actions, title: title?.text, text: body.text,
                redacted: body.redacted || (title?.redacted ?? false))
        )
    }

    /// A notification's text on its template's surface (the fallback when refused or unknown).
    func notificationText(_ templateID: String, facts: FactValues) -> (text: String, redacted: Bool) {
        guard let template = ruleset.template(templateID) else { return ("", true) }
        let fallback = ruleset.surface(template.surface)?.fallback ?? ""
        switch renderer.render(template, facts: facts) {
        case .rendered(let text): return (text, false)
        case .refused: return (fallback, true)
        case .unknown, .failed: return (fallback, false)
        }
    }

    // MARK: the device

    /// Whether a request's `when` still holds at its fire time for the real health data
    /// (`truth`) and what the app knows otherwise. A request whose condition went false
    /// after the last app run is still delivered, marked `stale_condition`: the device model
    /// asks this before it reports the delivery.
    public func conditionHolds(for request: ScheduledNotification, truth: HealthReading?) -> Bool {
        guard let rule = ruleset.notification(request.type), let when = rule.when, var current = day else { return true }
        if let truth { current.health = truth }
        let seconds = clock.local(request.scheduledAt).seconds
        let reading = read(current, route: current.route.route, risk: current.risk ?? .low, now: seconds)
        var facts = reading.facts
        if let routine = request.routine, let routineReading = reading.routines.first(where: { $0.routine.id == routine }),
            let reminder = profile.reminder(for: routine)
        {
            bind(&facts, routineReading, reminder: reminder)
        }
        var context = EvaluationContext(facts: factsAtFire(facts, fireSeconds: seconds), dayStart: profile.dayStart(ruleset))
        return (try? when.isTrue(&context)) == true
    }

    /// A delivery: the request leaves the plan and counts for today's cap and cooldowns.
    mutating func deliver(_ request: ScheduledNotification, staleCondition: Bool) {
        pending.removeAll { $0.id == request.id }
        if request.day == day?.day {
            day?.deliveries.append(Delivery(type: request.type, category: request.category, at: request.scheduledAt))
            delivered[request.id] = request
        }
        records.append(EngineRecord(at: request.scheduledAt, kind: .notificationDelivered(request, staleCondition: staleCondition)))
    }

    /// With no device reporting deliveries, iOS is presumed to deliver the soonest pending
    /// request at its time; `truth` flags a stale condition.
    mutating func presumeNextDelivery(truth: ((Date) -> HealthReading?)?) {
        guard let next = pending.first else { return }
        let stale = truth.map { !conditionHolds(for: next, truth: $0(next.scheduledAt)) } ?? false
        deliver(next, staleCondition: stale)
    }

    /// The user's answer to a delivered notification.
    mutating func respond(id: String, response: NotificationResponse, health: HealthReading?, at time: Date) {
        // By request id, else the latest delivery of that type today (never dictionary order).
        let byType = delivered.values.filter { $0.type == id }.max { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        guard let notification = delivered[id] ?? byType else {
            return problem(at: time, "event.not_delivered", "no notification '\(id)' was delivered today")
        }
        let label: String
        switch response {
        case .opened: label = "opened"
        case .ignored: label = "ignored"
        case .action(let action): label = action.rawValue
        }
        records.append(EngineRecord(at: time, kind: .notificationResponse(id: notification.id, type: notification.type, response: label)))
        switch response {
        case .ignored:
            let streak = (profile.ignoredStreaks[notification.type] ?? 0) + 1
            profile.ignoredStreaks[notification.type] = streak
            if streak == ruleset.policy.weakenAfterIgnored, let today = day?.day { profile.weakenedSince[notification.type] = today }
        case .opened, .action(.openApp):
            profile.ignoredStreaks[notification.type] = 0
            profile.weakenedSince[notification.type] = nil
            records.append(EngineRecord(at: time, kind: .appRun(cause: "notification:\(notification.type)", synced: true)))
            sync(health, at: time)
            decide(at: time)
        case .action(let action):
            profile.ignoredStreaks[notification.type] = 0
            profile.weakenedSince[notification.type] = nil
            records.append(EngineRecord(at: time, kind: .appRun(cause: "notification_action:\(action.rawValue)", synced: false)))
            switch action {
            case .startRecovery: request(.startRecovery, at: time)
            case .skipToday: request(.skipToday, at: time)
            case .logWater250:
                if let water = ruleset.routines.first(where: { $0.category == .water }) {
                    addLog(routine: water.id, value: 250, unit: nil, source: .notificationAction, at: time)
                }
            case .completeSupplement: complete(category: .supplement, source: .notificationAction, at: time)
            case .completeSkincare: complete(category: .skincare, source: .notificationAction, at: time)
            case .openApp: break
            }
            decide(at: time)
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
        guard let planned = plannedCandidates.first(where: { $0.today && $0.candidate.rule.id == type }) else { return nil }
        let candidate = planned.candidate
        return (planned.reason, factsAtFire(candidate.facts, fireSeconds: candidate.seconds), candidate.rule.when, candidate.seconds)
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
