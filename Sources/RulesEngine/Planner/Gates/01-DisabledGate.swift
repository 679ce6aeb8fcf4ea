/// `disabled`: the type's own bool setting (the setting named like the type) is false.
enum DisabledGate: Gate {
    static let reason = GateReason.disabled

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        let box = gated.candidate.box
        let off = context.typeOff
        return box.index < off.count && off[box.index] ? .refused("setting '\(box.value.id)' is false") : .passed
    }
}
