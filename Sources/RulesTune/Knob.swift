import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// A value of a ruleset that `rules tune` may set: a policy value, a notification's time, the
/// constant of a comparison in a condition, a setting's default, a scale or count. It is the
/// same element `rules diff` names when it changes, addressed by a dotted name
/// (`policy.max_per_day`, `route.short_sleep`) or by `file:line`, and written back by
/// replacing exactly the characters of its value in its file (comments, quotes, layout kept).
package struct Knob: Sendable, Equatable {
    /// What a knob's values are: whole numbers, numbers, times of day, durations or booleans.
    package enum Kind: String, Sendable {
        case count, number, time, duration, bool
    }

    /// `policy.max_per_day`, `route.short_sleep`, `notifications.evening_underachievement.at`.
    package var name: String
    /// The file, relative to the ruleset's root.
    package var file: String
    package var kind: Kind
    /// The current value: a number, or seconds for times and durations, 0 or 1 for booleans.
    package var current: Double
    /// The values the key allows, in the same unit.
    package var bounds: ClosedRange<Double>
    /// The characters of the value in the file: 1-based line, columns in Unicode scalars,
    /// end exclusive.
    package var line: Int
    package var startColumn: Int
    package var endColumn: Int
    /// What the knob is, in words (`the daily cap of notices`).
    package var what: String

    /// `file:line`, as `rules check` names places.
    package var place: String { "\(file):\(line)" }

    /// The value as the file writes it: `3`, `0.6`, `21:30`, `90m`, `true`.
    package func literal(_ value: Double) -> String {
        switch kind {
        case .count: return String(Int(value.rounded()))
        case .number: return Knob.decimal(value)
        case .time: return TimeFormat.clock(Int(value.rounded()) % 86_400)
        case .duration: return TimeFormat.duration(Int(value.rounded()))
        case .bool: return value != 0 ? "true" : "false"
        }
    }

    /// A number with at most six decimals and no trailing zeros (`0.55`, not `0.550000001`).
    package static func decimal(_ value: Double) -> String {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        var text = String(format: "%.6f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// The bounds in the knob's own notation: `1 … 64`, `00:00 … 23:59`.
    package var boundsText: String { "\(literal(bounds.lowerBound)) … \(literal(bounds.upperBound))" }
}

/// A candidate's value for each knob it sets, in knob order.
package struct KnobSetting: Sendable, Hashable {
    package var values: [Double]

    package init(_ values: [Double]) { self.values = values }

    /// `policy.max_per_day=2, route.short_sleep=345`.
    package func text(_ knobs: [Knob]) -> String {
        zip(knobs, values).map { "\($0.name)=\($0.literal($1))" }.joined(separator: ", ")
    }
}

/// Writes a setting into the ruleset's files: each knob's characters replaced by its new
/// literal, in place; every other byte kept.
package enum KnobEdit {
    /// The new texts of the files the setting changes (those whose value differs), by file.
    package static func texts(_ setting: KnobSetting, knobs: [Knob], sources: [String: SourceFile]) -> [String: String] {
        apply(setting, knobs: knobs, sources: sources).texts
    }

    /// What the edit did to comments on its lines: a comment that stated the old value
    /// (`max_per_day: 2  # 하루 최대 3개`) is updated when the value appears in it once, and
    /// named when it appears more often (which of them is the knob's cannot be told).
    package static func commentNotes(_ setting: KnobSetting, knobs: [Knob], sources: [String: SourceFile]) -> [String] {
        apply(setting, knobs: knobs, sources: sources).notes
    }

    static func apply(_ setting: KnobSetting, knobs: [Knob], sources: [String: SourceFile]) -> (texts: [String: String], notes: [String]) {
        var byFile: [String: [(knob: Knob, literal: String)]] = [:]
        for (knob, value) in zip(knobs, setting.values) where value != knob.current {
            byFile[knob.file, default: []].append((knob, knob.literal(value)))
        }
        var out: [String: String] = [:]
        var notes: [String] = []
        for (file, edits) in byFile.sorted(by: { $0.key < $1.key }) {
            guard let source = sources[file] else { continue }
            var scalars = Array(source.text.unicodeScalars)
            let starts = source.lineStartOffsets
            // From the end of the file backwards: an edit never moves the ones before it.
            for edit in edits.sorted(by: { ($0.knob.line, $0.knob.startColumn) > ($1.knob.line, $1.knob.startColumn) }) {
                guard edit.knob.line >= 1, edit.knob.line <= starts.count else { continue }
                let start = starts[edit.knob.line - 1] + edit.knob.startColumn - 1
                let end = starts[edit.knob.line - 1] + edit.knob.endColumn - 1
                guard start >= 0, start <= end, end <= scalars.count else { continue }
                let old = edit.knob.literal(edit.knob.current)
                if let note = CommentEdit.update(&scalars, after: end, old: old, new: edit.literal) {
                    notes.append("\(file):\(edit.knob.line): \(note)")
                }
                scalars.replaceSubrange(start..<end, with: Array(edit.literal.unicodeScalars))
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            out[file] = String(text)
        }
        return (out, notes.sorted())
    }
}

/// The comment after an edited value on its line: the old value it states, replaced.
enum CommentEdit {
    /// Updates the comment that follows offset `end` on its line when it states `old` once;
    /// returns what was done (nil: no comment states it).
    static func update(_ scalars: inout [Unicode.Scalar], after end: Int, old: String, new: String) -> String? {
        var lineEnd = end
        while lineEnd < scalars.count, scalars[lineEnd] != "\n", scalars[lineEnd] != "\r" { lineEnd += 1 }
        var lineStart = Swift.min(end, scalars.count)
        while lineStart > 0, scalars[lineStart - 1] != "\n", scalars[lineStart - 1] != "\r" { lineStart -= 1 }
        // The comment is found from the line's start (the value may sit inside quotes).
        guard let hash = commentStart(scalars, from: lineStart, to: lineEnd), hash >= end else { return nil }
        let comment = Array(scalars[hash..<lineEnd])
        let needle = Array(old.unicodeScalars)
        let found = occurrences(of: needle, in: comment)
        let shown = String(String.UnicodeScalarView(comment)).trimmingCharacters(in: .whitespaces)
        if found.count == 1, let at = found.first {
            scalars.replaceSubrange((hash + at)..<(hash + at + needle.count), with: Array(new.unicodeScalars))
            return "its comment stated the old value \(old); updated to \(new) (\(shown))"
        }
        guard found.count > 1 else { return nil }
        return "its comment states the old value \(old) \(found.count) times; check it by hand (\(shown))"
    }

    /// Where a YAML comment starts between `from` and `to`: a `#` after a space, outside quotes.
    static func commentStart(_ scalars: [Unicode.Scalar], from: Int, to: Int) -> Int? {
        var quote: Unicode.Scalar?
        var i = from
        while i < to {
            let c = scalars[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#", i > 0, scalars[i - 1] == " " || scalars[i - 1] == "\t" {
                return i
            }
            i += 1
        }
        return nil
    }

    /// Offsets of `needle` in `text` standing alone: not inside a longer number or time
    /// (`3` in `30` or `13:30`), though a Korean counter may follow (`3개`).
    static func occurrences(of needle: [Unicode.Scalar], in text: [Unicode.Scalar]) -> [Int] {
        guard !needle.isEmpty, text.count >= needle.count else { return [] }
        func joins(_ c: Unicode.Scalar) -> Bool { c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "." || c == ":") }
        var out: [Int] = []
        for at in 0...(text.count - needle.count) where Array(text[at..<(at + needle.count)]) == needle {
            if at > 0, joins(text[at - 1]) { continue }
            if at + needle.count < text.count, joins(text[at + needle.count]) { continue }
            out.append(at)
        }
        return out
    }
}
