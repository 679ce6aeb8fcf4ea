import CLITestSupport
import Foundation
import RulesCLI
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// `rules preview`: every template on its surface with sample facts, marked where cut.
@Suite struct PreviewCommandTests {
    static let root = Fixtures.repositoryRoot()

    @Test func theGalleryRendersEveryShippedTemplateWithBothSamples() throws {
        let out = Fixtures.temporaryDirectory() + "/preview.html"
        let run = CapturedRun(["preview", "--out", out], in: Self.root)
        #expect(run.exitCode == .success, "\(run.stderr)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        for template in ruleset.templates {
            #expect(
                html.components(separatedBy: ">\(template.id)<").count - 1 + html.components(separatedBy: ">\(template.id) ·").count - 1 == 2,
                "\(template.id)")
        }
        #expect(run.stdout.contains("\(ruleset.templates.count) templates, \(ruleset.templates.count * 2) renderings, 0 marked"), "\(run.stdout)")
        // The text form names the largest day's numbers.
        #expect(CapturedRun(["preview"], in: Self.root).stdout.contains("오늘 루트는 10/10 진행 중"))
    }

    /// A lock-screen text over its surface's limit is marked; a sensitive value shows on a
    /// surface that allows it (one that forbids it does not load: `rules check` refuses it).
    @Test func overLongTextsAreMarkedAndSensitiveValuesShowWhereAllowed() throws {
        let directory = try Fixtures.copyOfShipped()
        let long = String(repeating: "아주 긴 문장", count: 30)
        let extra = """

              - id: preview_long
                surface: lock_screen
                text: \(long)
              - id: preview_sleep
                surface: home
                event: home
                text: "잠 {sleep.minutes ?? 0}분"

            """
        let path = directory + "/templates/notifications.yaml"
        try (try String(contentsOfFile: path, encoding: .utf8) + extra).write(toFile: path, atomically: true, encoding: .utf8)
        let run = CapturedRun(["preview", "--ruleset", directory], in: Self.root)
        #expect(run.stdout.contains("preview_long [lock_screen]"), "\(run.stdout.suffix(600))")
        #expect(run.stdout.contains("⚠ over"), "\(run.stdout.suffix(600))")
        // On home, where sensitive values are allowed, the sleep line shows the minutes.
        #expect(run.stdout.contains("잠 330분"))
    }
}
