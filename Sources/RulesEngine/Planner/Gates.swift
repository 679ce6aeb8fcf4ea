import Foundation
import RulesExpression
import Ruleset

/// A notification candidate on its way through the gates: where and when it would fire,
/// the facts at that moment, and how it would be presented. Gates may move it (quiet-hours
/// deferral) or change its presentation (passive weakening).
struct GatedCandidate {
    let candidate: Candidate
    var fireSeconds: Int
    var fireAt: Date
    /// The logical day it fires on (a deferred candidate's is the next day's).
    var fireDay: Int
    var facts: FactValues
    /// Seconds it was deferred out of quiet hours (0: not deferred).
    var deferredBy = 0
    var level: InterruptionLevel
    var relevance = 1.0
    /// The gates passed so far and the refusing one, for explanations.
    var outcome = GateOutcome()
    /// Evaluation errors met on the way (reported as `problem` records).
    var problems: [String] = []
}

/// How a candidate went through the gates: enough to explain it when asked (explanations
/// are read rarely; candidates are gated at every plan).
struct GateOutcome: Sendable {
    /// Gates passed, in `GateReason.planOrder`.
    var passed = 0
    /// What refused it (the gate after those passed), if one did.
    var refusal: String?
    /// Where quiet hours deferred it to (seconds since midnight), if they did.
    var deferredTo: Int?

    /// The explanation entries: each gate passed, then the refusing one.
    func entries(for rule: NotificationRule) -> [Explanation.Entry] {
        var entries: [Explanation.Entry] = []
        for gate in GateReason.planOrder.prefix(passed) {
            switch gate {
            case .conditionFalse where rule.when != nil:
                entries.append(Explanation.Entry(label: gate.rawValue, condition: rule.when?.source, origin: rule.whenOrigin, result: .matched))
            case .quietHours where deferredTo != nil:
                let to = TimeFormat.clock(deferredTo ?? 0)
                entries.append(Explanation.Entry(label: gate.rawValue, condition: "deferred to \(to)", origin: nil, result: .matched))
            default:
                entries.append(Explanation.Entry(label: gate.rawValue, condition: nil, origin: nil, result: .matched))
            }
        }
        if let refusal, passed < GateReason.planOrder.count {
            entries.append(Explanation.Entry(label: GateReason.planOrder[passed].rawValue, condition: refusal, origin: nil, result: .notMatched))
        }
        return entries
    }
}

/// What one gate decided.
enum GateResult {
    case passed
    /// Refused, with what refused it.
    case refused(String)
}

/// What the gates read besides the candidate: today's deliveries and this plan's requests.
struct GateInputs {
    var accepted: [ScheduledNotification]
    var skipped: Bool
    /// Today's recovery route and its reason, while it is in force (a request of today's
    /// gives that reason; others the route table's at their fire time).
    var recovery: TodaysRecovery?
}

/// The day and reason of the recovery route in force today.
struct TodaysRecovery {
    var day: Int
    var reason: String
}

extension GateReason {
    /// The gates a candidate passes, in order (`max_pending` is iOS's limit, applied to the
    /// whole plan afterwards).
    static let planOrder: [GateReason] = [
        .disabled, .skipped, .conditionFalse, .completed, .quietHours, .dailyCap, .categoryCooldown, .weakened, .stale,
    ]
}

extension OperatorEngine {
    /// Runs the gates in order; nil when the candidate passes them all, else the refusing one.
    func runGates(_ gated: inout GatedCandidate, _ inputs: GateInputs) -> GateReason? {
        for gate in GateReason.planOrder {
            switch check(gate, &gated, inputs) {
            case .passed:
                gated.outcome.passed += 1
            case .refused(let detail):
                gated.outcome.refusal = detail
                return gate
            }
        }
        return nil
    }

    private func check(_ gate: GateReason, _ gated: inout GatedCandidate, _ inputs: GateInputs) -> GateResult {
        switch gate {
        case .disabled: disabledGate(gated)
        case .skipped: inputs.skipped ? .refused("the user skipped today") : .passed
        case .conditionFalse: conditionGate(&gated)
        case .completed: completedGate(gated)
        case .quietHours: quietHoursGate(&gated)
        case .dailyCap: dailyCapGate(gated, inputs)
        case .categoryCooldown: cooldownGate(gated, inputs)
        case .weakened: weakeningGate(&gated)
        case .stale: staleGate(gated)
        case .maxPending: .passed
        }
    }

    /// `disabled`: the type's own bool setting (the setting named like the type) is false.
    func disabledGate(_ gated: GatedCandidate) -> GateResult {
        let box = gated.candidate.box
        let off = fromProfile.typeOff
        return box.index < off.count && off[box.index] ? .refused("setting '\(box.value.id)' is false") : .passed
    }

    /// `condition_false`: `when` does not hold at the fire time with what the app knows now.
    /// An evaluation error refuses too, and is reported.
    func conditionGate(_ gated: inout GatedCandidate) -> GateResult {
        let rule = gated.candidate.box
        guard let when = rule.value.when else { return .passed }
        var context = EvaluationContext(facts: gated.facts, dayStart: dayStart)
        do {
            guard try when.isTrue(&context) else { return .refused(when.source) }
        } catch {
            gated.problems.append(evaluationProblem(when, origin: rule.value.whenOrigin, error))
            return .refused(when.source)
        }
        return .passed
    }

