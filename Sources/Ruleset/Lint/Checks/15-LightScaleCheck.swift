import RulesDiagnostics
import RulesExpression

/// `lint.light_scale`: a light-route scale outside (0, 1].
enum LightScaleCheck: LintRule {
    static let check = LintCheck(
        "lint.light_scale", .error,
        summary: "a light-route scale outside (0, 1]",
        rationale: "The light route lowers goals (가벼운 루트); a scale of 0 or less removes them, one above 1 raises them.",
        triggering: [LintExample(["rules/light.yaml": "light:\n  scale: 1️⃣1.5\n"])],
        nonTriggering: [LintExample(["rules/light.yaml": "light:\n  scale: 0.6\n"])]
    ) { context, report in
        guard let light = context.ruleset.light, light.scale <= 0 || light.scale > 1 else { return [] }
        return [
            report.finding(
                light.origin, "light scale is \(Value.formatNumber(light.scale)); it must be above 0 and at most 1",
                hint: "the shipped light route uses 0.6")
        ]
    }
}
