import RulesDocument
import RulesYAML
import Testing

/// Text written double-quoted reads back through libyaml as the same text, whatever it holds.
@Suite struct YAMLQuotedTests {
    @Test(arguments: [
        "plain", "", "with \"quotes\" and \\ backslashes", "two\nlines", "tab\there", "nul \u{0} bell \u{7} del \u{7F}",
        "next line \u{85} line separator \u{2028} paragraph \u{2029}", "\u{FEFF}bom first", "key: value # not a comment",
        "- not a list", "갓생 operator 🌱", "  spaces around  ", "\r\ncarriage",
    ])
    func textComesBackAsItWentIn(_ text: String) throws {
        let parsed = YAMLReader.parse("k: " + YAMLQuoted.text(text) + "\nnext: 1\n", file: "q.yaml")
        #expect(parsed.isClean, "\(parsed.diagnostics.map(\.message))")
        let pairs = try #require(parsed.documents.first?.pairs)
        #expect(pairs.count == 2)
        #expect(pairs.first?.value.scalar == text)
    }
}
