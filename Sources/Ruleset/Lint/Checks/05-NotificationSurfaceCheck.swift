import RulesDiagnostics
import RulesExpression

/// `lint.notification_surface`: a notification uses a template of a surface that allows sensitive facts.
enum NotificationSurfaceCheck: LintRule {
    static let check = LintCheck(
        "lint.notification_surface", .error,
        summary: "a notification uses a template of a surface that allows sensitive facts",
        rationale:
            "Notification bodies and titles appear on the lock screen, so their templates must belong to a surface with `sensitive: forbidden`; a home or chat line may speak of sleep or supplements.",
        triggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_line
                    surface: home
                    text: 오늘 루트가 준비됐어.
                """,
                "rules/n.yaml": """
                notifications:
                  - id: morning_checkin
                    category: checkin
                    at: "09:00"
                    template: 1️⃣home_line
                """,
            ])
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": lockScreenTemplate,
                "rules/n.yaml": """
                notifications:
                  - id: morning_checkin
                    category: checkin
                    at: "09:00"
                    template: checkin_ready
                """,
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        for rule in context.ruleset.notifications {
            for (role, id) in [("body", rule.template), ("title", rule.title)] {
                guard let id, let template = context.ruleset.template(id),
                    let surface = context.ruleset.surface(template.surface), surface.sensitivity == .allowed
                else { continue }
                let origin = role == "body" ? (rule.templateOrigin ?? rule.origin) : (rule.titleOrigin ?? rule.origin)
                findings.append(
                    report.finding(
                        origin,
                        "notification '\(rule.id)' uses template '\(id)' as its \(role), but surface '\(surface.name)' allows sensitive facts",
                        hint: "use a template of a 'sensitive: forbidden' surface such as lock_screen"))
            }
        }
        return findings
    }
}
