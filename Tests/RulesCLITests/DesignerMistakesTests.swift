import CLITestSupport
import Foundation
import RulesCLI
import TestSupport
import Testing

/// What designers get wrong, said first and plainly.
@Suite struct DesignerMistakesTests {
    static let root = Fixtures.repositoryRoot()

    /// A tab in settings: the YAML error comes first, and the unknown `settings.bedtime` that
    /// follows from the file not parsing is held back with the knock-on note.
    @Test func aYAMLErrorIsSaidFirstAndWhatFollowsFromItIsHeldBack() throws {
        let directory = try Fixtures.copyOfShipped()
        let path = directory + "/rules/settings.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let broken = text.replacingOccurrences(of: "\n  morning_checkin:", with: "\n\tmorning_checkin:")
        #expect(broken != text)
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        let run = CapturedRun(["check", "."], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.hasPrefix("rules/settings.yaml:5:1: error: found character that cannot start any token"), "\(run.stdout)")
        #expect(!run.stdout.contains("unknown fact 'settings.bedtime'"), "\(run.stdout)")
        #expect(run.stdout.contains("may follow from rules/settings.yaml not parsing left out [ruleset.knock_on]"))
    }

    /// The reference's example notification once read a routine's status alone and fired for
    /// users who never turned the routine on; the lint says so, and the example now reads both.
    @Test func aStatusWithoutEnabledIsWarnedAndTheReferenceExampleIsClean() throws {
        let directory = try Fixtures.copyOfShipped()
        try Fixtures.write(
            [
                "rules/stretching.yaml": """
                notifications:
                  - id: stretching_nudge
                    category: nudge
                    at: "19:00"
                    when: routines.water.status != "completed"
                    template: checkin_ready
                    in_quiet_hours: drop
                """,
                "rules/settings_more.yaml": "settings:\n  stretching_nudge: { type: bool, default: true }\n",
            ], to: directory)
        let run = CapturedRun(["check", "."], in: directory)
        #expect(
            run.stdout.contains(
                "rules/stretching.yaml:5:11: warning: notification 'stretching_nudge' reads routines.water.status but not routines.water.enabled"),
            "\(run.stdout)")
        #expect(run.stdout.contains("[lint.status_without_enabled]"))
        let reference = try String(contentsOfFile: Self.root + "/docs/REFERENCE.md", encoding: .utf8)
        #expect(reference.contains("when: routines.stretching.enabled && routines.stretching.status != \"completed\""))
    }
}
