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
        let directory = Fixtures.temporaryDirectory()
        for folder in ["routines", "rules", "templates"] {
            try FileManager.default.copyItem(atPath: Self.root + "/" + folder, toPath: directory + "/" + folder)
        }
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
}
