import RulesDiagnostics
import RulesExpression

/// `lint.recovery_too_long`: more recovery items than `max_items`.
enum RecoveryTooLongCheck: LintRule {
    static let check = LintCheck(
        "lint.recovery_too_long", .warning,
        summary: "more recovery items than `max_items`",
        rationale: "The recovery route is the minimal route (three items in the shipped ruleset). Items past `max_items` are never offered.",
        triggering: [
            LintExample([
                "routines/r.yaml":
                    "- { id: water, name: 물, category: water, source: manual, unit: ml, goal: 1500 }\n- { id: steps, name: 걸음 수, category: steps, source: healthkit, unit: steps, goal: 6000 }\n",
                "rules/recovery.yaml": """
                recovery:
                  max_items: 1
                  items:
                    - { routine: water, target: 300 }
                    - 1️⃣{ routine: steps, delta: 300 }
                """,
            ])
        ],
        nonTriggering: [
            LintExample([
                "routines/r.yaml": "- { id: water, name: 물, category: water, source: manual, unit: ml, goal: 1500 }\n",
                "rules/recovery.yaml": "recovery:\n  max_items: 3\n  items:\n    - { routine: water, target: 300 }\n",
            ])
        ]
    ) { context, report in
        guard let recovery = context.ruleset.recovery, recovery.items.count > recovery.maxItems else { return [] }
        return recovery.items.dropFirst(recovery.maxItems).map { item in
            report.finding(
                item.origin, "recovery has \(recovery.items.count) items but max_items is \(recovery.maxItems); this one is never offered",
                hint: "remove items or raise max_items")
        }
    }
}
