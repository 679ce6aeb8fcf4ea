import Foundation
import RulesDiagnostics
import RulesExpression

/// `lint.forbidden_phrase`: a template contains a forbidden phrase.
enum ForbiddenPhraseCheck: LintRule {
    static let check = LintCheck(
        "lint.forbidden_phrase", .warning,
        summary: "a template contains a forbidden phrase",
        rationale:
            "`forbidden_phrases` lists medical and dosage advice and blame; no template, fallback or model line may contain them.",
        triggering: [
            LintExample([
                "templates/t.yaml": """
                forbidden_phrases: [한심]
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_blame
                    surface: home
                    event: home
                    text: 1️⃣오늘도 한심하네.
                """
            ])
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": """
                forbidden_phrases: [한심]
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_kind
                    surface: home
                    event: home
                    text: 아직 살릴 수 있어.
                """
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        let phrases = VisibleText.Phrases(context.ruleset.forbiddenPhrases)
        for template in context.ruleset.templates {
            if let phrase = phrases.first(in: template.source) {
                findings.append(
                    report.finding(
                        template.textOrigin, "template '\(template.id)' contains the forbidden phrase '\(phrase)'", hint: "reword it"))
            }
        }
        for surface in context.ruleset.surfaces {
            if let fallback = surface.fallback, let phrase = phrases.first(in: fallback) {
                findings.append(
                    report.finding(
                        surface.origin, "the fallback of surface '\(surface.name)' contains the forbidden phrase '\(phrase)'", hint: "reword it"))
            }
        }
        return findings
    }
}
