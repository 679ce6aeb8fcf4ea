import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// `rules preview [--ruleset DIR] [--out FILE]`: every template on its surface, rendered with
/// sample facts at their extremes, marked where a surface's limits cut it.
enum PreviewCommand {
    static var command: Command {
        Command(
            name: "preview",
            abstract: "Show every template on the surface it reaches, rendered with sample facts at their extremes.",
            discussion: """
                Lives two sample days with the engine to 21:10 — a collapsed evening and the largest day
                (every routine done, 99,999 steps, a 999-day streak) — and renders every template with
                each day's facts: what the lock screen, widget, home and chat would show, the fallback
                where a sensitive value is refused, and nothing where a value is unknown. Texts over a
                surface's max_length or max_sentences, or with a forbidden phrase, are marked. With
                --out, an HTML gallery styled like the phone's surfaces; without, the same as text.
                """,
            options: Options.self,
            run: run)
    }

    /// One template's rendering with one sample, and what marks it.
    struct Card {
        var template: Template
        var sample: String
        var rendering: TemplatePreview.Rendering
        var marks: [String]
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var ruleset = "."
        var out: String?

        static var fields: [OptionField<Self>] {
            [
                SimulationSupport.rulesetOption(\.ruleset),
                .option(\.out, OptionSpec(name: "--out", valueName: "FILE", help: "Write the HTML gallery here (- for standard output).")),
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard given.positional.isEmpty else {
            return RulesCLI.usageError(
                "preview takes no file: name the ruleset with --ruleset DIR", usage: command.usage, helpName: "preview", io: io)
        }
        guard let (ruleset, _) = SimulationSupport.ruleset(given.ruleset, io), let clock = LocalClock(identifier: "Asia/Seoul") else { return .usage }
        let cards = cards(ruleset, clock: clock)
        let marked = cards.filter { !$0.marks.isEmpty }.count
        if let out = given.out {
            // Never over the rule files it shows.
            guard io.writeAtomically(html(cards, ruleset: ruleset), to: out, inputs: SimulationSupport.inputs(ruleset: given.ruleset, io, extra: []))
            else {
                return .usage
            }
            if out != "-" {
                io.out("wrote \(out): \(Set(cards.map(\.template.id)).count) templates, \(cards.count) renderings, \(marked) marked\n")
            }
            return .success
        }
        io.out(text(cards))
        return .success
    }

    static func cards(_ ruleset: Ruleset, clock: LocalClock) -> [Card] {
        let prepared = PreparedRuleset(ruleset)
        let samples = TemplatePreview.samples(prepared, clock: clock)
        let guardian = TextGuard(ruleset: ruleset)
        var cards: [Card] = []
        for template in ruleset.templates {
            for sample in samples {
                let rendering = TemplatePreview.render(template, prepared: prepared, facts: sample.facts)
                var marks: [String] = []
                if case .text(let text) = rendering, let violation = guardian.violation(text, surface: template.surface) {
                    let limits = ruleset.surface(template.surface)
                    switch violation {
                    case "too_long": marks.append("over \(limits?.maxLength ?? 0) characters (\(text.count)): cut on the \(template.surface)")
                    case "too_many_sentences": marks.append("over \(limits?.maxSentences ?? 0) sentences: cut on the \(template.surface)")
                    default: marks.append(violation.replacingOccurrences(of: "forbidden_phrase:", with: "forbidden phrase: "))
                    }
                }
                if case .failed(let message) = rendering { marks.append(message) }
                cards.append(Card(template: template, sample: sample.name, rendering: rendering, marks: marks))
            }
        }
        return cards
    }

    static func describe(_ rendering: TemplatePreview.Rendering) -> String {
        switch rendering {
        case .text(let text): text
        case .redacted(let fallback): "\(fallback)   (redacted: a sensitive value is refused here)"
        case .unknown: "(not shown: a value it needs is unknown in this sample)"
        case .failed: "(failed to render)"
        }
    }

    static func text(_ cards: [Card]) -> String {
        var out = ""
        var last = ""
        for card in cards {
            if card.template.id != last {
                out += "\(TextRenderer.oneLine(card.template.id)) [\(TextRenderer.oneLine(card.template.surface))]\n"
                last = card.template.id
            }
            out += "  \(TextRenderer.oneLine(card.sample)): \(TextRenderer.oneLine(describe(card.rendering)))\n"
            for mark in card.marks { out += "    ⚠ \(TextRenderer.oneLine(mark))\n" }
        }
        return out
    }

    static func html(_ cards: [Card], ruleset: Ruleset) -> String {
        let escape = HTMLReport.escape
        var out = """
            <!doctype html><html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Template preview</title><style>
            body{font:15px/1.45 -apple-system,"Apple SD Gothic Neo","Noto Sans CJK KR",sans-serif;margin:0;padding:16px;background:#f2f2f7;color:#1c1c1e;word-break:keep-all;overflow-wrap:break-word}
            h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}p.note{color:#636366;margin:0 0 12px}
            .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:12px}
            .card{background:#fff;border-radius:14px;padding:12px;box-shadow:0 1px 2px rgba(0,0,0,.08);min-width:0}
            .card.marked{outline:3px solid #ff3b30}
            .id{font:12px ui-monospace,Menlo,monospace;color:#636366;overflow-wrap:anywhere}
            .sample{font-size:12px;color:#8e8e93;margin:8px 0 4px}
            .lock_screen .face{background:linear-gradient(#2c3e50,#4b6584);padding:10px;border-radius:12px}
            .lock_screen .bubble{background:rgba(255,255,255,.78);border-radius:12px;padding:8px 10px;backdrop-filter:blur(8px)}
            .lock_screen .app{font-size:12px;color:#3a3a3c;font-weight:600}
            .widget .face{width:158px;min-height:158px;border-radius:22px;background:#fff;border:1px solid #d1d1d6;padding:12px;box-sizing:border-box}
            .home .face{background:#e9f2ff;border-radius:16px;padding:10px 12px}
            .chat .face{background:#e5e5ea;border-radius:18px 18px 18px 4px;padding:8px 12px;display:inline-block;max-width:100%}
            .text{overflow-wrap:anywhere}.muted{color:#8e8e93;font-style:italic}
            .mark{color:#d70015;font-size:13px;margin-top:6px}
            </style></head><body><h1>Template preview</h1>
            <p class="note">Every template on its surface, rendered with the facts of two days the engine lived to 21:10. Red: cut by a surface's limits or a forbidden phrase.</p>

            """
        for surface in ruleset.surfaces.map(\.name) + Array(Set(cards.map(\.template.surface)).subtracting(ruleset.surfaces.map(\.name))).sorted() {
            let mine = cards.filter { $0.template.surface == surface }
            guard !mine.isEmpty else { continue }
            let limits = ruleset.surface(surface)
            var note = limits?.sensitivity == .forbidden ? "sensitive values refused" : "sensitive values allowed"
            if let length = limits?.maxLength { note += ", at most \(length) characters" }
            if let sentences = limits?.maxSentences { note += ", at most \(sentences) sentences" }
            out += "<h2>\(escape(surface))</h2><p class=\"note\">\(escape(note))</p><div class=\"grid\">\n"
            for card in mine {
                let css = ["lock_screen", "widget", "home", "chat"].contains(surface) ? surface : "home"
                out += "<div class=\"card \(css)\(card.marks.isEmpty ? "" : " marked")\"><div class=\"id\">\(escape(card.template.id))"
                if let event = card.template.event { out += " · event \(escape(event))" }
                if let when = card.template.when { out += " · when \(escape(when.source))" }
                out += "</div><div class=\"sample\">\(escape(card.sample))</div><div class=\"face\">"
                let body: String
                switch card.rendering {
                case .text(let text): body = "<div class=\"text\">\(escape(text))</div>"
                case .redacted(let fallback):
                    body = "<div class=\"text\">\(escape(fallback))</div><div class=\"muted\">redacted: a sensitive value is refused here</div>"
                case .unknown: body = "<div class=\"muted\">not shown: a value it needs is unknown in this sample</div>"
                case .failed: body = "<div class=\"muted\">failed to render</div>"
                }
                out += css == "lock_screen" ? "<div class=\"bubble\"><div class=\"app\">갓생 operator</div>\(body)</div>" : body
                out += "</div>"
                for mark in card.marks { out += "<div class=\"mark\">⚠ \(escape(mark))</div>" }
                out += "</div>\n"
            }
            out += "</div>\n"
        }
        return out + "</body></html>\n"
    }
}
