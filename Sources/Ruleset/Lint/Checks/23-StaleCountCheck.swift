import RulesDiagnostics
import RulesExpression

/// `lint.stale_count`: a recovery line that writes how many items there are, and a number
/// the recovery route does not offer.
enum StaleCountCheck: LintRule {
    static let check = LintCheck(
        "lint.stale_count", .warning,
        summary: "a recovery line that writes a number of items the recovery route does not offer",
        rationale:
            "\"세 개만 살리자\" is true while the recovery route offers three items; add a fourth (or change `max_items`) and the line goes on saying three. Write the number as `{recovery.item_count}개`, which follows the route.",
        triggering: [
            LintExample([
                "rules/route.yaml": """
                recovery:
                  max_items: 2
                  items:
                    - { routine: water, target: 300 }
                    - { routine: water, target: 500 }
                """,
                "routines/water.yaml": "id: water\nname: 물\ncategory: water\nsource: manual\nunit: ml\ngoal: 1500\n",
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_recovery
                    surface: home
                    event: home
                    when: route == "recovery"
                    text: 1️⃣전부 하려다 망하지 말고, 세 개만 살리자.
                """,
            ])
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_recovery
                    surface: home
                    event: home
                    when: route == "recovery"
                    text: 전부 하려다 망하지 말고, {recovery.item_count}개만 살리자.
                """
            ])
        ]
    ) { context, report in
        guard let recovery = context.ruleset.recovery else { return [] }
        let offered = Swift.min(recovery.maxItems, recovery.items.count)
        var findings: [Diagnostic] = []
        for template in context.ruleset.templates where isAboutRecovery(template) {
            var literal = ""
            for segment in template.segments { if case .text(let text) = segment { literal += text } }
            guard let (written, count) = KoreanCount.first(in: literal), count != offered else { continue }
            findings.append(
                report.finding(
                    template.textOrigin,
                    "template '\(template.id)' says '\(written)', but the recovery route offers up to \(offered) item\(offered == 1 ? "" : "s")",
                    hint: "write {recovery.item_count}개, which follows the route"))
        }
        return findings
    }

    /// A line for the recovery route: its condition compares the route with "recovery", or
    /// its event is one of the route's.
    static func isAboutRecovery(_ template: Template) -> Bool {
        if let event = template.event, event.hasPrefix("recovery") { return true }
        guard let when = template.when else { return false }
        return when.factsRead.contains("route") && when.source.contains("\"recovery\"")
    }
}
