import Foundation
import RulesChangeImpact
import RulesExpression

/// `rules diff --format markdown`: the report short enough for a pull-request comment or a
/// CI job summary — the headline (behaviour changed, a change nothing reached, or neither),
/// the changed elements with reached / NOT REACHED, the grouped changes, the boundary days and
/// the population sample. Every text that comes from the rules or the scenarios is escaped
/// (`MarkdownText.escape`), so no rule text can open a link, a table cell, a heading, an HTML
/// tag or a mention. Long lists are cut with a count of what was left out.
struct DiffMarkdown {
    let report: ChangeReport
    /// The most changes, days per change, boundary days and elements listed.
    static let maxGroups = 20
    static let maxDays = 5
    static let maxLines = 20

    var headline: String {
        let diff = report.diff
        let sampleChanged = report.sample?.changed == true
        if !diff.isEmpty { return "Behaviour changed" }
        if !diff.unreached.isEmpty { return "NOT REACHED: \(diff.unreached.count) change\(diff.unreached.count == 1 ? "" : "s") no scenario reached" }
        return sampleChanged ? "The population sample changed" : "No behaviour changed"
    }

    func render() -> String {
        let escape = MarkdownText.escape
        let diff = report.diff
        var out = "### rules diff: \(headline)\n\n\(escape(diff.summary + (report.sampleHeadline.map { "; " + $0 } ?? "")))\n"
        if !diff.elements.isEmpty {
            out += "\n| reached | changed element |\n|---|---|\n"
            for element in diff.elements.prefix(Self.maxLines) {
                let note = element.reached ? "" : " — " + escape(String(element.note.dropFirst("not reached: ".count)))
                out += "| \(element.reached ? "reached" : "**NOT REACHED**") | \(escape(element.entry.label))\(note) |\n"
            }
            out += Self.more(diff.elements.count, shown: Self.maxLines, what: "element")
        }
        let groups = diff.grouped
        if !groups.isEmpty {
            out += "\n**Changes** (identical ones grouped)\n\n"
            for group in groups.prefix(Self.maxGroups) {
                let change = group[0]
                let days = group.prefix(Self.maxDays).map { escape(BehaviourDiff.shortName($0.scenario)) + " " + DateFormat.string($0.day) }
                var line = "- **\(escape(change.kind))**: \(escape(change.message)) — on \(group.count == 1 ? "" : "\(group.count) days: ")"
                line += days.joined(separator: ", ") + (group.count > Self.maxDays ? ", …" : "")
                if let cause = change.because.first {
                    line += " ← " + escape(cause.label) + (change.because.count > 1 ? " and \(change.because.count - 1) more" : "")
                }
                out += line + "\n"
            }
            out += Self.more(groups.count, shown: Self.maxGroups, what: "change")
        }
        if !report.boundary.days.isEmpty {
            out += "\n**Boundary days** (generated for the changes no scenario reached)\n\n"
            out += report.boundary.lines.prefix(Self.maxLines).map { "- " + escape($0) + "\n" }.joined()
            out += Self.more(report.boundary.lines.count, shown: Self.maxLines, what: "day")
        }
        if !report.templates.templates.isEmpty {
            out += "\n**Changed templates no scenario showed** (old → new on the preview's sample days)\n\n"
            out += report.templates.lines.prefix(Self.maxLines).map { "- " + escape($0.trimmingCharacters(in: .whitespaces)) + "\n" }.joined()
            out += Self.more(report.templates.lines.count, shown: Self.maxLines, what: "line")
        }
        if let sample = report.sample {
            let lines = sample.lines
            out += "\n**\(escape(sample.title))**: " + (lines.isEmpty ? "no headline metric changed\n" : "\n\n")
            if sample.changed, let verdict = sample.diff.verdict {
                let verdictLines = verdict.lines()
                out += "**" + escape(verdictLines[0]) + "**\n\n"
                out += verdictLines.dropFirst().map { "- " + escape($0.trimmingCharacters(in: .whitespaces)) + "\n" }.joined()
                out += "\n<details><summary>every changed headline metric</summary>\n\n"
                out += lines.map { "- " + escape($0.trimmingCharacters(in: .whitespaces)) + "\n" }.joined()
                out += "\n</details>\n"
                return out
            }
            out += lines.prefix(Self.maxLines).map { "- " + escape($0.trimmingCharacters(in: .whitespaces)) + "\n" }.joined()
            out += Self.more(lines.count, shown: Self.maxLines, what: "metric")
        }
        return out
    }

    static func more(_ count: Int, shown: Int, what: String) -> String {
        count > shown ? "\n… and \(count - shown) more \(what)\(count - shown == 1 ? "" : "s") (see `rules diff --format text`)\n" : ""
    }
}

/// Markdown-safe text for pull-request comments and job summaries.
enum MarkdownText {
    /// `text` as literal Markdown text on one line: control characters (line feeds among them)
    /// become spaces, Markdown's punctuation is backslash-escaped, and `<`, `>`, `&`, `|`, `@`
    /// and `#` become character references, so nothing can start a tag, a table cell, a
    /// mention or an issue link (`$` too: GitHub reads `$…$` as mathematics).
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "|": out += "&#124;"
            case "@": out += "&#64;"
            case "#": out += "&#35;"
            case "\\", "`", "*", "_", "[", "]", "(", ")", "!", "~", "+", "$": out += "\\" + String(scalar)
            default:
                if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    out += " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
