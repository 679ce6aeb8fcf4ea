import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// Text a lock screen shows holds nothing a person cannot see, and sensitive words and
/// forbidden phrases are found however they are spaced, widened or split by invisible
/// characters: each hostile text of the shipped ruleset's lock screen is refused.
@Suite struct VisibleTextTests {
    static let root = Fixtures.repositoryRoot()

    /// The shipped ruleset with one more lock-screen template whose text is `text`; the codes
    /// of the errors `rules check` reports for it.
    func codes(lockScreen text: String, fallback: String? = nil) throws -> [String] {
        let directory = try Fixtures.copyOfShipped()
        let quoted =
            "\"" + text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? String(format: "\\x%02X", $0.value) : String($0) }.joined() + "\""
        try """
        templates:
          - id: hostile_line
            surface: lock_screen
            text: \(quoted)
        """.write(toFile: directory + "/templates/zz_hostile.yaml", atomically: true, encoding: .utf8)
        if let fallback {
            let path = directory + "/templates/surfaces.yaml"
            let surfaces = try String(contentsOfFile: path, encoding: .utf8)
            let replaced = surfaces.replacingOccurrences(of: "fallback: 오늘 루트가 업데이트됐어.", with: "fallback: \"\(fallback)\"")
            #expect(replaced != surfaces)
            try replaced.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let load = Ruleset.load(directory: directory)
        return load.diagnostics.filter { $0.severity == .error }.map(\.code.rawValue)
    }

    @Test(arguments: [
        "수\u{200B}면 기록을 확인해.", "수\u{200D}면 기록", "수\u{200C}면 기록", "수\u{2060}면 기록", "수\u{00AD}면 기록", "\u{FEFF}수면 기록",
        "수\u{FE0F}면 기록", "수\u{3164}면 기록", "수\u{E0041}면 기록", "\u{202E}록기 면수", "오늘\u{1B}[2J 루트", "오늘\u{07} 루트", "오늘\u{0} 루트",
        "오늘\r\n루트", "오늘\n루트",
    ])
    func aHiddenCharacterOnTheLockScreenIsAnError(text: String) throws {
        #expect(try codes(lockScreen: text).contains("lint.hidden_character"), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test(arguments: ["수 면 기록을 확인해.", "약\u{00A0}먹을 시간", "약먹을 시간", "ＳＬＥＥＰ 수면", "수\u{3000}면"])
    func aSensitiveWordHidByWidthOrSpacingIsStillFound(text: String) throws {
        #expect(try codes(lockScreen: text).contains("lint.sensitive_word"), "\(text)")
    }

    @Test func theFallbackIsCheckedLikeAnyText() throws {
        #expect(try codes(lockScreen: "오늘 루트가 준비됐어.", fallback: "수면이 부족해").contains("lint.sensitive_word"))
        #expect(try codes(lockScreen: "오늘 루트가 준비됐어.", fallback: "오늘\u{200B} 루트").contains("lint.hidden_character"))
        #expect(try codes(lockScreen: "오늘 루트가 준비됐어.").isEmpty)
    }

    @Test func aPileOfCombiningMarksIsAnError() throws {
        let pile = "a" + String(repeating: "\u{0301}", count: 5_000)
        #expect(try codes(lockScreen: pile).contains("lint.hidden_character"))
        #expect(VisibleText.firstHidden(in: "é") == nil)
        #expect(VisibleText.firstHidden(in: "오늘도 가자 ❤️ 👩‍💻") == nil)
    }

    /// Decided by property, not by a list: format characters (interlinear annotation,
    /// hieroglyph format controls), placeholders that draw nothing, a filler mark, private use
    /// and unassigned code points, marks on Hangul (which takes none) and the line and
    /// paragraph separators all hide from the person reading the lock screen.
    @Test(arguments: [
        "수\u{FFF9}면\u{FFFA}기록\u{FFFB}", "수\u{FFFC}면 기록", "수\u{2800}면 기록", "수\u{13430}면 기록", "수\u{16FE4}면 기록", "수\u{E000}면 기록",
        "수\u{F0000}면 기록", "수\u{0378}면 기록", "수\u{0301}면 기록", "수\u{0301}\u{0301}\u{0301}\u{0301}면 기록", "수\u{20DD}면 기록",
        "수\u{302E}면 기록", "오늘\u{2028}루트", "오늘\u{2029}루트", "\u{0301}오늘 루트", "오늘 \u{0301}루트",
    ])
    func aCharacterHiddenByItsPropertiesIsAnError(text: String) throws {
        #expect(try codes(lockScreen: text).contains("lint.hidden_character"), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// What people write is not hidden: accents on Latin letters, a keycap, emoji sequences,
    /// kana with a voicing mark, Korean and its punctuation.
    @Test(arguments: ["é", "e\u{0301}", "1\u{FE0F}\u{20E3}", "👍🏽 오늘 ❤️", "か\u{3099}", "오늘도 가자 — 세 개만, 100%!", "👩‍💻 ✔︎"])
    func whatPeopleWriteIsNotHidden(text: String) {
        #expect(VisibleText.firstHidden(in: text) == nil, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// Printable ASCII and Hangul syllables (read without looking up their properties) are
    /// never hidden; a mark on a Hangul syllable, a space or punctuation still is, on a Latin
    /// letter or a digit it is not.
    @Test func printableASCIIAndHangulSyllablesAreNeverHidden() {
        let scalars = (0x20...0x7E).compactMap(Unicode.Scalar.init) + (0xAC00...0xD7A3).compactMap(Unicode.Scalar.init)
        #expect(scalars.count == 95 + 11_172)
        let hidden = scalars.filter { VisibleText.firstHidden(in: String(String.UnicodeScalarView([$0]))) != nil }
        #expect(hidden.isEmpty, "\(hidden.prefix(5).map { String($0.value, radix: 16) })")
        for (base, takes) in [("수", false), ("힣", false), (" ", false), ("!", false), ("e", true), ("Z", true), ("7", true)] {
            #expect((VisibleText.firstHidden(in: base + "\u{0301}") == nil) == takes, "\(base)")
        }
    }

    @Test func foldingRemovesWhatHidesAWord() {
        #expect(VisibleText.folded("수\u{200B}면 ＡＢ\u{00A0}c") == "수면ABc")
        #expect(VisibleText.says("한\u{2060}심하네", "한심"))
        #expect(!VisibleText.says("오늘 루트", ""))
    }
}