    /// `completed`: a per-routine reminder whose routine is done (with `cancel_when_completed`).
    func completedGate(_ gated: GatedCandidate) -> GateResult {
        let rule = gated.candidate.box
        guard rule.value.perRoutine, ruleset.policy.cancelWhenCompleted, let routine = gated.candidate.routine,
            let index = ruleset.routines.firstIndex(where: { $0.id == routine }), index < layout.routines.count,
            let slot = layout.routines[index].status, case .string(let status) = gated.facts[slot],
            status == RoutineStatus.completed.rawValue
        else { return .passed }
        return .refused("routine '\(routine)' is done")
    }

    /// `quiet_hours`: inside quiet hours a candidate is dropped, allowed, or deferred to
    /// their end (see `QuietHours`).
    func quietHoursGate(_ gated: inout GatedCandidate) -> GateResult {
        let policy = ruleset.policy
        guard policy.isQuiet(gated.fireSeconds), let quiet = policy.quietHours else { return .passed }
        switch gated.candidate.box.value.inQuietHours {
        case .drop: return .refused("\(TimeFormat.clock(gated.fireSeconds)) is inside quiet hours")
        case .allow: return .passed
        case .defer:
            let deferredTo = QuietHours.end(after: gated.fireAt, end: quiet.end, clock: clock)
            gated.deferredBy = Int(deferredTo.timeIntervalSince(gated.fireAt))
            gated.fireSeconds = quiet.end
            gated.fireAt = deferredTo
            gated.fireDay = clock.logical(deferredTo, dayStart: dayStart).day
            gated.facts = factsAtFire(gated.candidate.facts, fireSeconds: quiet.end)
            gated.outcome.deferredTo = quiet.end
            return .passed
        }
    }

    /// `daily_cap`: deliveries made plus requests already scheduled on the day it fires.
    func dailyCapGate(_ gated: GatedCandidate, _ inputs: GateInputs) -> GateResult {
        let maximum = ruleset.policy.maxPerDay
        let delivered = gated.fireDay == day?.day ? (day?.deliveries.count ?? 0) : 0
        let scheduled = inputs.accepted.count { $0.day == gated.fireDay }
        guard delivered + scheduled >= maximum else { return .passed }
        return .refused("\(delivered + scheduled) of \(maximum) already delivered or scheduled")
    }

    /// `category_cooldown`: less than the cooldown from a delivery or request of the same
    /// category (exactly the cooldown passes).
    func cooldownGate(_ gated: GatedCandidate, _ inputs: GateInputs) -> GateResult {
        let category = gated.candidate.box.value.category
        let cooldown = TimeInterval(ruleset.policy.categoryCooldown)
        // The first delivery, then the first request, of the category within the cooldown.
        func near(_ time: Date) -> Bool { abs(gated.fireAt.timeIntervalSince(time)) < cooldown }
        var close = day?.deliveries.first { $0.category == category && near($0.at) }?.at
        if close == nil, let index = inputs.accepted.firstIndex(where: { $0.category == category && near($0.scheduledAt) }) {
            close = inputs.accepted[index].scheduledAt
        }
        guard let close else { return .passed }
        return .refused("category '\(category)' delivered or scheduled at \(clock.iso8601(close))")
    }

    /// `weakened`: a type ignored `after_ignored` times in a row is off, delivered every
    /// other day, or delivered passively (relevance 0.2).
    func weakeningGate(_ gated: inout GatedCandidate) -> GateResult {
        let rule = gated.candidate.box
        let policy = ruleset.policy
        let streaks = fromProfile.ignoredStreaks
        guard rule.index < streaks.count, streaks[rule.index] >= policy.weakenAfterIgnored else { return .passed }
        switch policy.weakenEffect {
        case .off:
            return .refused("ignored \(policy.weakenAfterIgnored) times in a row: off")
        case .everyOtherDay:
            let day = gated.candidate.day
            let since = profile.weakenedSince[rule.value.id] ?? day
            if (day - since) % 2 == 1 { return .refused("ignored \(policy.weakenAfterIgnored) times in a row: every other day") }
        case .passive:
            gated.level = .passive
            gated.relevance = 0.2
        }
        return .passed
    }

    /// `stale`: deferred for longer than the type's `expires_after`.
    func staleGate(_ gated: GatedCandidate) -> GateResult {
        guard gated.deferredBy > 0, let expires = gated.candidate.box.value.expiresAfter, gated.deferredBy > expires else { return .passed }
        return .refused("deferred \(TimeFormat.duration(gated.deferredBy)), over expires_after \(TimeFormat.duration(expires))")
    }

    /// The message of an evaluation error: the expression's file and line and the error.
    func evaluationProblem(_ expression: CompiledExpression, origin: Origin?, _ error: any Error) -> String {
        let place = origin.map { "\($0.file):\($0.location.line): " } ?? ""
        return "\(place)'\(expression.source)' could not be evaluated: \(error)"
    }
}
