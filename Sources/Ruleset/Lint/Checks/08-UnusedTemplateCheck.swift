import Foundation
import RulesDiagnostics
import RulesExpression

/// `lint.unused_template`: a template nothing uses.
enum UnusedTemplateCheck: LintRule {
    static let check = LintCheck(
        "lint.unused_template", .warning,
        summary: "a template nothing uses",
        rationale:
            "A template without an `event` is shown only when a notification names it as template or title. One that nothing names is dead text.",
        triggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어. }
                templates:
                  - id: 1️⃣orphan
                    surface: lock_screen
                    text: 아무도 안 쓰는 문장.
                """
            ])
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_line
                    surface: home
                    event: home
                    text: 오늘도 가자.
                """
            ])
        ]
    ) { context, report in
        // A template named by an entry an error left out counts as used: that error says it.
        let used = Set(context.ruleset.notifications.flatMap { [$0.template] + ($0.title.map { [$0] } ?? []) })
            .union(context.ruleset.templatesNamedByWithheldEntries)
        return context.ruleset.templates.compactMap { template -> Diagnostic? in
            guard template.event == nil, !used.contains(template.id) else { return nil }
            return report.finding(
                template.origin, "template '\(template.id)' is never used: it has no event and no notification names it",
                hint: "give it an 'event', name it in a notification, or remove it")
        }
    }
}
