import RulesDiagnostics
import RulesExpression

/// `lint.long_cooldown`: a category cooldown of a day or more.
enum LongCooldownCheck: LintRule {
    static let check = LintCheck(
        "lint.long_cooldown", .warning,
        summary: "a category cooldown of a day or more",
        rationale:
            "The cooldown spaces deliveries of one category within a day; a day or more silences each category after its first notification for good.",
        triggering: [LintExample(["rules/p.yaml": "policy:\n  category_cooldown: 1️⃣24h\n"])],
        nonTriggering: [LintExample(["rules/p.yaml": "policy:\n  category_cooldown: 90m\n"])]
    ) { context, report in
        let policy = context.ruleset.policy
        guard policy.categoryCooldown >= 86_400, let origin = context.ruleset.cooldownOrigin else { return [] }
        return [
            report.finding(
                origin, "category_cooldown is \(TimeFormat.duration(policy.categoryCooldown)): a category could notify only once",
                hint: "the shipped policy uses 90m")
        ]
    }
}
