import RulesDiagnostics
import TestSupport
import Testing

@Suite struct RenderersTests {
    static let source = SourceFile(
        path: "rules/routes.yaml",
        text: """
            route:
              - use: recovery
                when: now >= 21:00 && completion_rat < 0.6
            templates:
              - text: "물 {water.ml}을 마셨어 {sleep.minutes}"
            """)

    static let diagnostics = [
        Diagnostic(
            code: "type.unknown_fact", severity: .error, file: "rules/routes.yaml",
            location: SourceLocation(line: 3, column: 27), end: SourceLocation(line: 3, column: 41),
            message: "unknown fact 'completion_rat'", hint: "did you mean 'completion_rate'?"),
        Diagnostic(
            code: "lint.sensitive_leak", severity: .warning, file: "rules/routes.yaml",
            location: SourceLocation(line: 5, column: 30), end: SourceLocation(line: 5, column: 45),
            message: "template reads sensitive fact 'sleep.minutes', \"quoted\", 100%, a:b,c"),
        Diagnostic(
            code: "yaml.syntax", severity: .note, file: "rules/z.yaml", location: .fileStart,
            message: "line one\nline two"),
    ]

    func golden(_ name: String) -> String { Fixtures.directory() + "/renderers/" + name }

    @Test func textRendererMatchesGolden() {
        let output = TextRenderer(color: false).render(
            Self.diagnostics, sources: ["rules/routes.yaml": Self.source])
        #expect(Golden.compare(output, toFile: golden("text.txt")) == nil)
    }

