import RulesDiagnostics
import RulesExpression

/// `lint.sensitive_word`: a sensitive topic written out on a surface that forbids it.
enum SensitiveWordCheck: LintRule {
    static let check = LintCheck(
        "lint.sensitive_word", .error,
        summary: "a sensitive topic written out on a surface that forbids it",
        rationale:
            "A lock-screen or widget text that says \"수면 6시간도 안 됐어\" or \"6시간도 못 잤어\" reveals as much as one that reads sleep.minutes. Surfaces list their `sensitive_words:`: a noun as written, a verb or adjective in its dictionary form (`자다`), which stands for the forms Korean writes it in (`잤`, `자고`, `자는`, `잠`, …). No literal text of a template on that surface may say one.",
        triggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어., sensitive_words: [수면] }
                templates:
                  - id: checkin_ready
                    surface: lock_screen
                    text: 1️⃣수면 6시간도 안 됐어.
                """
            ]),
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어., sensitive_words: [수면, 자다] }
                templates:
                  - id: checkin_ready
                    surface: lock_screen
                    text: 어젯밤 6시간도 못 1️⃣잤지만 루트는 준비됐어.
                """
            ]),
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어., sensitive_words: [수면, 자다] }
                  home: { sensitive: allowed }
                templates:
                  - id: checkin_ready
                    surface: lock_screen
                    text: 잠깐, 오늘 루트가 준비됐어.
                  - id: home_sleep
                    surface: home
                    event: home
                    text: 수면이 부족해. 가볍게 가자.
                """
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        for template in context.ruleset.templates {
            guard let surface = context.ruleset.surface(template.surface), surface.sensitivity == .forbidden, !surface.sensitiveWords.isEmpty else {
                continue
            }
            // Only the literal text: placeholders are checked by fact (lint.sensitive_leak).
            var literal = ""
            for segment in template.segments { if case .text(let text) = segment { literal += text } }
            // Compared as a person reads it: no spacing, width or invisible character hides a word.
            guard let (form, word) = SensitiveWords(surface.sensitiveWords).first(in: literal) else { continue }
            var origin = template.textOrigin
            // Underline the word: its column (in scalars) within a one-line text.
            if let range = template.source.range(of: form), !template.source.contains("\n") {
                origin.location.column += template.source[..<range.lowerBound].unicodeScalars.count
            }
            let said = form == word ? "'\(word)'" : "'\(form)' (a form of '\(word)')"
            findings.append(
                report.finding(
                    origin, "template '\(template.id)' on '\(surface.name)' says \(said), a sensitive topic that surface forbids",
                    hint: "say it without the topic (the home surface may name it), or move the line to a surface that allows it"))
        }
        // The fallback a surface shows in place of a refused text says nothing sensitive either.
        for surface in context.ruleset.surfaces where surface.sensitivity == .forbidden {
            guard let fallback = surface.fallback, let word = SensitiveWords(surface.sensitiveWords).first(in: fallback)?.form else {
                continue
            }
            findings.append(
                report.finding(
                    surface.origin, "the fallback of '\(surface.name)' says '\(word)', a sensitive topic that surface forbids",
                    hint: "a fallback is shown when a text was refused: keep it neutral"))
        }
        return findings
    }
}
