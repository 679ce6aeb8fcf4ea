import RulesDiagnostics
import RulesDocument
import RulesYAML
import Testing

@Suite struct YAMLReaderTests {
    func parse(_ text: String) -> ParsedDocuments { YAMLReader.parse(text, file: "t.yaml") }

    func only(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> YAMLNode {
        let parsed = parse(text)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)", sourceLocation: sourceLocation)
        return try #require(parsed.documents.first, sourceLocation: sourceLocation)
    }

    @Test func positionsOfNestedNodes() throws {
        let root = try only(
            """
            risk:
              - level: high
                when: now >= 21:00
            """)
        let risk = try #require(root["risk"])
        #expect(risk.start == SourceLocation(line: 2, column: 3))
        let entry = try #require(risk.items?.first)
        #expect(entry.start == SourceLocation(line: 2, column: 5))
        let when = try #require(entry["when"])
        #expect(when.scalar == "now >= 21:00")
        #expect(when.start == SourceLocation(line: 3, column: 11))
        #expect(when.end == SourceLocation(line: 3, column: 23))
        #expect(entry["level"]?.start == SourceLocation(line: 2, column: 12))
    }

    @Test func columnsCountUnicodeScalarsNotBytes() throws {
        let root = try only("name: 물 마시기\nunit: ml\n")
        #expect(root["name"]?.end == SourceLocation(line: 1, column: 12))
        let text = "- 스킨케어: 양치"
        let list = try only(text)
        let pair = try #require(list.items?.first?.pairs?.first)
        #expect(pair.value.start == SourceLocation(line: 1, column: 9))
    }

    @Test(arguments: [
        ("a: plain", ScalarStyle.plain),
        ("a: 'single'", .singleQuoted),
        ("a: \"double\"", .doubleQuoted),
        ("a: |\n  literal\n", .literal),
        ("a: >\n  folded\n", .folded),
    ])
    func keepsScalarStyle(text: String, style: ScalarStyle) throws {
        let root = try only(text)
        #expect(root["a"]?.scalarStyle == style)
    }

    @Test func neverAppliesImplicitTyping() throws {
        let root = try only("at: 20:30\nflag: no\nn: 0x10\n")
        #expect(root["at"]?.scalar == "20:30")
        #expect(root["flag"]?.scalar == "no")
        #expect(root["n"]?.scalar == "0x10")
    }

    @Test func keepsMappingOrderAndFlowStyle() throws {
        let root = try only("z: 1\na: {b: 2, c: [x, y]}\nm: 3\n")
        #expect(root.pairs?.map { $0.key.scalar } == ["z", "a", "m"])
        #expect(root["a"]?.isFlow == true)
        #expect(root["a"]?["c"]?.items?.map(\.scalar) == ["x", "y"])
    }

    @Test func readsSeveralDocuments() {
        let parsed = parse("a: 1\n---\nb: 2\n---\n")
        #expect(parsed.isClean)
        #expect(parsed.documents.count == 3)
        #expect(parsed.documents[1]["b"]?.scalar == "2")
        #expect(parsed.documents[2].isNull)
    }

    @Test func emptyFileHasNoDocuments() {
        let parsed = parse("")
        #expect(parsed.isClean)
        #expect(parsed.documents.isEmpty)
    }

    @Test func keepsTagsAndAnchors() throws {
        let root = try only("when: !x\nbase: &b {k: 1}\ncopy: *b\n")
        #expect(root["when"]?.tag == "!x")
        #expect(root["base"]?.anchor == "b")
        #expect(root["copy"]?.isAlias == true)
        #expect(root["copy"]?["k"]?.scalar == "1")
        #expect(root["copy"]?.start == SourceLocation(line: 3, column: 7))
    }

    @Test func duplicateKeyPointsAtSecondAndNamesFirstLine() throws {
        let parsed = parse("id: water\nname: 물\nid: steps\n")
        let d = try #require(parsed.diagnostics.first)
        #expect(d.code == "yaml.duplicate_key")
        #expect(d.location == SourceLocation(line: 3, column: 1))
        #expect(d.message.contains("line 1"))
        #expect(parsed.documents.first?["id"]?.scalar == "water")
    }

    @Test func duplicateKeysInLargeMappings() throws {
        var text = ""
        for i in 0..<40 { text += "k\(i): \(i)\n" }
        text += "k7: again\n"
        let parsed = parse(text)
        #expect(parsed.diagnostics.map(\.code) == ["yaml.duplicate_key"])
        #expect(parsed.diagnostics.first?.location.line == 41)
        #expect(parsed.diagnostics.first?.message.contains("line 8") == true)
    }

