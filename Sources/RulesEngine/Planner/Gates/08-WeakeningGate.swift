/// `weakened`: a type ignored `after_ignored` times in a row is off, delivered every other
/// day, or delivered passively (relevance 0.2).
enum WeakeningGate: Gate {
    static let reason = GateReason.weakened

    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult {
        let rule = gated.candidate.box
        let policy = context.ruleset.policy
        let streaks = context.ignoredStreaks
        guard rule.index < streaks.count, streaks[rule.index] >= policy.weakenAfterIgnored else { return .passed }
        switch policy.weakenEffect {
        case .off:
            return .refused("ignored \(policy.weakenAfterIgnored) times in a row: off")
        case .everyOtherDay:
            let day = gated.candidate.day
            let since = context.weakenedSince[rule.value.id] ?? day
            if (day - since) % 2 == 1 { return .refused("ignored \(policy.weakenAfterIgnored) times in a row: every other day") }
        case .passive:
            gated.level = .passive
            gated.relevance = 0.2
        }
        return .passed
    }
}
