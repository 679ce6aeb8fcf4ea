import Foundation
import RulesDiagnostics
import RulesExpression

extension LintCatalogue {
    /// Characters a template shows at the least: its literal text plus one per placeholder.
    static func minimumLength(_ template: Template) -> Int {
        template.segments.reduce(0) { total, segment in
            switch segment {
            case .text(let text): total + text.count
            case .placeholder(let placeholder): total + 1 + (placeholder.particle.map { _ in 1 } ?? 0)
            }
        }
    }

    /// The template's text with each placeholder standing as one word.
    static func literalText(_ template: Template) -> String {
        template.segments.map { segment in
            switch segment {
            case .text(let text): text
            case .placeholder: "x"
            }
        }.joined()
    }

    static let textTooLong = LintCheck(
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

    static let undecidableParticle = LintCheck(
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

    /// The values a placeholder can show, when they are known at check time.
    static func knownValues(_ expression: CompiledExpression, _ ruleset: Ruleset) -> [String] {
        switch expression.typed.kind {
        case .fact(_, let name):
            let parts = name.split(separator: ".").map(String.init)
            if parts.count == 3, parts[0] == "routines", parts[2] == "name" { return ruleset.routine(parts[1]).map { [$0.name] } ?? [] }
            if case .enumeration(let type) = expression.type.unwrapped { return type.cases }
            return []
        case .constant(.string(let text)):
            return [text]
        default:
            return []
        }
    }

    static let unusedTemplate = LintCheck(
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

    static let forbiddenPhrase = LintCheck(
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

    static let missingLine = LintCheck(
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
