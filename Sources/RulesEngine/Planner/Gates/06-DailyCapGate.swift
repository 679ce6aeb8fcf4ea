/// `daily_cap`: deliveries made plus requests already scheduled on the day it fires.
enum DailyCapGate: Gate {
    static let reason = GateReason.dailyCap

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        let maximum = context.ruleset.policy.maxPerDay
        let delivered = gated.fireDay == context.today ? context.deliveries.count : 0
        let scheduled = inputs.accepted.count { $0.day == gated.fireDay }
        guard delivered + scheduled >= maximum else { return .passed }
        return .refused("\(delivered + scheduled) of \(maximum) already delivered or scheduled")
    }
}
