import RulesDiagnostics
import RulesExpression

/// `lint.sensitive_leak`: a template on a lock-screen-like surface reads a sensitive fact.
enum SensitiveLeakCheck: LintRule {
    static let check = LintCheck(
        "lint.sensitive_leak", .error,
        summary: "a template on a lock-screen-like surface reads a sensitive fact",
        rationale:
            "Surfaces with `sensitive: forbidden` (lock screen, widget) are seen by anyone near the phone. Sleep, supplements, moods and any `sensitive: true` routine never appear there, not even through derived values such as `recovery.items_text`. The engine also refuses such values at run time, but a ruleset that tries is wrong.",
        triggering: [
            LintExample([
                "templates/lock.yaml": """
                surfaces:
                  lock_screen: { sensitive: forbidden, max_length: 60, fallback: 오늘 루트가 업데이트됐어. }
                templates:
                  - id: sleep_note
                    surface: lock_screen
                    text: 수면 1️⃣{sleep.minutes|hm}밖에 못 잤어.
                """
            ]),
            LintExample([
                "routines/supplement.yaml": "id: supplement\nname: 영양제\ncategory: supplement\nsource: checklist\nunit: check\n",
                "rules/recovery.yaml": "recovery:\n  items:\n    - { routine: supplement, target: 1 }\n",
                "templates/lock.yaml": """
                surfaces:
                  widget: { sensitive: forbidden, max_length: 40, fallback: 오늘의 작전 대기 중 }
                templates:
                  - id: widget_recovery
                    surface: widget
                    event: home
                    text: "1️⃣{recovery.items_text}만 하자"
                """,
            ]),
        ],
        nonTriggering: [
            LintExample([
                "templates/home.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: sleep_home
                    surface: home
                    event: home
                    text: 수면 {sleep.minutes ?? 0}분
                """
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        for template in context.ruleset.templates {
            guard let surface = context.ruleset.surface(template.surface), surface.sensitivity == .forbidden else { continue }
            for case .placeholder(let placeholder) in template.segments {
                for fact in placeholder.expression.factsRead {
                    guard let why = context.sensitivity(of: fact) else { continue }
                    findings.append(
                        report.finding(
                            placeholder.origin,
                            "template '\(template.id)' on surface '\(surface.name)' (sensitive: forbidden) shows '\(fact)': \(why)",
                            hint: "show it only on a surface with 'sensitive: allowed' (home, chat), or use a redacted wording"))
                }
            }
            if let when = template.when, let origin = template.whenOrigin {
                for fact in when.factsRead {
                    guard let why = context.sensitivity(of: fact) else { continue }
                    findings.append(
                        report.finding(
                            origin, "template '\(template.id)' on surface '\(surface.name)' is chosen by '\(fact)': \(why)",
                            hint: "a line chosen by a sensitive fact reveals it; choose it by route or risk instead"))
                }
            }
        }
        return findings
    }
}
