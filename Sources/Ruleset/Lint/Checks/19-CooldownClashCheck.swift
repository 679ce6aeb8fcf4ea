import RulesDiagnostics
import RulesExpression

/// `lint.cooldown_clash`: two notifications of one category closer than the cooldown.
enum CooldownClashCheck: LintRule {
    static let check = LintCheck(
        "lint.cooldown_clash", .warning,
        summary: "two notifications of one category closer than the cooldown",
        rationale:
            "The category cooldown spaces deliveries of one category; a new 08:00 notice of the check-in category silently knocks out the 09:00 one on every day the first is delivered.",
        triggering: [
            LintExample([
                "rules/n.yaml": """
                policy:
                  category_cooldown: 90m
                notifications:
                  - id: early
                    category: checkin
                    at: "08:00"
                    template: checkin_ready
                  - id: morning
                    category: checkin
                    at: 1️⃣"09:00"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ],
        nonTriggering: [
            LintExample([
                "rules/n.yaml": """
                policy:
                  category_cooldown: 90m
                notifications:
                  - id: early
                    category: checkin
                    at: "07:00"
                    template: checkin_ready
                  - id: morning
                    category: checkin
                    at: "09:00"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ]
    ) { context, report in
        let ruleset = context.ruleset
        let cooldown = ruleset.policy.categoryCooldown
        let dayStart = ruleset.dayStartsAt
        // Per category, the constant fire times sorted: the clashing pairs are the ones
        // within a cooldown of each other, found in a sliding window (n log n, not every pair
        // of rules), at most `maxPairs` of them.
        var byCategory: [String: [(position: Int, index: Int)]] = [:]
        var categories: [String] = []
        for (index, rule) in ruleset.notifications.enumerated() where !rule.perRoutine {
            guard case .time(let at)? = ConstantAnalysis.constantValue(rule.at.typed) else { continue }
            if byCategory[rule.category] == nil { categories.append(rule.category) }
            byCategory[rule.category, default: []].append((((at - dayStart) % 86_400 + 86_400) % 86_400, index))
        }
        let maxPairs = InputLimits.maxDiagnostics
        var pairs: [(later: Int, earlier: Int, gap: Int)] = []
        collect: for category in categories {
            let entries = (byCategory[category] ?? []).sorted { ($0.position, $0.index) < ($1.position, $1.index) }
            var start = 0
            for current in entries.indices {
                // (`start < current`: with a cooldown of 0 nothing clashes, and the window never
                // passes the entry itself.)
                while start < current, entries[current].position - entries[start].position >= cooldown { start += 1 }
                for other in start..<current {
                    let (a, b) = (entries[other], entries[current])
                    pairs.append((Swift.max(a.index, b.index), Swift.min(a.index, b.index), b.position - a.position))
                    if pairs.count >= maxPairs { break collect }
                }
            }
        }
        var findings: [Diagnostic] = []
        for pair in pairs.sorted(by: { ($0.later, $0.earlier) < ($1.later, $1.earlier) }) {
            let rule = ruleset.notifications[pair.later]
            let earlier = ruleset.notifications[pair.earlier]
            findings.append(
                report.finding(
                    rule.atOrigin,
                    "notifications '\(earlier.id)' (\(earlier.atOrigin.file):\(earlier.atOrigin.location.line)) and '\(rule.id)' share category '\(rule.category)' and fire \(TimeFormat.duration(pair.gap)) apart, under the \(TimeFormat.duration(cooldown)) cooldown",
                    hint:
                        "the later one is refused on every day the earlier is delivered: move one, give it its own category, or shorten category_cooldown"
                ))
        }
        return findings
    }
}
