import Foundation
import RulesDiagnostics
import Ruleset

/// What the cursor is on in a rule file, read from the line and the lines above it (the text
/// is often not valid YAML while it is typed): a key being written and the keys it sits under,
/// or the value of a key (an expression, an id) with the word before the cursor.
struct CursorContext {
    enum Place: Equatable {
        /// Writing a key of the mapping under `parents` (`["notifications", "[]"]`).
        case key(parents: [String])
        /// In the value of `key`, under `parents`.
        case value(key: String, parents: [String])
    }

    var place: Place
    /// The identifier before the cursor (letters, digits, `_` and `.`), what completion replaces.
    var word: String
    /// The whole identifier the cursor is on (for hover and definition).
    var token: String
    /// The file kind: `routine`, `rules`, `scenario`, `population`.
    var kind: String
    /// The line up to the cursor.
    var before = ""

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "."
    }

    /// The file kind of a path by its folder.
    static func kind(of path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2 else { return nil }
        switch parts[parts.count - 2] {
        case "routines": return "routine"
        case "rules", "templates": return "rules"
        case "scenarios": return "scenario"
        case "populations": return "population"
        default: return nil
        }
    }

    /// One line read as YAML: where its key starts (after `- `), the key, and what follows the colon.
    struct Line {
        var indent: Int
        var dash: Int?
        var keyColumn: Int
        var key: String?
        var rest: String?

        init(_ text: Substring) {
            let characters = Array(text)
            var index = 0
            while index < characters.count, characters[index] == " " { index += 1 }
            indent = index
            if index < characters.count, characters[index] == "-", index + 1 == characters.count || characters[index + 1] == " " {
                dash = index
                index += 1
                while index < characters.count, characters[index] == " " { index += 1 }
            }
            keyColumn = index
            var end = index
            while end < characters.count, characters[end] != ":", characters[end] != " ", characters[end] != "#" { end += 1 }
            if end < characters.count, characters[end] == ":", end > index, end + 1 == characters.count || characters[end + 1] == " " {
                key = String(characters[index..<end])
                rest = String(characters[(end + 1)...]).trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// The context at `position` in `text` of a file of `kind`.
    static func at(_ position: TextDocument.Position, in text: String, kind: String) -> CursorContext {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = Swift.min(position.line, Swift.max(0, lines.count - 1))
        let lineText = lines.isEmpty ? "" : lines[row]
        // The cursor's offset in the line, from UTF-16 units.
        var before = ""
        var units = 0
        for scalar in lineText.unicodeScalars {
            if units >= position.character { break }
            before.unicodeScalars.append(scalar)
            units += scalar.utf16.count
        }
        let after = String(lineText.unicodeScalars.dropFirst(before.unicodeScalars.count))
        let word = String(String.UnicodeScalarView(before.unicodeScalars.reversed().prefix { isWordScalar($0) }.reversed()))
        let token = word + String(String.UnicodeScalarView(after.unicodeScalars.prefix { isWordScalar($0) }))
        let line = Line(before[...])
        var parents: [String] = []
        // The keys above, found by indentation: a `key:` with nothing after it holds a mapping or
        // a list; a `- ` item is one element of a list.
        var column = line.keyColumn
        if line.dash != nil, line.key == nil { column = (line.dash ?? 0) + 2 }
        for previous in lines[..<row].reversed() {
            let above = Line(previous)
            let trimmed = previous.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if let dash = above.dash, dash < column {
                if parents.first != "[]" { parents.insert("[]", at: 0) }
                column = dash
                if above.keyColumn < column, let key = above.key, above.rest?.isEmpty == true { parents.insert(key, at: 0) }
                continue
            }
            if above.keyColumn < column, let key = above.key, above.rest?.isEmpty ?? true {
                parents.insert(key, at: 0)
                column = above.keyColumn
            }
            if column == 0 { break }
        }
        if let key = line.key, before.count > line.keyColumn + key.count {
            return CursorContext(place: .value(key: key, parents: parents), word: word, token: token, kind: kind, before: before)
        }
        // `{ key: value, … }` on one line: the last key before the cursor in the flow mapping.
        if let brace = before.lastIndex(of: "{"), let colon = before[brace...].lastIndex(of: ":") {
            let keyText = before[before.index(after: brace)..<colon].split(separator: ",").last?.trimmingCharacters(in: .whitespaces) ?? ""
            if !keyText.isEmpty {
                return CursorContext(place: .value(key: keyText, parents: parents), word: word, token: token, kind: kind, before: before)
            }
        }
        return CursorContext(place: .key(parents: parents), word: word, token: token, kind: kind, before: before)
    }
}
