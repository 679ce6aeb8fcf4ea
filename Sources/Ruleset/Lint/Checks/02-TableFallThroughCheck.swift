import Foundation
import RulesDiagnostics
import RulesExpression

/// `lint.table_fall_through`: a risk, route or day table that can fall through.
enum TableFallThroughCheck: LintRule {
    static let check = LintCheck(
        "lint.table_fall_through", .warning,
        summary: "a risk, route or day table that can fall through",
        rationale:
            "When no entry matches, the engine falls back to a default (risk 'low', route 'regular', day 'failed'). End the table with an entry whose condition is `true` so the fallback is written down where designers can see it.",
        triggering: [
            LintExample([
                "rules/route.yaml": """
                route:
                  - 1️⃣use: recovery
                    when: now >= 21:00
                """
            ])
        ],
        nonTriggering: [
            LintExample([
                "rules/route.yaml": """
                route:
                  - use: recovery
                    when: now >= 21:00
                  - use: regular
                    when: true
                """
            ])
        ]
    ) { context, report in
        context.tables.compactMap { table -> Diagnostic? in
            guard let fallback = table.fallback, let last = table.entries.last,
                !table.entries.contains(where: { context.truth($0.when) == true })
            else { return nil }
            return report.finding(
                last.origin, "the \(table.name) table can fall through: no entry matches in every case, and \(fallback)",
                hint: "end the table with an entry whose 'when' is true")
        }
    }
}
