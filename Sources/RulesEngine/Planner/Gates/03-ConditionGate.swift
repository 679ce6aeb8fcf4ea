import RulesExpression

/// `condition_false`: `when` does not hold at the fire time with what the app knows now.
/// An evaluation error refuses too, and is reported.
enum ConditionGate: Gate {
    static let reason = GateReason.conditionFalse

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        let rule = gated.candidate.box
        guard let when = rule.value.when else { return .passed }
        var evaluation = EvaluationContext(facts: gated.facts, dayStart: context.dayStart)
        do {
            guard try when.isTrue(&evaluation) else { return .refused(when.source) }
        } catch {
            gated.problems.append(evaluationProblem(when, origin: rule.value.whenOrigin, error))
            return .refused(when.source)
        }
        return .passed
    }
}