    @Test func textRendererColoursOnlyWhenAsked() {
        let plain = TextRenderer(color: false).render(Self.diagnostics, sources: [:])
        let coloured = TextRenderer(color: true).render(Self.diagnostics, sources: [:])
        #expect(!plain.contains("\u{1B}["))
        #expect(coloured.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    }

    @Test func caretIsAlignedUnderHangulByDisplayWidth() {
        let output = TextRenderer(color: false).render(
            Self.diagnostics[1], source: Self.source)
        let lines = output.split(separator: "\n")
        // 29 scalars before the placeholder, five of them Hangul (two columns each).
        #expect(lines[2] == "      | " + String(repeating: " ", count: 34) + "^" + String(repeating: "~", count: 14))
        #expect(lines[1].hasSuffix("\"물 {water.ml}을 마셨어 {sleep.minutes}\""))
    }

    @Test func aLongLineIsCutToAWindowAroundTheCaret() {
        // One 4 MiB line (a minified file) with a span in its middle: shown in 160 scalars.
        let line = String(repeating: "가", count: 2_000_000) + "bad_key" + String(repeating: "a", count: 2_000_000)
        let source = SourceFile(path: "m.yaml", text: line + "\n")
        let diagnostic = Diagnostic(
            code: "ruleset.unknown_key", severity: .error, file: "m.yaml", location: SourceLocation(line: 1, column: 2_000_001),
            end: SourceLocation(line: 1, column: 2_000_008), message: "unknown key 'bad_key'")
        let lines = TextRenderer(color: false).render(diagnostic, source: source).split(separator: "\n")
        #expect(lines[1] == "    1 | …" + String(repeating: "가", count: 40) + "bad_key" + String(repeating: "a", count: 113) + "…")
        // The caret under the key: 1 column for "…", 80 for the 40 Hangul, then 7 marks.
        #expect(lines[2] == "      | " + String(repeating: " ", count: 81) + "^~~~~~~")
        // Near the line's start the window starts there; a span to a later line runs to the cut.
        let early = Diagnostic(
            code: "ruleset.unknown_key", severity: .error, file: "m.yaml", location: SourceLocation(line: 1, column: 3),
            end: SourceLocation(line: 2, column: 1), message: "x")
        let earlyLines = TextRenderer(color: false).render(early, source: source).split(separator: "\n")
        #expect(earlyLines[1] == "    1 | " + String(repeating: "가", count: 160) + "…")
        #expect(earlyLines[2] == "      | " + String(repeating: " ", count: 4) + "^" + String(repeating: "~", count: 315))
    }

    @Test func jsonRendererMatchesGolden() {
        #expect(Golden.compare(JSONDiagnosticsRenderer.render(Self.diagnostics), toFile: golden("diagnostics.json")) == nil)
    }

    @Test func sarifRendererMatchesGolden() {
        let renderer = SARIFRenderer(
            toolName: "rules", toolVersion: "0.1.0", informationURI: "https://example.invalid/rules",
            catalogue: [
                CodeDescription(code: "type.unknown_fact", severity: .error, summary: "unknown fact", rationale: "Facts come from the schema.")
            ])
        #expect(Golden.compare(renderer.render(Self.diagnostics), toFile: golden("diagnostics.sarif")) == nil)
    }

    @Test func githubRendererMatchesGolden() {
        #expect(Golden.compare(GitHubRenderer.render(Self.diagnostics), toFile: golden("github.txt")) == nil)
    }

    @Test func jsonValueEscapesAndKeepsKeyOrder() {
        let value = JSONValue.object([("b", .int(1)), ("a", .string("물\n\"x\"\u{01}")), ("n", .number(0.5)), ("z", .number(3))])
        #expect(value.rendered() == #"{"b":1,"a":"물\n\"x\"\u0001","n":0.5,"z":3}"#)
        #expect(JSONValue.formatNumber(.nan) == "null")
        #expect(JSONValue.formatNumber(1e-9) == "1e-09")
    }

    @Test func jsonStringsEscapeEveryControlByteAndKeepTheRest() {
        let controls = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        var out = ""
        JSONValue.writeString("a" + controls + "\"\\😀\r\n물" + "é", to: &out)
        let escapedControls = (0..<0x20).map { byte -> String in
            switch byte {
            case 0x0A: return #"\n"#
            case 0x0D: return #"\r"#
            case 0x09: return #"\t"#
            default: return "\\u" + String(byte, radix: 16).leftPadded(to: 4)
            }
        }.joined()
        #expect(out == "\"a" + escapedControls + #"\"\\😀\r\n물"# + "é\"")
        var plain = ""
        JSONValue.writeString("", to: &plain)
        JSONValue.writeString("물만 😀", to: &plain)
        #expect(plain == #""""물만 😀""#)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

@Suite struct CollectorTests {
    func diagnostic(_ file: String, _ line: Int, _ severity: Severity = .error, code: DiagnosticCode = "x.y") -> Diagnostic {
        Diagnostic(code: code, severity: severity, file: file, location: SourceLocation(line: line, column: 1), message: "m\(line)")
    }

    @Test func sortsByFileLineColumn() {
        let collector = DiagnosticCollector([diagnostic("b", 1), diagnostic("a", 9), diagnostic("a", 2)])
        #expect(collector.report().map { "\($0.file):\($0.location.line)" } == ["a:2", "a:9", "b:1"])
    }

    @Test func capsAtLimitWithANote() {
        let collector = DiagnosticCollector((1...150).map { diagnostic("f", $0) })
        let report = collector.report()
        #expect(report.count == InputLimits.maxDiagnostics + 1)
        #expect(report.last?.code == "diagnostics.truncated")
        #expect(report.last?.message == "50 more diagnostics not shown")
    }

    @Test func strictPromotesWarnings() {
        let collector = DiagnosticCollector([diagnostic("f", 1, .warning)])
        #expect(!collector.hasFailures(strict: false))
        #expect(collector.hasFailures(strict: true))
        #expect(collector.report(strict: true).first?.severity == .error)
        #expect(collector.report(strict: false).first?.severity == .warning)
    }

    @Test func removesExactDuplicates() {
        let collector = DiagnosticCollector([diagnostic("f", 1), diagnostic("f", 1)])
        #expect(collector.report().count == 1)
    }

    @Test(
        arguments: [
            ("completion_rat", ["completion_rate", "completed", "total"], "completion_rate"),
            ("--formt", ["--format", "--strict"], "--format"),
            ("xyz", ["completion_rate"], nil),
            // Replacing every character is no typo: a particle written as a filter is not `k`.
            ("을", ["thousands", "hm", "k", "percent", "list"], nil),
            ("x", ["k"], nil),
            ("thousandz", ["thousands", "hm", "k", "percent", "list"], "thousands"),
        ] as [(String, [String], String?)])
    func suggestsNearest(word: String, candidates: [String], expected: String?) {
        #expect(Suggestions.nearest(to: word, among: candidates) == expected)
    }
}
