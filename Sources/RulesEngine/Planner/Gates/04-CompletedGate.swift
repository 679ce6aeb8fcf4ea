import Ruleset

/// `completed`: a per-routine reminder whose routine is done (with `cancel_when_completed`).
enum CompletedGate: Gate {
    static let reason = GateReason.completed

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        let rule = gated.candidate.box
        guard rule.value.perRoutine, context.ruleset.policy.cancelWhenCompleted, let routine = gated.candidate.routine,
            let index = context.ruleset.routines.firstIndex(where: { $0.id == routine }), index < context.layout.routines.count,
            let slot = context.layout.routines[index].status, case .string(let status) = gated.facts[slot],
            status == RoutineStatus.completed.rawValue
        else { return .passed }
        return .refused("routine '\(routine)' is done")
    }
}
