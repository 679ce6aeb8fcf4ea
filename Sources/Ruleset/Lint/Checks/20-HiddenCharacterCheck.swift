import RulesDiagnostics

/// `lint.hidden_character`: a character a person cannot see in a text the app shows.
enum HiddenCharacterCheck: LintRule {
    static let check = LintCheck(
        "lint.hidden_character", .error,
        summary: "a character a person cannot see in a text the app shows",
        rationale:
            "Templates, surface fallbacks, routine names and checklist items reach lock screens, widgets and the home screen. A control character (line feed, ESC, BEL, NUL), a bidi override (RLO) or an invisible character (zero-width space or joiner, soft hyphen, word joiner, BOM, variation selector, Hangul filler, tag) shows nothing, can reverse or hide what follows, and can slip a sensitive word past the checks (수\\u{200B}면). A letter with a pile of combining marks counts as one character of max_length. A variation selector or joiner inside an emoji sequence is fine.",
        triggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어. }
                templates:
                  - id: sneaky
                    surface: lock_screen
                    text: 수1️⃣\u{200B}면 기록을 확인해.
                """
            ]),
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  1️⃣lock_screen: { sensitive: forbidden, fallback: "오늘\u{202E} 루트" }
                templates:
                  - id: plain
                    surface: lock_screen
                    text: 오늘 루트가 준비됐어.
                """
            ]),
        ],
        nonTriggering: [
            LintExample([
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - id: home_heart
                    surface: home
                    event: home
                    text: 오늘도 가자 ❤️ 👩‍💻
                """
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        func finding(_ origin: Origin, _ what: String, _ hidden: VisibleText.Hidden, inline text: String?) {
            var at = origin
            if let text, !text.contains("\n") { at.location.column += hidden.offset }
            findings.append(
                report.finding(
                    at, "\(what) holds \(hidden.description), which no one sees",
                    hint: "retype the text without it (copying from a chat or a web page often brings such characters along)"))
        }
        for template in context.ruleset.templates {
            if let hidden = VisibleText.firstHidden(in: template.source) {
                finding(template.textOrigin, "the text of template '\(template.id)'", hidden, inline: template.source)
            }
        }
        for surface in context.ruleset.surfaces {
            if let fallback = surface.fallback, let hidden = VisibleText.firstHidden(in: fallback) {
                finding(surface.origin, "the fallback of surface '\(surface.name)'", hidden, inline: nil)
            }
        }
        for routine in context.ruleset.routines {
            if let hidden = VisibleText.firstHidden(in: routine.name) {
                finding(routine.origin, "the name of routine '\(routine.id)'", hidden, inline: nil)
            }
            for item in routine.items {
                if let hidden = VisibleText.firstHidden(in: item) {
                    finding(routine.origin, "checklist item '\(VisibleText.folded(item))' of routine '\(routine.id)'", hidden, inline: nil)
                }
            }
        }
        return findings
    }
}
