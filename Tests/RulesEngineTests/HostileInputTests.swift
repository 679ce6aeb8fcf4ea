import Foundation
import RulesDiagnostics
import RulesEngine
import Ruleset
import Testing

/// Hostile input found by hand, each refused or made harmless (never a trap).
@Suite struct HostileInputTests {
    @Test func theStoreRefusesABundleWithNoDocumentsEvenWithTheRightHash() {
        // (Even signed by a trusted key: the check comes before the signatures'.)
        let store = RulesetStore(ruleset: Shipped.ruleset, keys: TrustedKeys(), installID: "i")
        let empty = RulesetBundle.make([], release: BundleRelease(sequence: 1))
        guard case .failure(let refusal) = store.offer(bundle: Data(empty.utf8)) else {
            Issue.record("an empty bundle was swapped in")
            return
        }
        #expect(refusal.diagnostics.first?.message == "the bundle holds no documents")
        #expect(store.current.routines.count == Shipped.ruleset.routines.count)
    }

    @Test(arguments: ["Asia/Seoul\u{0}", "Asia/Seoul\n", " Asia/Seoul", "", "Mars/Olympus"])
    func aTimeZoneNameWithControlsOrUnknownIsRefused(name: String) {
        #expect(LocalClock(identifier: name) == nil)
    }

    @Test func controlCharactersFromInputNeverReachTheTerminal() {
        let hostile = "a\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let diagnostic = Diagnostic(
            code: "ruleset.unknown_key", severity: .error, file: "rules/\(hostile).yaml", location: SourceLocation(line: 1, column: 1),
            message: "unknown key '\(hostile)'", hint: "did you mean '\(hostile)'?")
        let source = SourceFile(path: "rules/\(hostile).yaml", text: "\(hostile): 1\n")
        let text = TextRenderer(color: false).render([diagnostic], sources: [diagnostic.file: source])
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(text.contains("\\u{1b}]0;pwned\\u{7}"))
    }
}
