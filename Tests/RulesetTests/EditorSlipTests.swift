import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// `rules check`'s text for the shipped ruleset with `text` as `file` (rules/route.yaml, …).
private func report(_ text: String, file: String = "rules/route.yaml") throws -> String {
    let directory = try Fixtures.copyOfShipped()
    try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + file))
    let load = Ruleset.load(directory: directory)
    return TextRenderer(color: false).render(load.diagnostics, sources: load.sources)
}

/// The shipped file's text.
private func shipped(_ file: String) throws -> String {
    try String(contentsOfFile: Fixtures.repositoryRoot() + "/" + file, encoding: .utf8)
}

/// A rule file saved with Windows (CRLF) or old Mac (CR) line breaks is reported exactly as
/// the same file with LF: same line, column and source line under the caret. Lines end where
/// libyaml's do, so a line or paragraph separator (which libyaml breaks at) shows the line
/// libyaml read.
@Suite struct LineBreakTests {
    static func typo() throws -> String {
        let text = try shipped("rules/route.yaml")
        #expect(text.contains("completion_rate < 0.5"))
        return text.replacingOccurrences(of: "completion_rate < 0.5", with: "completion_rte < 0.5")
    }

    @Test(arguments: ["\r\n", "\r"])
    func aFileWithOtherLineBreaksIsReportedAsWithLF(lineBreak: String) throws {
        let lf = try report(Self.typo())
        #expect(lf.hasPrefix("rules/route.yaml:5:27: error: unknown fact 'completion_rte'"), "\(lf)")
        #expect(lf.contains("    5 |     when: now >= 21:00 && completion_rte < 0.5\n"))
        #expect(try report(Self.typo().replacingOccurrences(of: "\n", with: lineBreak)) == lf)
    }

    @Test(arguments: ["\u{2028}", "\u{85}"])
    func aSeparatorEndsTheLineAsLibyamlEndsIt(separator: String) throws {
        let text = try Self.typo().replacingOccurrences(of: "# Risk and route:", with: "# Risk\(separator)and route:")
        let output = try report(text)
        #expect(output.hasPrefix("rules/route.yaml:3:1: error: unknown key 'and route'"), "\(output)")
        #expect(output.contains("    3 | and route: decision tables"), "\(output)")
        #expect(output.contains("    6 |     when: now >= 21:00 && completion_rte < 0.5\n"), "\(output)")
    }
}

/// A key typed in an input method's full-width mode (`when：`) is no key to YAML; whichever
/// error libyaml or the decoder then reports, the hint points at the `：` and says what to write.
/// A full-width or no-break space in the indentation is named too.
@Suite struct FullWidthTests {
    @Test(arguments: [
        ("    when: now >= 21:00 && completion_rate < 0.5", "    when： now >= 21:00 && completion_rate < 0.5", "6:3", 5),
        ("risk:\n", "risk：\n", "4:10", 3),
        ("  - level: high", "  - level： high", "5:9", 4),
    ])
    func aFullWidthColonInABlockKeyIsNamedWhereItIs(original: String, typed: String, reported: String, line: Int) throws {
        let text = try shipped("rules/route.yaml")
        #expect(text.contains(original))
        let output = try report(text.replacingOccurrences(of: original, with: typed))
        #expect(output.hasPrefix("rules/route.yaml:\(reported): error:"), "\(output)")
        #expect(
            output.contains("help: line \(line) has a full-width '：' (U+FF1A), which YAML does not read as ':'; write ': ' after the key\n"),
            "\(output)")
    }

    @Test func aFullWidthColonInAFlowKeyIsNamedInTheUnknownKey() throws {
        let text = try shipped("rules/judgement.yaml")
        let typed = "{ result: recovered, when： route"
        #expect(text.contains("{ result: recovered, when: route"))
        let output = try report(text.replacingOccurrences(of: "{ result: recovered, when: route", with: typed), file: "rules/judgement.yaml")
        #expect(output.contains("help: '：' is full-width (U+FF1A), so YAML read one word, not a key and its value: write 'when: …'\n"), "\(output)")
    }

    @Test(arguments: [("\u{3000}", "a full-width space (U+3000)"), ("\u{A0}", "a no-break space (U+00A0, often pasted from a web page)")])
    func aSpaceThatIsNotASpaceInTheIndentationIsNamed(space: String, name: String) throws {
        let text = try shipped("rules/route.yaml")
        let line = "    when: now >= 21:00 && completion_rate < 0.5"
        #expect(text.contains(line))
        let output = try report(text.replacingOccurrences(of: line, with: "  " + space + line.dropFirst(3)))
        #expect(output.hasPrefix("rules/route.yaml:5:3: error:"), "\(output)")
        #expect(output.contains("help: \(name) is not a space to YAML; indent with ordinary spaces\n"), "\(output)")
    }
}
