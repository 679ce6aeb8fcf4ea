import Foundation
import RulesDiagnostics
import RulesExpression

/// `lint.undecidable_particle`: a Korean particle whose form cannot be decided for a value the template can show.
enum UndecidableParticleCheck: LintRule {
    static let check = LintCheck(
        "lint.undecidable_particle", .warning,
        summary: "a Korean particle whose form cannot be decided for a value the template can show",
        rationale:
            "After a placeholder, `을(를)` and its kin take the form that fits the value's last sound. For values known at check time (routine names, enum cases) the check tries each; where a value ends in something without a Korean reading (a symbol, an emoji), the text would show both forms.",
        triggering: [
            LintExample([
                "routines/x.yaml": "id: gym\nname: \"헬스 💪\"\ncategory: exercise\nsource: manual\nunit: minutes\ngoal: 30\n",
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_gym
                    surface: home
                    event: home
                    text: "1️⃣{routines.gym.name}을(를) 해야 해."
                """,
            ])
        ],
        nonTriggering: [
            LintExample([
                "routines/x.yaml": "id: water\nname: 물\ncategory: water\nsource: manual\nunit: ml\ngoal: 1500\n",
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_water
                    surface: home
                    event: home
                    text: "{routines.water.name}(으)로 시작해. {route}(이)야."
                """,
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        for template in context.ruleset.templates {
            for case .placeholder(let placeholder) in template.segments {
                guard let particle = placeholder.particle, placeholder.filter == nil else { continue }
                for value in knownValues(placeholder.expression, context.ruleset)
                where KoreanParticles.ending(of: value) == nil {
                    findings.append(
                        report.finding(
                            placeholder.origin,
                            "'\(particle.rawValue)' after '\(value)' cannot be decided; the text will show both forms",
                            hint: "rephrase so no particle follows the value, or rename it"))
                    break
                }
            }
        }
        return findings
    }
}
