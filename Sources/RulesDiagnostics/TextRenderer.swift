/// Renders diagnostics the way actionlint and rustc taught users to read them:
/// ```
/// rules/routes.yaml:12:27: error: unknown fact 'completion_rat' [type.unknown_fact]
///    12 |     when: now >= 21:00 && completion_rat < 0.6
///       |                           ^~~~~~~~~~~~~~
///    help: did you mean 'completion_rate'?
/// ```
/// The caret line is padded by display width, so it stays under the span on lines with
/// Hangul. Colour (ANSI) only when the caller asks for it.
public struct TextRenderer: Sendable {
    public var color: Bool

    public init(color: Bool) { self.color = color }

    /// Every diagnostic followed by a summary line (`2 errors, 1 warning`) when any exist.
    /// `sources` maps a file path to its text; a file without text renders without snippet.
    public func render(_ diagnostics: [Diagnostic], sources: [String: SourceFile]) -> String {
        var out = ""
        for diagnostic in diagnostics {
            out += render(diagnostic, source: sources[diagnostic.file])
        }
        let summary = TextRenderer.summary(of: diagnostics)
        if !summary.isEmpty { out += summary + "\n" }
        return out
    }

    /// `2 errors, 1 warning` (empty when there are neither).
    public static func summary(of diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.count { $0.severity == .error }
        let warnings = diagnostics.count { $0.severity == .warning }
        var parts: [String] = []
        if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    /// A character that steers a terminal or a log rather than showing: C0 and C1 controls
    /// and DEL, bidi controls (U+202E turns the rest of a line around) and the line and
    /// paragraph separators (U+2028 breaks a line where a reader does not expect one) —
    /// decided by Unicode property.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        guard value >= 0x061C, value <= 0x206F else { return false }
        let properties = scalar.properties
        return properties.isBidiControl || properties.generalCategory == .lineSeparator || properties.generalCategory == .paragraphSeparator
    }

    /// The styles this renderer paints with (`ESC [ style m`): only these pass
    /// `terminalSafe`; any other sequence (conceal, blink, a cursor move) is escaped.
    static let paintedStyles: Set<String> = ["0", "1", "2", "1;31", "1;33", "1;36"]

