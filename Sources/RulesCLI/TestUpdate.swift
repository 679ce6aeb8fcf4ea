import Foundation
import RulesDiagnostics
import RulesDocument
import RulesSimulator
import RulesYAML

/// `rules test --update`: rewrites failing expectations in place with what the engine now
/// does — only the values that change (and a key's name when a delivery became a
/// suppression), so comments, quoting elsewhere and layout stay as written.
enum TestUpdate {
    /// One replacement in a file, in Unicode scalar offsets.
    struct Edit {
        var start: Int
        var end: Int
        var text: String
    }

    /// `text` with the fixes of `failures` applied; the failures it could not fix (no fix, or
    /// their node not found) are returned.
    static func apply(_ failures: [ExpectationResult], to text: String, file: String) -> (text: String, left: [ExpectationResult]) {
        let parsed = YAMLReader.parse(text, file: file)
        var nodes: [SourceLocation: YAMLNode] = [:]
        func walk(_ node: YAMLNode) {
            switch node.content {
            case .mapping(let pairs):
                nodes[node.start] = node
                for pair in pairs { walk(pair.value) }
            case .sequence(let items): for item in items { walk(item) }
            case .scalar: break
            }
        }
        for document in parsed.documents { walk(document) }
        let scalars = Array(text.unicodeScalars)
        // Lines numbered as the parser numbers them (a lone CR, NEL, LS and PS end lines too).
        let lineStarts = SourceFile(path: file, text: text).lineStartOffsets
        func offset(_ location: SourceLocation) -> Int? {
            guard location.line >= 1, location.line <= lineStarts.count else { return nil }
            let at = lineStarts[location.line - 1] + location.column - 1
            return at <= scalars.count ? at : nil
        }
        var edits: [Edit] = []
        var left: [ExpectationResult] = []
        for failure in failures {
            guard !failure.fixes.isEmpty, let node = nodes[failure.expectation.origin.location], let pairs = node.pairs else {
                left.append(failure)
                continue
            }
            var mine: [Edit] = []
            for fix in failure.fixes {
                guard let pair = pairs.first(where: { $0.key.scalar == fix.key }), let start = offset(pair.value.start),
                    let end = offset(pair.value.end)
                else { break }
                mine.append(Edit(start: start, end: end, text: fix.value))
                if let name = fix.renamedTo, let keyStart = offset(pair.key.start), let keyEnd = offset(pair.key.end) {
                    mine.append(Edit(start: keyStart, end: keyEnd, text: name))
                }
            }
            // All of an expectation's fixes, or none of them.
            guard mine.count >= failure.fixes.count else {
                left.append(failure)
                continue
            }
            edits += mine
        }
        var result = scalars
        for edit in edits.sorted(by: { $0.start > $1.start }) where edit.start <= edit.end && edit.end <= result.count {
            result.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.unicodeScalars))
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: result)
        return (String(view), left)
    }

    /// The changed lines of `old` → `new` (same number of lines), as `-`/`+` pairs under
    /// `file:line` (lines numbered as the parser numbers them).
    static func diff(_ old: String, _ new: String, file: String) -> String {
        let before = SourceFile(path: file, text: old)
        let after = SourceFile(path: file, text: new)
        var out = ""
        for number in 1...Swift.min(before.lineCount, after.lineCount) {
            guard let was = before.line(number), let now = after.line(number), was != now else { continue }
            out +=
                TextRenderer.oneLine("\(file):\(number)") + "\n- " + TextRenderer.oneLine(String(was)) + "\n+ "
                + TextRenderer.oneLine(String(now)) + "\n"
        }
        return out
    }
}
