import Foundation
import RulesDiagnostics
import RulesDocument
import Ruleset
import RulesetFiles

/// Quick fixes that are tried before they are offered.
extension LanguageServer {
    /// The quick fixes for the diagnostics a client sent. In a ruleset file each is tried on
    /// the text first: only a fix after which the file has fewer errors and none on the edited
    /// line is offered, and each diagnostic's first such fix is the preferred one — so the
    /// preferred fix for `6h 30m` where a fact counts minutes is `390`, never `6h30m`, which
    /// would not check there. A file outside the ruleset folders (a scenario) gets its fixes
    /// untried. A fix must leave fewer errors, or as many and fewer findings (a warning's fix).
    func codeActions(uri: String, diagnostics: [YAMLNode]) -> [JSONValue] {
        let text = text(of: uri) ?? ""
        let offered = diagnostics.map { QuickFixes.fixes(for: $0, uri: uri, text: text) }
        guard let root, offered.contains(where: { !$0.isEmpty }), let check = checker(uri: uri, root: root) else {
            return offered.flatMap { $0.map(\.json) }
        }
        let before = check(text)
        var out: [JSONValue] = []
        for fixes in offered {
            var preferredGiven = false
            for var fix in fixes {
                let after = check(fix.applied(to: text))
                let better = after.errors < before.errors || (after.errors == before.errors && after.findings < before.findings)
                guard better, !after.lines.contains(fix.line) else { continue }
                fix.preferred = !preferredGiven
                preferredGiven = true
                out.append(fix.json)
            }
        }
        return out
    }

    /// What a text of `uri`'s file gives, with the other open buffers in place: its errors and
    /// its findings (errors and warnings) in that file, and the lines of its errors (0-based);
    /// nil for a file outside the ruleset folders.
    func checker(uri: String, root: String) -> ((String) -> (errors: Int, findings: Int, lines: Set<Int>))? {
        let path = Self.path(of: uri)
        guard path.hasPrefix(root + "/") else { return nil }
        let display = String(path.dropFirst(root.count + 1))
        guard let folder = display.split(separator: "/").first, RulesetDirectory.rulesetFolders.contains(String(folder)) else { return nil }
        var (overlay, sizes) = buffers()
        sizes[path] = nil
        return { text in
            overlay[path] = text
            let found = Ruleset.load(directory: root, overlay: overlay, oversized: sizes).diagnostics.filter {
                $0.file == display && $0.severity >= .warning
            }
            let errors = found.filter { $0.severity == .error }
            return (errors.count, found.count, Set(errors.map { $0.location.line - 1 }))
        }
    }
}
