import Foundation
import RulesDiagnostics
import RulesExpression

extension LintCatalogue {
    static let unreachableEntry = LintCheck(
        "lint.unreachable_entry", .warning,
        summary: "a table entry after an entry that always matches",
        rationale:
            "Risk, route and judgement tables are first-match: once an entry's condition is always true, nothing below it can ever be chosen. Move the unconditional entry to the end.",
        triggering: [
            LintExample([
                "rules/route.yaml": """
                risk:
                  - level: low
                    when: true
                  - 1️⃣level: high
                    when: now >= 21:00
                """
            ])
        ],
        nonTriggering: [
            LintExample([
                "rules/route.yaml": """
                risk:
                  - level: high
                    when: now >= 21:00
                  - level: low
                    when: true
                """
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        for table in context.tables {
            guard let always = table.entries.firstIndex(where: { context.truth($0.when) == true }) else { continue }
            let line = table.entries[always].origin.location.line
            for entry in table.entries[(always + 1)...] {
                findings.append(
                    report.finding(
                        entry.origin, "this \(table.name) entry can never be chosen: the entry on line \(line) always matches",
                        hint: "move the entry with 'when: true' to the end of the table"))
            }
        }
        return findings
    }

    static let tableFallThrough = LintCheck(
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

    static let constantCondition = LintCheck(
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
