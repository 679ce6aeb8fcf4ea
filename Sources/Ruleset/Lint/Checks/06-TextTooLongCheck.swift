import Foundation
import RulesDiagnostics
import RulesExpression

/// `lint.text_too_long`: a template or fallback longer than its surface allows.
enum TextTooLongCheck: LintRule {
    static let check = LintCheck(
        "lint.text_too_long", .warning,
        summary: "a template or fallback longer than its surface allows",
        rationale:
            "Lock screens and widgets truncate; `max_length` counts characters of the rendered text and `max_sentences` its sentences. The check counts what is certain: the literal text plus one character per placeholder.",
        triggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  widget: { sensitive: forbidden, max_length: 10, fallback: 대기 중 }
                templates:
                  - id: widget_long
                    surface: widget
                    event: home
                    text: 1️⃣오늘은 정말로 긴 문장을 위젯에 쓰려고 한다
                """
            ])
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  widget: { sensitive: forbidden, max_length: 10, fallback: 대기 중 }
                templates:
                  - id: widget_short
                    surface: widget
                    event: home
                    text: 복구 루트 대기
                """
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        for template in context.ruleset.templates {
            guard let surface = context.ruleset.surface(template.surface) else { continue }
            let length = minimumLength(template)
            if let maxLength = surface.maxLength, length > maxLength {
                findings.append(
                    report.finding(
                        template.textOrigin,
                        "template '\(template.id)' is at least \(length) characters; surface '\(surface.name)' allows \(maxLength)",
                        hint: "shorten the text"))
            }
            let sentences = Ruleset.sentenceCount(literalText(template))
            if let maxSentences = surface.maxSentences, sentences > maxSentences {
                findings.append(
                    report.finding(
                        template.textOrigin, "template '\(template.id)' has \(sentences) sentences; surface '\(surface.name)' allows \(maxSentences)",
                        hint: "split it or cut a sentence"))
            }
        }
        for surface in context.ruleset.surfaces {
            if let fallback = surface.fallback, let maxLength = surface.maxLength, fallback.count > maxLength {
                findings.append(
                    report.finding(
                        surface.origin, "the fallback of surface '\(surface.name)' is \(fallback.count) characters; the surface allows \(maxLength)"))
            }
        }
        return findings
    }
}
