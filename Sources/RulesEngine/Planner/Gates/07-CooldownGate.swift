import Foundation

/// `category_cooldown`: less than the cooldown from a delivery or request of the same
/// category (exactly the cooldown passes).
enum CooldownGate: Gate {
    static let reason = GateReason.categoryCooldown

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        let category = gated.candidate.box.value.category
        let cooldown = TimeInterval(context.ruleset.policy.categoryCooldown)
        let fireAt = gated.fireAt
        // The first delivery, then the first request, of the category within the cooldown.
        func near(_ time: Date) -> Bool { abs(fireAt.timeIntervalSince(time)) < cooldown }
        var close = context.deliveries.first { $0.category == category && near($0.at) }?.at
        if close == nil, let index = inputs.accepted.firstIndex(where: { $0.category == category && near($0.scheduledAt) }) {
            close = inputs.accepted[index].scheduledAt
        }
        guard let close else { return .passed }
        return .refused("category '\(category)' delivered or scheduled at \(context.clock.iso8601(close))")
    }
}
