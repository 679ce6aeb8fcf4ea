import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// A file that fails to parse is reported alone: the indentation hint names the fix, and the
/// "never used" findings it causes elsewhere are left out with one note.
@Suite struct KnockOnTests {
    static let root = Fixtures.repositoryRoot()

    @Test func anUnderIndentedLineIsOneErrorWithAnIndentationHintAndOneNote() throws {
        let directory = try Fixtures.copyOfShipped()
        let path = directory + "/templates/notifications.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "  - id: evening_salvage", with: " - id: evening_salvage").write(
            toFile: path, atomically: true, encoding: .utf8)
        let load = Ruleset.load(directory: directory)
        #expect(load.ruleset == nil)
        let errors = load.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.file == "templates/notifications.yaml")
        #expect(errors.first?.hint?.contains("indentation") == true)
        #expect(!load.diagnostics.contains { $0.code == "lint.unused_template" || $0.code == "ruleset.unknown_reference" })
        #expect(load.diagnostics.filter { $0.code == "ruleset.knock_on" }.count == 1)
    }

    /// The shipped ruleset in a temporary directory, with `edits` (file → (old, new)) applied.
    func shippedWith(_ edits: [String: [(String, String)]]) throws -> String {
        let directory = try Fixtures.copyOfShipped()
        for (file, replacements) in edits {
            var text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for (old, new) in replacements {
                #expect(text.contains(old), "\(file) holds '\(old)'")
                text = text.replacingOccurrences(of: old, with: new)
            }
            try text.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// A routine left out for its own error is not reported again where it is named: not by
    /// the recovery route, not by an expression (`routines.water.progress`).
    /// A quoted number or truth value is text in a rule file as in a population file (and in
    /// the editors' schemas): refused with the unquoted spelling; a bundle of the shipped
    /// ruleset (which keeps no quoting) still loads.
    @Test func aQuotedNumberIsTextInEveryFile() throws {
        let quoted = try shippedWith([
            "routines/water.yaml": [("goal: 1500", "goal: \"1500\"")],
            "rules/notifications.yaml": [("max_per_day: 3", "max_per_day: '3'")],
        ])
        let load = Ruleset.load(directory: quoted)
        #expect(load.ruleset == nil)
        let hints = load.diagnostics.filter { $0.code == "ruleset.wrong_type" }.compactMap(\.hint)
        #expect(hints.contains("remove the quotes: 'goal: 1500' (quoted, YAML reads it as text)"), "\(load.diagnostics)")
        #expect(hints.contains { $0.hasPrefix("remove the quotes: 'max_per_day: 3'") }, "\(load.diagnostics)")
        let root = Fixtures.repositoryRoot()
        let files = RulesetDirectory.files(in: root, folders: RulesetDirectory.rulesetFolders)
        let bundle = Ruleset.load(bundle: Data(RulesetBundle.make(RulesetDirectory.read(files).documents).utf8))
        #expect(bundle.ruleset != nil, "\(bundle.diagnostics)")
    }

    @Test func aBrokenRoutineIsOneErrorWhereverItIsNamed() throws {
        let named = try shippedWith([
            "rules/route.yaml": [("when: (sleep.minutes ?? 420) < 360", "when: (sleep.minutes ?? 420) < 360 && routines.water.progress < 0.5")]
        ])
        #expect(Ruleset.load(directory: named).ruleset != nil, "the reference itself is fine")
        let broken = try shippedWith([
            "rules/route.yaml": [("when: (sleep.minutes ?? 420) < 360", "when: (sleep.minutes ?? 420) < 360 && routines.water.progress < 0.5")],
            "routines/water.yaml": [("goal: 1500", "goal: lots")],
        ])
        let load = Ruleset.load(directory: broken)
        #expect(load.ruleset == nil)
        let errors = load.diagnostics.filter { $0.severity == .error }
        #expect(errors.map { "\($0.file) \($0.code)" } == ["routines/water.yaml ruleset.wrong_type"], "\(errors.map(\.message))")
        // A routine that is not written anywhere is still reported where it is named.
        let misspelt = try shippedWith([
            "rules/route.yaml": [("when: (sleep.minutes ?? 420) < 360", "when: (sleep.minutes ?? 420) < 360 && routines.watr.progress < 0.5")]
        ])
        #expect(Ruleset.load(directory: misspelt).diagnostics.map(\.code) == ["type.unknown_routine"])
    }

    /// A template left out for its own error (a particle written as a filter) is one error,
    /// with the fix as its hint, not also "no template named" at each notification using it.
    @Test func aBrokenTemplateIsOneErrorWithTheParticleFix() throws {
        let broken = try shippedWith(["templates/notifications.yaml": [("text: 오늘 루트가 준비됐어.", "text: 오늘 {routines.study.name|을} 시작하자.")]])
        let load = Ruleset.load(directory: broken)
        let errors = load.diagnostics.filter { $0.severity == .error }
        #expect(errors.map { "\($0.file) \($0.code)" } == ["templates/notifications.yaml ruleset.invalid_template"], "\(errors.map(\.message))")
        #expect(errors.first?.hint == "a particle follows the placeholder in both forms, chosen by the value: {routines.study.name}을(를)")
    }
}

/// An entry an error leaves out does not also make its template "never used".
@Suite struct WithheldEntryTests {
    @Test(arguments: ["    at: 20시\n", "    at: \"20:30\"\n    colour: blue\n"])
    func aBrokenNotificationDoesNotMakeItsTemplateUnused(_ broken: String) throws {
        let directory = try Fixtures.copyOfShipped()
        let path = directory + "/rules/notifications.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = text.replacingOccurrences(of: "    at: \"20:30\"\n", with: broken)
        #expect(changed != text)
        try changed.write(toFile: path, atomically: true, encoding: .utf8)
        let codes = Ruleset.load(directory: directory).diagnostics.map(\.code.rawValue)
        #expect(codes.count == 1, "\(codes)")
        #expect(!codes.contains("lint.unused_template"))
    }
}

