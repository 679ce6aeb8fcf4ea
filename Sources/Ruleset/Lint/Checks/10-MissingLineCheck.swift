import Foundation
import RulesDiagnostics
import RulesExpression

/// `lint.missing_line`: a home or widget surface without any `home` line.
enum MissingLineCheck: LintRule {
    static let check = LintCheck(
        "lint.missing_line", .warning,
        summary: "a home or widget surface without any `home` line",
        rationale:
            "At every app run the engine renders a `home` line for home and the widget (and falls back to it for other events). A surface with no template of event `home` has no line at all. The check does not prove that the conditions of several lines cover every moment; give one line the complement of the others.",
        triggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  1️⃣home: { sensitive: allowed }
                templates:
                  - id: home_recovery
                    surface: home
                    event: route_changed
                    when: route == "recovery"
                    text: 복구 루트 진행 중.
                """
            ])
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_default
                    surface: home
                    event: home
                    text: 오늘도 가자.
                """
            ])
        ]
    ) { context, report in
        context.ruleset.surfaces.compactMap { surface -> Diagnostic? in
            guard surface.name == "home" || surface.name == "widget" else { return nil }
            let covered = context.ruleset.templates.contains { $0.surface == surface.name && $0.event == "home" }
            return covered
                ? nil
                : report.finding(
                    surface.origin, "surface '\(surface.name)' has no 'home' line; some app runs will have no line",
                    hint: "add a template with 'event: home' for this surface")
        }
    }
}
