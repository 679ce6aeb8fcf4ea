import RulesDiagnostics
import RulesExpression

/// `lint.never_fires`: a notification that can never be delivered.
enum NeverFiresCheck: LintRule {
    static let check = LintCheck(
        "lint.never_fires", .warning,
        summary: "a notification that can never be delivered",
        rationale:
            "A notification whose `at` is a fixed time inside quiet hours (and not `in_quiet_hours: allow` or `defer`), or whose `when` is constant false, is refused every day whatever the settings.",
        triggering: [
            LintExample([
                "rules/n.yaml": """
                policy:
                  quiet_hours: { start: "22:30", end: "07:00" }
                notifications:
                  - id: late_checkin
                    category: checkin
                    at: 1️⃣"23:00"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ]),
            LintExample([
                "rules/n.yaml": """
                notifications:
                  - id: never
                    category: checkin
                    at: "09:00"
                    when: 1️⃣false
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ]),
        ],
        nonTriggering: [
            LintExample([
                "rules/n.yaml": """
                policy:
                  quiet_hours: { start: "22:30", end: "07:00" }
                notifications:
                  - id: bedtime
                    category: bedtime
                    at: "23:00"
                    in_quiet_hours: allow
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        let policy = context.ruleset.policy
        for rule in context.ruleset.notifications {
            if rule.inQuietHours == .drop, case .time(let at)? = ConstantAnalysis.constantValue(rule.at.typed), policy.isQuiet(at) {
                findings.append(
                    report.finding(
                        rule.atOrigin, "notification '\(rule.id)' fires at \(TimeFormat.clock(at)), inside quiet hours, and is dropped every day",
                        hint: "move it out of quiet hours, or set 'in_quiet_hours: defer' or 'allow'"))
            }
            if let when = rule.when, context.truth(when) == false {
                findings.append(
                    report.finding(
                        rule.whenOrigin ?? rule.origin, "the condition of notification '\(rule.id)' is never true", hint: "fix the condition"))
            }
        }
        return findings
    }
}
