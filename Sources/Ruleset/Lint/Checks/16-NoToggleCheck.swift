import RulesDiagnostics
import RulesExpression

/// `lint.no_toggle`: a notification type the user cannot turn off.
enum NoToggleCheck: LintRule {
    static let check = LintCheck(
        "lint.no_toggle", .warning,
        summary: "a notification type the user cannot turn off",
        rationale:
            "Every notification type can be switched on and off in settings. The engine refuses a type whose bool setting of the same id is false (`disabled`); a type without one can only be silenced by editing the rules — unless it is opt-in, firing only at a time the user set (an optional setting in `at`).",
        triggering: [
            LintExample([
                "rules/n.yaml": """
                notifications:
                  - id: 1️⃣morning_checkin
                    category: checkin
                    at: "09:00"
                    template: checkin_ready
                """,
                "templates/t.yaml": lockScreenTemplate,
            ])
        ],
        nonTriggering: [
            LintExample([
                "rules/n.yaml": """
                settings:
                  morning_checkin: { type: bool, default: true }
                  bedtime: { type: "time?" }
                notifications:
                  - id: morning_checkin
                    category: checkin
                    at: "09:00"
                    template: checkin_ready
                  - id: bedtime
                    category: bedtime
                    at: settings.bedtime - 30m
                    in_quiet_hours: allow
                    template: checkin_ready
                """,
                "templates/t.yaml": lockScreenTemplate,
            ])
        ]
    ) { context, report in
        context.ruleset.notifications.compactMap { rule -> Diagnostic? in
            if context.ruleset.settings.declaration(rule.id)?.type == .bool { return nil }
            let optIn =
                rule.at.factsRead.contains { name in
                    name.hasPrefix("settings.") && context.ruleset.schema.fact(named: name)?.type.isOptional == true
                } || rule.perRoutine
            guard !optIn else { return nil }
            return report.finding(
                rule.origin, "notification '\(rule.id)' has no bool setting '\(rule.id)', so the user cannot turn it off",
                hint: "declare settings: { \(rule.id): { type: bool, default: true } }")
        }
    }
}