    @Test func billionLaughsFailsWithBudgetError() throws {
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            text += "a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]\n"
        }
        let parsed = parse(text)
        let d = try #require(parsed.diagnostics.first)
        #expect(d.code == "yaml.alias_budget")
        #expect(d.severity == .error)
    }

    @Test func unknownAliasIsAnError() {
        let parsed = parse("a: *nothing\n")
        #expect(parsed.diagnostics.map(\.code) == ["yaml.unknown_alias"])
    }

    @Test func nestingDeeperThanLimitIsAnError() {
        let depth = InputLimits.maxNestingDepth + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let parsed = parse(text)
        #expect(parsed.diagnostics.map(\.code) == ["yaml.too_deep"])
        let fine = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        #expect(parse(fine).isClean)
    }

    @Test func fileOverSizeLimitIsRefusedBeforeParsing() {
        let bytes = [UInt8](repeating: 0x20, count: InputLimits.maxFileBytes + 1)
        let parsed = YAMLReader.parse(bytes, file: "big.yaml")
        #expect(parsed.diagnostics.map(\.code) == ["yaml.too_large"])
    }

    @Test(
        arguments: [
            ([0x61, 0x3A, 0x20, 0xFF], 1, 4),
            ([0x61, 0x0A, 0x62, 0xC3, 0x28], 2, 2),
            ([0xED, 0xA0, 0x80], 1, 1),
            ([0xE1, 0x84], 1, 1),
        ] as [([UInt8], Int, Int)])
    func nonUTF8IsAnErrorAtTheFirstBadByte(bytes: [UInt8], line: Int, column: Int) {
        let parsed = YAMLReader.parse(bytes, file: "bad.yaml")
        #expect(parsed.diagnostics.map(\.code) == ["yaml.invalid_utf8"])
        #expect(parsed.diagnostics.first?.location == SourceLocation(line: line, column: column))
    }

    @Test func colonInsidePlainScalarGetsQuotingHint() throws {
        let parsed = parse("when: now >= 21:00: x\n")
        let d = try #require(parsed.diagnostics.first)
        #expect(d.code == "yaml.syntax")
        #expect(d.location == SourceLocation(line: 1, column: 19))
        #expect(d.hint == "a value containing ': ' must be quoted: when: \"now >= 21:00: x\"")
    }

    /// A key indented further than the one above it (6 spaces under 4) is an indentation
    /// slip, not a value to quote.
    @Test func aKeyIndentedTooFarSaysLineTheKeysUp() throws {
        let parsed = parse("templates:\n  - id: checkin_ready\n      surface: lock_screen\n    text: 오늘 루트가 준비됐어.\n")
        let d = try #require(parsed.diagnostics.first)
        #expect(d.code == "yaml.syntax")
        #expect(
            d.hint == "'surface' is indented more (column 7) than 'id' on the line above (column 5): keys of one mapping start at the same column")
        // A value with ': ' in it, at the same column as the key above, still gets the quoting hint.
        let quoted = parse("id: x\nwhen: now >= 21:00: x\n")
        #expect(quoted.diagnostics.first?.hint == "a value containing ': ' must be quoted: when: \"now >= 21:00: x\"")
    }

    @Test func tabIndentationGetsHint() throws {
        let parsed = parse("a:\n\t- b\n")
        let d = try #require(parsed.diagnostics.first)
        #expect(d.location.line == 2)
        #expect(d.hint?.contains("tabs") == true)
    }

    @Test(arguments: ["text: @home", "text: `x`"])
    func reservedIndicatorGetsHint(text: String) throws {
        let d = try #require(parse(text).diagnostics.first)
        #expect(d.code == "yaml.syntax")
        #expect(d.hint?.hasPrefix("a plain value cannot start with") == true)
    }

    @Test func ampersandExpressionGetsAnchorHint() throws {
        let d = try #require(parse("when: &&x\n").diagnostics.first)
        #expect(d.code == "yaml.syntax")
        #expect(d.hint?.contains("anchor") == true)
    }

    @Test func controlCharactersAreSyntaxErrorsWithPosition() throws {
        let d = try #require(YAMLReader.parse([0x61, 0x3A, 0x20, 0x62, 0x0A, 0x63, 0x01], file: "c.yaml").diagnostics.first)
        #expect(d.code == "yaml.syntax")
        #expect(d.location == SourceLocation(line: 2, column: 2))
    }

    @Test func largeCollectionsKeepEveryNodeInOrder() throws {
        // More open children than the builder's first buffer holds (256), nested.
        var text = "items:\n"
        for i in 0..<1000 { text += "  - { n: \(i), tags: [a\(i), b\(i)] }\n" }
        let root = try only(text)
        let items = try #require(root["items"]?.items)
        #expect(items.count == 1000)
        #expect(items[999]["n"]?.scalar == "999")
        #expect(items[500]["tags"]?.items?.map(\.scalar) == ["a500", "b500"])
        #expect(items[999].start == SourceLocation(line: 1001, column: 5))
    }

    @Test func aMappingCutShortByAnErrorDoesNotTrap() {
        for text in ["a: {b: 1, c", "a: {b: 1, c:", "- a: 1\n  b", "{a: [1, {b: 2, c: [3, 4"] {
            #expect(!parse(text).isClean, "\(text)")
        }
    }

    @Test func reportsOnlyOneSyntaxErrorAndNoTrapOnGarbage() {
        for text in ["{", "[[[", "a: [b, c", "- - - -\n  x: : :", "%YAML 9.9\n---\na", "\"unterminated"] {
            let parsed = parse(text)
            #expect(!parsed.isClean, "\(text)")
        }
    }
}
