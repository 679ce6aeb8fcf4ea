import RulesDiagnostics

/// What a population file leaves out of its users' behaviour. A fitted file writes a key only
/// where the telemetry showed it (fatigue, every notice off, acts need a trial), and a
/// hand-written one may never have had it; a tune or a diff whose verdict turns on a key no
/// group has is answered by construction, not by the users. Both say so.
package struct Unmodelled: Sendable, Equatable {
    /// Each key no group has, with what that means for the users.
    package var keys: [(key: String, meaning: String)]

    package static func == (a: Unmodelled, b: Unmodelled) -> Bool { a.keys.map(\.key) == b.keys.map(\.key) }

    package init(_ population: Population) {
        let groups = population.groups
        var keys: [(String, String)] = []
        if !groups.contains(where: { !$0.behaviour.acts.isEmpty || $0.behaviour.defaultAct != nil }) {
            keys.append(("acts", "a notice never makes anybody do anything"))
        }
        if !groups.contains(where: { $0.behaviour.fatigueAfter != nil && $0.behaviour.fatiguePerExtra > 0 }) {
            keys.append(("fatigue", "more notices a day never make anybody ignore more"))
        }
        if !groups.contains(where: { $0.behaviour.optOutType > 0 }) { keys.append(("opt_out.type", "nobody switches a notice type off")) }
        if !groups.contains(where: { $0.behaviour.optOutAll > 0 }) { keys.append(("opt_out.all", "nobody switches every notice off")) }
        if !groups.contains(where: { !$0.settings.isEmpty }) {
            keys.append(("settings", "nobody sets a reminder or a bedtime, so those notices never fire"))
        }
        if !groups.contains(where: { ($0.between?.logitSD ?? 0) > 0 || ($0.between?.minutesSD ?? 0) > 0 }) {
            keys.append(("between_users", "users of a group differ only from day to day"))
        }
        self.keys = keys
    }

    /// The key a metric turns on that no group models, with its meaning (nil: none).
    package func key(for metric: String) -> (key: String, meaning: String)? {
        let parts = metric.split(separator: ".").map(String.init)
        let needs: String?
        if metric.hasPrefix("answers.opted_out_any") {
            needs = ["opt_out.all", "opt_out.type"].first { key in keys.contains { $0.key == key } }
        } else if metric.hasPrefix("answers.opted_out_all") {
            needs = "opt_out.all"
        } else if parts.count >= 4, parts[0] == "answers", parts[1] == "by_type", parts[3] == "opted_out" {
            needs = "opt_out.type"
        } else if parts.count >= 4, parts[0] == "answers", parts[1] == "by_type", parts[3].hasPrefix("acted") {
            needs = "acts"
        } else if parts.count >= 4, parts[0] == "answers", parts[1] == "completions", parts[3] == "nudged" {
            needs = "acts"
        } else {
            needs = nil
        }
        return needs.flatMap { key in keys.first { $0.key == key } }
    }

    /// `the population does not model: fatigue (…); opt_out.all (…)` — nil when it models all.
    package var line: String? {
        guard !keys.isEmpty else { return nil }
        return "the population does not model " + keys.map { "\($0.key) (\($0.meaning))" }.joined(separator: "; ")
            + ": a verdict that turns on these is not answered by it"
    }

    package var json: JSONValue {
        .array(keys.map { .object([("key", .string($0.key)), ("meaning", .string($0.meaning))]) })
    }
}
