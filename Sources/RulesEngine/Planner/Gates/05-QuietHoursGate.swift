import RulesExpression
import Ruleset

/// `quiet_hours`: inside quiet hours a candidate is dropped, allowed, or deferred to their
/// end (see `QuietHours`).
enum QuietHoursGate: Gate {
    static let reason = GateReason.quietHours

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        let policy = context.ruleset.policy
        guard policy.isQuiet(gated.fireSeconds), let quiet = policy.quietHours else { return .passed }
        switch gated.candidate.box.value.inQuietHours {
        case .drop: return .refused("\(TimeFormat.clock(gated.fireSeconds)) is inside quiet hours")
        case .allow: return .passed
        case .defer:
            let deferredTo = QuietHours.end(after: gated.fireAt, end: quiet.end, clock: context.clock)
            gated.deferredBy = Int(deferredTo.timeIntervalSince(gated.fireAt))
            gated.fireSeconds = quiet.end
            gated.fireAt = deferredTo
            gated.fireDay = context.clock.logical(deferredTo, dayStart: context.dayStart).day
            gated.facts = context.atFire(gated.candidate.facts, fireSeconds: quiet.end, problems: &gated.problems)
            gated.outcome.deferredTo = quiet.end
            return .passed
        }
    }
}
