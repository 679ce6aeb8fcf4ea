import Foundation
import RulesDiagnostics
import RulesExpression

/// `lint.constant_condition`: a condition that is the same whatever the facts.
enum ConstantConditionCheck: LintRule {
    static let check = LintCheck(
        "lint.constant_condition", .warning,
        summary: "a condition that is the same whatever the facts",
        rationale:
            "A condition that can never be true makes its entry or template dead; one that is always true but not written `true` hides that fact from the reader.",
        triggering: [
            LintExample([
                "rules/route.yaml": """
                risk:
                  - level: high
                    when: 1️⃣now >= 21:00 && false
                  - level: low
                    when: true
                """
            ]),
            LintExample([
                "rules/route.yaml": """
                route:
                  - use: regular
                    when: 1️⃣1 < 2
                """
            ]),
        ],
        nonTriggering: [
            LintExample([
                "rules/route.yaml": """
                route:
                  - use: recovery
                    when: now >= 21:00 && completion_rate < 0.6
                  - use: regular
                    when: true
                """
            ])
        ]
    ) { context, report in
        var conditions: [(CompiledExpression, Origin, String)] = []
        for table in context.tables {
            conditions += table.entries.map { ($0.when, $0.whenOrigin, "\(table.name) entry") }
        }
        for template in context.ruleset.templates {
            if let when = template.when, let origin = template.whenOrigin { conditions.append((when, origin, "template '\(template.id)'")) }
        }
        return conditions.compactMap { when, origin, what -> Diagnostic? in
            switch context.truth(when) {
            case false?:
                return report.finding(origin, "the condition of this \(what) is never true", hint: "fix the condition or remove the entry")
            case true? where when.source.trimmingCharacters(in: .whitespaces) != "true":
                return report.finding(origin, "the condition of this \(what) is always true", hint: "write 'true' to say so")
            default:
                return nil
            }
        }
    }
}