/// An unquoted comma inside `{ … }` splits a sentence into a value and a key: the hint says
/// to quote the value, not which keys a template takes.
@Suite struct FlowCommaTests {
    @Test func theRestOfASentenceAfterACommaSaysQuoteTheValue() throws {
        let directory = Fixtures.temporaryDirectory()
        try Fixtures.write(
            [
                "templates/t.yaml": """
                surfaces:
                  home: { sensitive: allowed }
                templates:
                  - { id: stretch, surface: home, event: home, text: 스트레칭 10분만, 처리하고 귀환해. }
                """
            ], to: directory)
        let diagnostics = Ruleset.load(directory: directory).diagnostics.filter { $0.code == "ruleset.unknown_key" }
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hint == "a comma ends a value inside { … }: quote the value of 'text' (text: \"…, 처리하고 귀환해.\")")
        // A misspelt key in braces keeps its did-you-mean.
        let other = Fixtures.temporaryDirectory()
        try Fixtures.write(
            ["templates/t.yaml": "surfaces:\n  home: { sensitive: allowed }\ntemplates:\n  - { id: a, surface: home, event: home, txt: 안녕 }\n"],
            to: other)
        #expect(Ruleset.load(directory: other).diagnostics.first { $0.code == "ruleset.unknown_key" }?.hint == "did you mean 'text'?")
    }
}

/// Found by FuzzEngine: a category cooldown of 0 (which `rules check` accepts) trapped the
/// cooldown-clash lint, whose sliding window ran past its own entry.
@Suite struct ZeroCooldownTests {
    @Test(arguments: ["0s", "0m", "1s"])
    func aZeroOrTinyCooldownChecksWithoutTrapping(_ cooldown: String) throws {
        let directory = try Fixtures.copyOfShipped()
        let path = directory + "/rules/notifications.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var changed = text.replacingOccurrences(of: "category_cooldown: 90m", with: "category_cooldown: \(cooldown)")
        // Two notices of one category at the same minute.
        changed = changed.replacingOccurrences(of: "    at: \"20:30\"", with: "    at: \"09:00\"")
        #expect(changed != text)
        try changed.write(toFile: path, atomically: true, encoding: .utf8)
        let load = Ruleset.load(directory: directory)
        #expect(!load.diagnostics.contains { $0.code == "lint.cooldown_clash" } || cooldown == "1s")
    }

    /// An unknown built-in fact cannot follow from a file that did not parse: it is reported
    /// beside the parse error.
    @Test func aMisspelledBuiltInFactIsReportedBesideABrokenFile() throws {
        let directory = try KnockOnTests().shippedWith(["rules/route.yaml": [("(sleep.minutes ?? 420) < 360", "(sleep.minuts ?? 420) < 360")]])
        try "policy:\n  foo: \"unterminated\n".write(toFile: directory + "/rules/zz.yaml", atomically: true, encoding: .utf8)
        let load = Ruleset.load(directory: directory)
        #expect(load.diagnostics.contains { $0.file == "rules/route.yaml" && $0.message == "'sleep' has no member 'minuts'" })
    }
}
