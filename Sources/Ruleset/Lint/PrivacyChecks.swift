import RulesDiagnostics
import RulesExpression

extension LintCatalogue {
    static let sensitiveLeak = LintCheck(
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

    static let notificationSurface = LintCheck(
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

extension LintCatalogue {
    static let sensitiveWord = LintCheck(
        "lint.sensitive_word", .error,
        summary: "a sensitive topic written out on a surface that forbids it",
        rationale:
            "A lock-screen or widget text that says \"수면 6시간도 안 됐어\" reveals as much as one that reads sleep.minutes. Surfaces list their `sensitive_words:`; no literal text of a template on that surface may contain one.",
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
            ])
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어., sensitive_words: [수면] }
                  home: { sensitive: allowed }
                templates:
                  - id: checkin_ready
                    surface: lock_screen
                    text: 오늘 루트가 준비됐어.
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
            guard let word = VisibleText.Phrases(surface.sensitiveWords).first(in: literal) else { continue }
            var origin = template.textOrigin
            // Underline the word: its column (in scalars) within a one-line text.
            if let range = template.source.range(of: word), !template.source.contains("\n") {
                origin.location.column += template.source[..<range.lowerBound].unicodeScalars.count
            }
            findings.append(
                report.finding(
                    origin, "template '\(template.id)' on '\(surface.name)' says '\(word)', a sensitive topic that surface forbids",
                    hint: "say it without the topic (the home surface may name it), or move the line to a surface that allows it"))
        }
        // The fallback a surface shows in place of a refused text says nothing sensitive either.
        for surface in context.ruleset.surfaces where surface.sensitivity == .forbidden {
            guard let fallback = surface.fallback, let word = VisibleText.Phrases(surface.sensitiveWords).first(in: fallback) else {
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
