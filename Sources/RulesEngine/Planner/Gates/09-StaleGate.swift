import RulesExpression
import Ruleset

/// `stale`: deferred for longer than the type's `expires_after`.
enum StaleGate: Gate {
    static let reason = GateReason.stale

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        guard gated.deferredBy > 0, let expires = gated.candidate.box.value.expiresAfter, gated.deferredBy > expires else { return .passed }
        return .refused("deferred \(TimeFormat.duration(gated.deferredBy)), over expires_after \(TimeFormat.duration(expires))")
    }
}
