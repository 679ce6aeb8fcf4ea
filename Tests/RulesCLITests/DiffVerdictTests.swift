import CLITestSupport
import Foundation
import TestSupport
import Testing

/// `rules diff --population` leads with a verdict: what moved beyond its paired interval,
/// worse or better for users, by standardised effect — never a new notice's own counters.
@Suite struct DiffVerdictTests {
    static let root = Fixtures.repositoryRoot()

    /// The shipped ruleset with a 15:00 water notice added (nothing else changed).
    static func withAWaterNotice() throws -> String {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        for (file, old, new) in [
            (
                "rules/notifications.yaml", "  - id: bedtime",
                "  - id: water_afternoon\n    category: water\n    at: \"15:00\"\n    when: routines.water.progress < 1.0\n    template: routine_left\n\n  - id: bedtime"
            ),
            ("rules/settings.yaml", "  tone:", "  water_afternoon:          { type: bool, default: true }\n  tone:"),
        ] {
            let path = directory + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(old))
            try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test func aNoticeThatOnlyAddsLeadsWithTheNoticesItCostsAndTheOptOuts() throws {
        let directory = try Self.withAWaterNotice()
        let run = CapturedRun(["diff", Self.root, ".", "--users", "500", "--days", "14"], in: directory)
        let first = run.stdout.prefix { $0 != "\n" }
        #expect(first.contains("the population sample: "), "\(first)")
        #expect(first.contains("headline metrics moved beyond their 95 % interval (most: worse for users: "), "\(first)")
        let verdict = try #require(run.stdout.range(of: "  verdict: "))
        let every = try #require(run.stdout.range(of: "every changed headline metric:"))
        #expect(verdict.lowerBound < every.lowerBound)
        let lines = run.stdout[verdict.lowerBound..<every.lowerBound].split(separator: "\n").map(String.init)
        // The recovery notice lost to the cap, and the opt-outs, each with an interval.
        #expect(lines.contains { $0.contains("recovery_route delivered") && $0.contains("; 95 % −") }, "\(lines)")
        #expect(lines.contains { $0.contains("recovery_route was refused by daily_cap") && $0.contains("; 95 % +") }, "\(lines)")
        #expect(lines.contains { $0.contains("switched") && $0.contains("95 %") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("    worse for users: ") && $0.contains("acted on") })
        // The new notice's own counters are not news.
        #expect(
            lines.filter { $0.contains("water_afternoon") } == [
                "    new notice water_afternoon: its own figures are not news; what it does to the rest is above"
            ])

        let json = CapturedRun(["diff", Self.root, ".", "--users", "500", "--days", "14", "--format", "json"], in: directory)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let moved = try #require(((object["population"] as? [String: Any])?["verdict"] as? [String: Any])?["moved"] as? [[String: Any]])
        let lost = try #require(moved.first { $0["metric"] as? String == "notifications.by_type.recovery_route.delivered" })
        #expect((lost["high"] as? Double ?? 0) < 0 && (lost["low"] as? Double ?? 0) < (lost["high"] as? Double ?? 0))
        let effects = moved.compactMap { $0["standardised"] as? Double }.map(abs)
        #expect(!effects.isEmpty)

        let markdown = CapturedRun(["diff", Self.root, ".", "--users", "500", "--days", "14", "--format", "markdown"], in: directory)
        #expect(markdown.stdout.contains("**verdict: "))
        #expect(markdown.stdout.contains("<details><summary>every changed headline metric</summary>"))
        #expect(markdown.stdout.contains("**population sample populations/office\\_workers.yaml"), "paths inside the compared directory")
    }
}
