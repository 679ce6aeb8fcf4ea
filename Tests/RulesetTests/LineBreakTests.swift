import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// A rule file saved with Windows (CRLF) or old Mac (CR) line breaks is reported exactly as
/// the same file with LF: same line, column and source line under the caret. Lines end where
/// libyaml's do, so a line or paragraph separator (which libyaml breaks at) shows the line
/// libyaml read.
@Suite struct LineBreakTests {
    static let root = Fixtures.repositoryRoot()

    /// `rules check`'s text for the shipped ruleset with `route` as rules/route.yaml.
    func report(route: String) throws -> String {
        let directory = Fixtures.temporaryDirectory()
        for folder in ["routines", "rules", "templates"] {
            try FileManager.default.copyItem(atPath: Self.root + "/" + folder, toPath: directory + "/" + folder)
        }
        try Data(route.utf8).write(to: URL(fileURLWithPath: directory + "/rules/route.yaml"))
        let load = Ruleset.load(directory: directory)
        return TextRenderer(color: false).render(load.diagnostics, sources: load.sources)
    }

    static func typo() throws -> String {
        let text = try String(contentsOfFile: root + "/rules/route.yaml", encoding: .utf8)
        #expect(text.contains("completion_rate < 0.5"))
        return text.replacingOccurrences(of: "completion_rate < 0.5", with: "completion_rte < 0.5")
    }

    @Test(arguments: ["\r\n", "\r"])
    func aFileWithOtherLineBreaksIsReportedAsWithLF(lineBreak: String) throws {
        let lf = try report(route: Self.typo())
        #expect(lf.hasPrefix("rules/route.yaml:5:27: error: unknown fact 'completion_rte'"), "\(lf)")
        #expect(lf.contains("    5 |     when: now >= 21:00 && completion_rte < 0.5\n"))
        #expect(try report(route: Self.typo().replacingOccurrences(of: "\n", with: lineBreak)) == lf)
    }

    @Test(arguments: ["\u{2028}", "\u{85}"])
    func aSeparatorEndsTheLineAsLibyamlEndsIt(separator: String) throws {
        let text = try Self.typo().replacingOccurrences(of: "# Risk and route:", with: "# Risk\(separator)and route:")
        let report = try report(route: text)
        #expect(report.hasPrefix("rules/route.yaml:3:1: error: unknown key 'and route'"), "\(report)")
        #expect(report.contains("    3 | and route: decision tables"), "\(report)")
        #expect(report.contains("    6 |     when: now >= 21:00 && completion_rte < 0.5\n"), "\(report)")
    }
}
