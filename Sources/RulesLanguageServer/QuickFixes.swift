import Foundation
import RulesDiagnostics
import RulesDocument

/// The quick fixes a diagnostic's hint spells out, each an edit of the text it points at
/// (diagnostics come back from the client as they were sent):
/// - `did you mean 'x'?` replaces the range with x;
/// - `write 24-hour time: 20:30` replaces the time written with am/pm (`8:30pm`);
/// - `write a duration without spaces: 6h30m, or 390 where a fact counts minutes` offers both
///   for `6h 30m`;
/// - `write 08:30 for the morning or 20:30 for the evening` offers both for `8:30`;
/// - `quote the value: at: "8:30"` quotes the value;
/// - ``write `routines.x.enabled && …` `` replaces the condition from where it starts.
enum QuickFixes {
    static func fixes(for diagnostic: YAMLNode, uri: String, text: String) -> [QuickFix] {
        guard let message = diagnostic["message"]?.string, let range = LanguageServer.range(diagnostic["range"] ?? diagnostic) else { return [] }
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(range.start.line).first.map(String.init) ?? ""
        let site = Site(diagnostic: diagnostic, uri: uri, range: range, scalars: Array(line.unicodeScalars))
        let isDigit: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) }
        if let suggestion = between(message, "did you mean '", "'"), !suggestion.isEmpty {
            let end = range.end.line == range.start.line ? range.end.character : range.start.character
            return [site.fix("Replace with '\(suggestion)'", range.start.character, end, suggestion)]
        }
        if let time = between(message + "\n", "write 24-hour time: ", "\n") {
            let (from, to) = site.span { isDigit($0) || $0 == ":" || $0.properties.isAlphabetic }
            return [site.fix("Write \(time)", from, to, time)]
        }
        if let rest = between(message + "\n", "write a duration without spaces: ", "\n") {
            let (from, to) = site.span { isDigit($0) || "hms ".unicodeScalars.contains($0) }
            var out: [QuickFix] = []
            if let compact = rest.split(separator: ",").first.map(String.init) { out.append(site.fix("Write \(compact)", from, to, compact)) }
            if let minutes = between(rest, ", or ", " where") {
                out.append(site.fix("Write \(minutes) (minutes)", from, to, minutes, preferred: false))
            }
            return out
        }
        if let morning = between(message, "write ", " for the morning"),
            let evening = message.range(of: " for the morning").flatMap({ between(String(message[$0.upperBound...]), " or ", " for the evening") })
        {
            let (from, to) = site.span { isDigit($0) || $0 == ":" || $0 == "\"" }
            // A quoted time stays quoted.
            let quote = site.scalars.dropFirst(site.offset(from)).first == "\"" ? "\"" : ""
            return [
                site.fix("Write \(morning) (morning)", from, to, quote + morning + quote),
                site.fix("Write \(evening) (evening)", from, to, quote + evening + quote, preferred: false),
            ]
        }
        if let quoted = between(message + "\n", "quote the value: ", "\n"), let colon = quoted.firstIndex(of: ":") {
            let value = quoted[quoted.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !value.contains("…") else { return [] }
            let (from, to) = site.span { $0 != "#" && $0 != "," && $0 != "}" }
            return [site.fix("Quote the value", from, to, value)]
        }
        if let condition = between(message, "write `", "`") {
            return [site.fix("Write \(condition)", range.start.character, site.utf16(site.scalars.count), condition)]
        }
        return []
    }

    /// The text of `text` between `open` and the next `close`.
    static func between(_ text: String, _ open: String, _ close: String) -> String? {
        guard let from = text.range(of: open), let to = text[from.upperBound...].range(of: close) else { return nil }
        return String(text[from.upperBound..<to.lowerBound])
    }

    /// Where a diagnostic is: its line's scalars, and edits of that line.
    struct Site {
        let diagnostic: YAMLNode
        let uri: String
        let range: (start: TextDocument.Position, end: TextDocument.Position)
        let scalars: [Unicode.Scalar]

        /// The scalar offset in the line of a UTF-16 character position.
        func offset(_ character: Int) -> Int {
            var units = 0
            for (index, scalar) in scalars.enumerated() {
                if units >= character { return index }
                units += scalar.utf16.count
            }
            return scalars.count
        }

        func utf16(_ offset: Int) -> Int { scalars.prefix(offset).reduce(0) { $0 + $1.utf16.count } }

        /// The span around the diagnostic's start made of scalars `inside` accepts, trimmed of spaces.
        func span(_ inside: (Unicode.Scalar) -> Bool) -> (Int, Int) {
            var start = offset(range.start.character)
            var end = start
            while start > 0, inside(scalars[start - 1]) { start -= 1 }
            while end < scalars.count, inside(scalars[end]) { end += 1 }
            while start < end, scalars[start] == " " { start += 1 }
            while end > start, scalars[end - 1] == " " { end -= 1 }
            return (utf16(start), utf16(end))
        }

        /// A quick fix replacing characters `from` to `to` (UTF-16) of the line with `replacement`.
        func fix(_ title: String, _ from: Int, _ to: Int, _ replacement: String, preferred: Bool = true) -> QuickFix {
            QuickFix(
                title: title, line: range.start.line, from: from, to: to, replacement: replacement, preferred: preferred, diagnostic: diagnostic,
                uri: uri)
        }
    }
}

/// One quick fix: an edit of one line, offered for one diagnostic.
struct QuickFix {
    var title: String
    /// 0-based line; `from` and `to` are UTF-16 characters of it.
    var line: Int
    var from: Int
    var to: Int
    var replacement: String
    var preferred: Bool
    let diagnostic: YAMLNode
    let uri: String

    /// `text` with the edit made.
    func applied(to text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard line < lines.count else { return text }
        let units = Array(lines[line].utf16)
        let start = Swift.min(Swift.max(0, from), units.count)
        let end = Swift.min(Swift.max(start, to), units.count)
        let before = String(decoding: units[..<start], as: UTF16.self)
        let after = String(decoding: units[end...], as: UTF16.self)
        lines[line] = before + replacement + after
        return lines.joined(separator: "\n")
    }

    /// The protocol's code action.
    var json: JSONValue {
        func position(_ character: Int) -> JSONValue { .object([("line", .int(line)), ("character", .int(character))]) }
        let edit: JSONValue = .object([("range", .object([("start", position(from)), ("end", position(to))])), ("newText", .string(replacement))])
        return .object([
            ("title", .string(title)), ("kind", .string("quickfix")), ("isPreferred", .bool(preferred)),
            ("diagnostics", .array([LanguageServer.json(diagnostic)])), ("edit", .object([("changes", .object([(uri, .array([edit]))]))])),
        ])
    }
}
