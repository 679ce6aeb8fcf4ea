import Foundation
import RulesDiagnostics

/// A unified diff (`--- a/FILE`, `+++ b/FILE`, `@@ -l,n +l,n @@` hunks with three lines of
/// context) of edits that replace characters within lines, as knob edits do: the two texts
/// have the same lines, some of them changed. `git apply` and `patch -p1` take it.
package enum UnifiedDiff {
    package static func of(_ old: String, _ new: String, file: String, context: Int = 3) -> String {
        let before = SourceFile(path: file, text: old)
        let after = SourceFile(path: file, text: new)
        let count = Swift.min(before.lineCount, after.lineCount)
        let changed = (1...Swift.max(1, count)).filter { before.line($0) != after.line($0) }
        guard !changed.isEmpty else { return "" }
        // Hunks: runs of changed lines whose contexts touch.
        var hunks: [(Int, Int)] = []
        for line in changed {
            let start = Swift.max(1, line - context)
            let end = Swift.min(count, line + context)
            if let last = hunks.last, start <= last.1 + 1 { hunks[hunks.count - 1].1 = end } else { hunks.append((start, end)) }
        }
        var out = "--- a/\(TextRenderer.oneLine(file))\n+++ b/\(TextRenderer.oneLine(file))\n"
        for (start, end) in hunks {
            out += "@@ -\(start),\(end - start + 1) +\(start),\(end - start + 1) @@\n"
            for line in start...end {
                let was = String(before.line(line) ?? "")
                let now = String(after.line(line) ?? "")
                if was == now {
                    out += " \(was)\n"
                } else {
                    out += "-\(was)\n+\(now)\n"
                }
            }
        }
        return out
    }
}
