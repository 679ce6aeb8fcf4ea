import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// For each changed template no scenario showed: its old and new text rendered on the preview's
/// sample days (as `rules preview` renders them), and when it appears — its surface, the event
/// it answers and its condition — so a reviewer reads what users would read though no scenario
/// reached it.
package struct TemplateChangePreview: Sendable {
    package struct Rendered: Sendable {
        /// The template's id.
        package var id: String
        /// `lock_screen, at route_changed, when route == "recovery"`.
        package var appears: String
        /// Per sample day: its name, the old text and the new (`—`: not shown then).
        package var days: [(name: String, old: String, new: String)]
    }

    package var templates: [Rendered]

    package init(templates: [Rendered]) { self.templates = templates }

    package static func make(_ elements: [ChangeReach.Element], old: Ruleset, new: Ruleset) -> TemplateChangePreview {
        let ids = elements.filter { !$0.reached && $0.entry.kind == "template" }.map(\.entry.id)
        guard !ids.isEmpty, let clock = LocalClock(identifier: "Asia/Seoul") else { return TemplateChangePreview(templates: []) }
        let before = PreparedRuleset(old)
        let after = PreparedRuleset(new)
        let oldSamples = TemplatePreview.samples(before, clock: clock)
        let newSamples = TemplatePreview.samples(after, clock: clock)
        var out: [Rendered] = []
        for id in ids {
            guard let template = new.templates.first(where: { $0.id == id }) else { continue }
            let earlier = old.templates.first { $0.id == id }
            var days: [(String, String, String)] = []
            for (index, sample) in newSamples.enumerated() {
                let oldText =
                    earlier.map {
                        text(TemplatePreview.render($0, prepared: before, facts: oldSamples[Swift.min(index, oldSamples.count - 1)].facts))
                    } ?? "—"
                days.append(
                    (sample.name, oldSamples.isEmpty ? "—" : oldText, text(TemplatePreview.render(template, prepared: after, facts: sample.facts))))
            }
            out.append(Rendered(id: id, appears: appears(template, in: new), days: days))
        }
        return TemplateChangePreview(templates: out)
    }

    static func text(_ rendering: TemplatePreview.Rendering) -> String {
        switch rendering {
        case .text(let shown): shown
        case .redacted(let fallback): "\(fallback) (redacted)"
        case .unknown: "—"
        case .failed(let message): "fails: \(message)"
        }
    }

    /// `lock_screen, at route_changed, when route == "recovery"`; for a notification's
    /// template, the notifications that send it and when.
    static func appears(_ template: Template, in ruleset: Ruleset) -> String {
        var parts = [template.surface]
        for rule in ruleset.notifications where rule.template == template.id {
            parts.append("sent by notification '\(rule.id)' at \(rule.at.source)" + (rule.when.map { " when \($0.source)" } ?? ""))
        }
        if let event = template.event { parts.append("at \(event)") }
        if let tone = template.tone { parts.append("in tone \(tone)") }
        if let when = template.when { parts.append("when \(when.source)") }
        return parts.joined(separator: ", ")
    }

    /// `template 'x' (lock_screen, …), not shown by any scenario:` then a line per sample day.
    package var lines: [String] {
        templates.flatMap { template in
            ["template '\(template.id)' (\(template.appears)), shown by no scenario:"]
                + template.days.map { "  \($0.name): \"\($0.old)\" → \"\($0.new)\"" }
        }
    }

    package func json() -> JSONValue {
        .array(
            templates.map { template in
                .object([
                    ("template", .string(template.id)), ("appears", .string(template.appears)),
                    (
                        "days",
                        .array(template.days.map { .object([("sample", .string($0.name)), ("old", .string($0.old)), ("new", .string($0.new))]) })
                    ),
                ])
            })
    }
}