    /// `text` for one line of output (file names, messages and hints from input, names in
    /// reports): every control character escaped as `\u{1b}`, line feeds too (`\n`), so an
    /// ESC or BEL never retitles or clears the terminal and a name read from a file can never
    /// start a line of its own — in a CI log such a line (`::error file=…::`) would be taken
    /// for an annotation.
    public static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                out.append(contentsOf: "\\n".unicodeScalars)
            } else if isControl(scalar) {
                out.append(contentsOf: ("\\u{" + String(scalar.value, radix: 16) + "}").unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Output for a terminal: every control character from input (an ESC or BEL in a scenario
    /// name, a template text or a group name retitles, clears or rewrites the terminal) is
    /// written as `\u{1b}`; newlines, tabs and the colour sequences the renderers make
    /// (`paintedStyles`) pass; bidi controls and line separators are escaped too. Linear, and
    /// a plain text is returned as it is.
    public static func terminalSafe(_ text: String) -> String {
        // (0xC2: a C1 control's first byte; 0xD8 and 0xE2: those of the bidi controls and separators.)
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 })
        else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                // One of the renderer's own colours passes whole; anything else after ESC [
                // (conceal, blink, any other sequence) is escaped.
                var end = index + 2
                while end < scalars.count, scalars[end] == ";" || ("0"..."9").contains(scalars[end]) { end += 1 }
                var style = String.UnicodeScalarView()
                style.append(contentsOf: scalars[(index + 2)..<end])
                if end < scalars.count, scalars[end] == "m", paintedStyles.contains(String(style)) {
                    out.append(contentsOf: scalars[index...end])
                    index = end + 1
                    continue
                }
            }
            if isControl(scalar), scalar != "\n", scalar != "\t" {
                out.append(contentsOf: ("\\u{" + String(scalar.value, radix: 16) + "}").unicodeScalars)
            } else {
                out.append(scalar)
            }
            index += 1
        }
        return String(out)
    }

    /// A source line as shown under a diagnostic: tabs stay (the caret line copies them),
    /// other control characters become U+FFFD, one column each, so the caret stays aligned.
    static func shown(_ line: Substring) -> String {
        guard line.unicodeScalars.contains(where: { isControl($0) && $0 != "\t" }) else { return String(line) }
        var out = ""
        for scalar in line.unicodeScalars {
            out.unicodeScalars.append(isControl(scalar) && scalar != "\t" ? "\u{FFFD}" : scalar)
        }
        return out
    }

    /// One diagnostic: the header line, the source line with a caret, and the hint.
    public func render(_ d: Diagnostic, source: SourceFile?) -> String {
        let severityStyle: String
        switch d.severity {
        case .error: severityStyle = "1;31"
        case .warning: severityStyle = "1;33"
        case .note: severityStyle = "1;36"
        }
        var out = paint("\(TextRenderer.oneLine(d.file)):\(d.location.line):\(d.location.column):", "1") + " "
        out += paint("\(d.severity.rawValue):", severityStyle) + " "
        out += TextRenderer.oneLine(d.message) + " " + paint("[\(d.code.rawValue)]", "2") + "\n"
        let gutterWidth = Swift.max(5, String(d.location.line).count + 3)
        if let whole = source?.line(d.location.line) {
            let end = d.end.map { $0.line == d.location.line ? $0.column : Int.max }
            let (line, column, endColumn) = TextRenderer.window(whole, column: d.location.column, end: end)
            let number = String(d.location.line)
            let pad = String(repeating: " ", count: gutterWidth - number.count)
            out += paint(pad + number + " |", "2") + " " + TextRenderer.shown(line) + "\n"
            out += paint(String(repeating: " ", count: gutterWidth) + " |", "2") + " "
            out += paint(caretLine(line, column: column, end: endColumn), severityStyle) + "\n"
        }
        if let hint = d.hint {
            out += String(repeating: " ", count: gutterWidth - 2) + paint("help:", "1;36") + " " + TextRenderer.oneLine(hint) + "\n"
        }
        return out
    }

    /// Longest source line shown whole under a diagnostic, in UTF-8 bytes. A longer one (a
    /// minified file's single line) is cut to `windowScalars` around the caret, with "…"
    /// where it was cut: printed whole under each of its diagnostics, one 4 MiB line made
    /// hundreds of megabytes of output.
    static let maxShownBytes = 240
    static let windowScalars = 160

    /// The part of `line` shown for a span from `column` to `end` (1-based scalar columns, `end`
    /// one past the span, `Int.max` for "to the end of the line"), with the columns in it.
    static func window(_ line: Substring, column: Int, end: Int?) -> (line: Substring, column: Int, end: Int?) {
        guard line.utf8.count > maxShownBytes else { return (line, column, end) }
        let scalars = line.unicodeScalars
        let count = scalars.count
        guard count > windowScalars else { return (line, column, end) }
        let start = Swift.min(Swift.max(column - 1, 0), count)
        var low = Swift.max(start - windowScalars / 4, 0)
        let high = Swift.min(low + windowScalars, count)
        low = Swift.max(high - windowScalars, 0)
        let lowIndex = scalars.index(scalars.startIndex, offsetBy: low)
        let highIndex = scalars.index(lowIndex, offsetBy: high - low)
        let prefix = low > 0 ? "…" : ""
        let shown = prefix + String(scalars[lowIndex..<highIndex]) + (high < count ? "…" : "")
        let shift = low - prefix.unicodeScalars.count
        let shownEnd = end.map { Swift.min($0, high + 1) - shift }
        return (Substring(shown), column - shift, shownEnd)
    }

    /// Spaces (or the line's own tabs) up to the column, then `^~~~` over the span to `end`
    /// (one past it; `Int.max` runs to the end of the line).
    func caretLine(_ line: Substring, column: Int, end: Int?) -> String {
        let scalars = Array(line.unicodeScalars)
        let startIndex = Swift.min(Swift.max(column - 1, 0), scalars.count)
        var padding = ""
        for scalar in scalars[..<startIndex] {
            padding += scalar == "\t" ? "\t" : String(repeating: " ", count: DisplayWidth.of(scalar))
        }
        var endIndex = startIndex + 1
        if let end { endIndex = end == Int.max ? scalars.count : end - 1 }
        endIndex = Swift.min(Swift.max(endIndex, startIndex + 1), Swift.max(scalars.count, startIndex + 1))
        var width = 0
        for offset in startIndex..<endIndex {
            width += offset < scalars.count ? Swift.max(DisplayWidth.of(scalars[offset]), 1) : 1
        }
        return padding + "^" + String(repeating: "~", count: Swift.max(width - 1, 0))
    }

    private func paint(_ text: String, _ style: String) -> String {
        color ? "\u{1B}[\(style)m\(text)\u{1B}[0m" : text
    }
}
