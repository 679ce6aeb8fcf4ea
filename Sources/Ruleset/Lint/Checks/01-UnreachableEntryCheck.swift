import Foundation
import RulesDiagnostics
import RulesExpression

/// `lint.unreachable_entry`: a table entry after an entry that always matches.
enum UnreachableEntryCheck: LintRule {
    static let check = LintCheck(
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
}
