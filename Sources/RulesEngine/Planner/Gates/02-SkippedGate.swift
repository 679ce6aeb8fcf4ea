/// `skipped`: the user skipped today (only today's candidates are asked).
enum SkippedGate: Gate {
    static let reason = GateReason.skipped

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        inputs.skipped ? .refused("the user skipped today") : .passed
    }
}
