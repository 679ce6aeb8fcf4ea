import RulesDiagnostics
import RulesExpression

/// `lint.ambiguous_time`: a time written with a one-digit hour.
enum AmbiguousTimeCheck: LintRule {
    /// `at: "8:30"` meant for the evening: times are 24-hour, so a one-digit hour is the morning.
    static let check = LintCheck(
        "lint.ambiguous_time", .error,
        summary: "a time written with a one-digit hour",
        rationale:
            "Times are 24-hour: `8:30` is 08:30 in the morning, though an evening notice is often meant, and a notice at the wrong end of the day is no small slip. Write the hour with two digits — 08:30 or 20:30 — so the file says which.",
        triggering: [
            LintExample([
                "rules/n.yaml": """
                notifications:
                  - id: evening_check
                    category: checkin
                    at: 1️⃣"8:30"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ],
        nonTriggering: [
            LintExample([
                "rules/n.yaml": """
                notifications:
                  - id: evening_check
                    category: checkin
                    at: "20:30"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        for rule in context.ruleset.notifications {
            let places: [(CompiledExpression?, Origin?)] = [(rule.at, rule.atOrigin), (rule.when, rule.whenOrigin)]
            for (expression, origin) in places {
                guard let expression, let written = oneDigitHour(expression.source) else { continue }
                let hour = Int(String(written.first ?? "0")) ?? 0
                let minutes = String(written.dropFirst(2))
                findings.append(
                    report.finding(
                        origin ?? rule.origin, "'\(written)' in notification '\(rule.id)' is 0\(written), in the morning",
                        hint: "write 0\(hour):\(minutes) for the morning or \(hour + 12):\(minutes) for the evening (times are 24-hour)"))
            }
        }
        return findings
    }
}
