import CLITestSupport
import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `rules diff` names the changed rule behind each behaviour change, with file and line.
@Suite struct DiffCauseTests {
    static let root = Fixtures.repositoryRoot()

    func edited(_ edit: (String) -> String) throws -> String {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let path = directory + "/rules/notifications.yaml"
        try edit(try String(contentsOfFile: path, encoding: .utf8)).write(toFile: path, atomically: true, encoding: .utf8)
        return directory
    }

    /// The HTML diff reads on a phone: a card per change with a badge, the days it happened
    /// on (identical changes are one card), the changed rule under it; identifiers and paths
    /// wrap at their own boundaries.
    @Test func theHTMLDiffIsStyledWithTheRuleUnderEachChange() throws {
        let directory = try edited { $0.replacingOccurrences(of: "at: \"09:00\"", with: "at: \"08:00\"") }
        let diff = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios", "--format", "html"], in: Self.root)
        #expect(diff.stdout.contains("<meta name=\"viewport\""))
        #expect(diff.stdout.contains("<span class=\"badge moved\">moved</span>notification: morning_<wbr/>checkin moved from 09:00 to 08:00"))
        #expect(diff.stdout.contains("/<wbr/>rules/<wbr/>notifications.<wbr/>yaml:12)"))
        let plain = diff.stdout.replacingOccurrences(of: "<wbr/>", with: "")
        #expect(
            plain.contains(
                "<div class=\"because\">because of the changed <code>notification 'morning_checkin' (\(directory)/rules/notifications.yaml:12)</code></div>"
            ), "\(diff.stdout.prefix(3000))")
        // The morning notice lost on 7 scenario days is one card naming the 7 days.
        let lost = diff.stdout.components(separatedBy: "−1 morning_<wbr/>checkin: was at 09:00").count - 1
        #expect(lost == 1, "identical changes are grouped: \(lost) cards")
        #expect(diff.stdout.contains("<div class=\"on\">on 7 days: <span class=\"when\">cold_tone.yaml <time>2026-07-16</time></span>"))
        #expect(!diff.stdout.contains("overflow-wrap:anywhere"), "identifiers break at boundaries, not anywhere")
        // Old and new side by side under each change.
        #expect(
            plain.contains(
                "<div class=\"sides\"><div class=\"old\"><b>old ruleset</b>morning_checkin at 09:00</div><div class=\"new\"><b>new ruleset</b>morning_checkin at 08:00</div></div>"
            ))
        let parser = XMLParser(data: Data(diff.stdout.utf8))
        #expect(parser.parse())
    }

    @Test func aMovedNoticeNamesItsRuleAndAKnockOnNamesTheRuleThatMoved() throws {
        let directory = try edited { $0.replacingOccurrences(of: "at: \"09:00\"", with: "at: \"08:00\"") }
        let diff = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios"], in: Self.root)
        #expect(diff.exitCode == .failure)
        let cause = "notification 'morning_checkin' (\(directory)/rules/notifications.yaml:12)"
        let summary = try #require(diff.stdout.split(separator: "\n").first)
        #expect(summary.hasSuffix("; changed: \(cause)"), "\(summary)")
        #expect(diff.stdout.contains("morning_checkin moved from 09:00 to 08:00 ← \(cause)"))
        // evening_underachievement did not change; it is gained because the check-in moved.
        #expect(diff.stdout.contains("+1 evening_underachievement at 20:30 ← \(cause)"), "\(diff.stdout)")
        // A comment line added above every rule moves lines, not behaviour.
        let commented = try edited { "# a note\n" + $0 }
        let same = CapturedRun(["diff", ".", commented, "--scenarios", "scenarios"], in: Self.root)
        #expect(same.exitCode == .success, "\(same.stdout)")
    }

    /// A change names only the changed elements its decision read: a setting turned on for
    /// another notification is not blamed for the moved check-in.
    @Test func aChangeNamesOnlyTheSettingsItsDecisionReads() throws {
        let directory = try edited { $0.replacingOccurrences(of: "at: \"09:00\"", with: "at: \"08:00\"") }
        let settings = directory + "/rules/settings.yaml"
        let text = try String(contentsOfFile: settings, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: "routine_reminder:         { type: bool, default: false }", with: "routine_reminder:         { type: bool, default: true }")
        #expect(edited != text)
        try edited.write(toFile: settings, atomically: true, encoding: .utf8)
        let diff = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios", "--no-population"], in: Self.root)
        let moved = diff.stdout.split(separator: "\n").filter { $0.contains("morning_checkin moved from 09:00 to 08:00") }
        #expect(!moved.isEmpty, "\(diff.stdout.prefix(2000))")
        #expect(moved.allSatisfy { !$0.contains("setting 'routine_reminder'") }, "\(moved)")
        // The default is read by its own notification's toggle: reached where a reminder was decided.
        #expect(diff.stdout.contains("reached     setting 'routine_reminder'"), "\(diff.stdout.prefix(3000))")
    }

    @Test func aLowerCapNamesThePolicyAndTheGate() throws {
        let directory = try edited { $0.replacingOccurrences(of: "max_per_day: 3", with: "max_per_day: 2") }
        let diff = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios", "--format", "json"], in: Self.root)
        #expect(diff.exitCode == .failure)
        #expect(diff.stdout.contains("(daily_cap ×"), "\(diff.stdout.prefix(600))")
        #expect(diff.stdout.contains("\"kind\": \"policy\""))
        #expect(diff.stdout.contains("\"line\": 4"))
    }

    /// Run from the new ruleset's directory, `rules diff OLD .` finds its scenarios/ and
    /// names them as the user would: `scenarios/x.yaml`, not `./scenarios/x.yaml`.
    @Test func scenariosOfTheCurrentDirectoryAreNamedWithoutDotSlash() throws {
        let directory = try edited { $0.replacingOccurrences(of: "at: \"09:00\"", with: "at: \"08:00\"") }
        let diff = CapturedRun(["diff", Self.root, "."], in: directory)
        #expect(diff.exitCode == .failure)
        #expect(diff.stdout.contains(" scenarios/collapsed_day.yaml 2026-06-29\n"), "\(diff.stdout.prefix(600))")
        #expect(!diff.stdout.contains("./scenarios/"))
    }

    @Test func aDirectoryWithoutRulesIsAUsageErrorThatSaysWhatDiffTakes() {
        let empty = Fixtures.temporaryDirectory()
        let run = CapturedRun(["diff", ".", empty], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("no ruleset at \(empty)"), "\(run.stderr)")
        #expect(run.stderr.contains("help: name two ruleset directories"), "\(run.stderr)")
        #expect(!run.stderr.contains("--ruleset"))
    }

    /// Route and risk starts that move, appear or vanish are told the same way for both:
    /// the recovery table entry made unreachable and the high-risk one made earlier.
    @Test func routeAndRiskStartsAreToldAlike() throws {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let path = directory + "/rules/route.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "now >= 21:00 && completion_rate < 0.6", with: "now >= 23:59 && completion_rate < 0.01")
            .replacingOccurrences(of: "now >= 21:00 && completion_rate < 0.5", with: "now >= 18:00 && completion_rate < 0.3")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let told = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios"], in: Self.root).stdout
        #expect(told.contains("recovery route no longer entered (was 21:05)"), "\(told)")
        #expect(told.contains("risk high now reached at 18:00"), "\(told)")
        #expect(told.contains("risk high 95 minutes earlier"), "\(told)")
        let html = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios", "--format", "html"], in: Self.root).stdout
        #expect(html.contains("recovery not entered") && html.contains("risk high not reached"))
    }

    /// The evening notice moved 20:30 → 20:00 changes 17 scenario days the same way: the text
    /// (what CI logs show) says it once with its days, and JSON has one group that keeps every day.
    @Test func identicalChangesAreOneGroupInTextAndJSON() throws {
        let directory = try edited { $0.replacingOccurrences(of: "at: \"20:30\"", with: "at: \"20:00\"") }
        let text = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios", "--no-population"], in: Self.root)
        #expect(text.exitCode == .failure)
        let moved = text.stdout.components(separatedBy: "evening_underachievement moved from 20:30 to 20:00").count - 1
        #expect(moved == 1, "said once, not once a day: \(text.stdout.prefix(1500))")
        #expect(text.stdout.contains("\n  on 17 days:\n    scenarios/cold_tone.yaml 2026-07-16\n"), "\(text.stdout.prefix(1500))")
        #expect(text.stdout.contains("    scenarios/ignored_week.yaml 2026-07-06, 2026-07-07, 2026-07-08"))
        let json = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios", "--no-population", "--format", "json"], in: Self.root)
        let value = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let groups = try #require(value["changes"] as? [[String: Any]])
        let evening = groups.filter { ($0["message"] as? String) == "evening_underachievement moved from 20:30 to 20:00" }
        #expect(evening.count == 1)
        #expect(evening.first?["count"] as? Int == 17)
        #expect((evening.first?["days"] as? [[String: Any]])?.count == 17)
    }

    /// `--format markdown` is short enough for a pull request: the headline, the elements, the
    /// grouped changes. A template whose text tries Markdown, HTML, a table cell, a mention and an
    /// issue link cannot break out: every character of it arrives as text (a line feed in a
    /// template is a check error already; the escaping turns any control character into a space).
    @Test func theMarkdownDiffIsEscapedAndGrouped() throws {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let path = directory + "/templates/notifications.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let hostile = "text: \"[루트](https://x.invalid) @here <img src=x> | # 1 **굵게**\""
        try text.replacingOccurrences(of: "text: 아직 살릴 수 있는 루트가 있어.", with: hostile).write(toFile: path, atomically: true, encoding: .utf8)
        let run = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios", "--no-population", "--format", "markdown"], in: Self.root)
        #expect(run.exitCode == .failure, "\(run.stderr)")
        let markdown = run.stdout
        #expect(markdown.hasPrefix("### rules diff: Behaviour changed\n"), "\(markdown.prefix(300))")
        #expect(markdown.contains("| reached | template 'evening\\_salvage'"), "\(markdown.prefix(800))")
        #expect(markdown.contains("\\[루트\\]\\(https://x.invalid\\)"), "\(markdown)")
        #expect(markdown.contains("&#64;here &lt;img src=x&gt; &#124; &#35; 1 \\*\\*굵게\\*\\*"), "\(markdown)")
        #expect(!markdown.contains("<img") && !markdown.contains("@here") && !markdown.contains("](http"))
        #expect(markdown.split(separator: "\n").count < 60, "short enough for a comment")
        // --out writes it, and never over an input.
        let out = Fixtures.temporaryDirectory() + "/diff.md"
        let written = CapturedRun(
            ["diff", ".", directory, "--scenarios", "scenarios", "--no-population", "--format", "markdown", "--out", out], in: Self.root)
        #expect(written.exitCode == .failure)
        #expect((try? String(contentsOfFile: out, encoding: .utf8)) == markdown)
        let over = CapturedRun(["diff", ".", directory, "--no-population", "--out", path], in: Self.root)
        #expect(over.exitCode == .usage)
        #expect((try? String(contentsOfFile: path, encoding: .utf8))?.contains("x.invalid") == true, "the input is unchanged")
    }
}
