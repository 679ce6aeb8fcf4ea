import CLITestSupport
import Foundation
import RulesCLI
import RulesChangeImpact
import RulesDiagnostics
import Ruleset
import TestSupport
import Testing

/// `rules diff` says what the compared runs could not see: each changed element with whether
/// it was reached, boundary days for unreached thresholds, and a population sample.
@Suite struct ChangeReachTests {
    static let root = Fixtures.repositoryRoot()

    /// A copy of the shipped ruleset (with its scenarios, and populations when asked) with
    /// `edit` applied to one file.
    func copy(populations: Bool = false, editing file: String, _ edit: (String) -> String) throws -> String {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"] + (populations ? ["populations"] : []))
        let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        let edited = edit(text)
        #expect(edited != text, "the edit must change \(file)")
        try edited.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
        return directory
    }

    /// The light route's sleep threshold moved from 360 to 390 minutes: no shipped scenario
    /// has a night between them, so nothing could see it.
    func lighterRoute(populations: Bool = false) throws -> String {
        try copy(populations: populations, editing: "rules/route.yaml") {
            $0.replacingOccurrences(of: "(sleep.minutes ?? 420) < 360", with: "(sleep.minutes ?? 420) < 390")
        }
    }

    @Test func aThresholdNoScenarioReachesIsNamedWithItsPlaceAndExitsThree() throws {
        let new = try lighterRoute()
        let run = CapturedRun(["diff", ".", new, "--no-population"], in: Self.root)
        #expect(run.exitCode == .unreached)
        #expect(ExitCode.unreached.rawValue == 3)
        let text = run.stdout.replacingOccurrences(of: new + "/", with: "NEW/")
        #expect(text.hasPrefix("1 change no scenario reached: no behaviour changed over "), "\(text)")
        #expect(!text.contains("\nno behaviour changed"))
        #expect(
            text.contains(
                "NOT REACHED threshold 'sleep.minutes < 360 → 390' in route 'short_sleep' (NEW/rules/route.yaml:18) — no sleep.minutes between 360 and 390 was seen (nearest "
            ), "\(text)")
    }

    @Test func boundaryDaysShowTheRouteChangeTheScenariosMissed() throws {
        let new = try lighterRoute()
        let run = CapturedRun(["diff", ".", new, "--no-population"], in: Self.root)
        #expect(run.stdout.contains("boundary days (generated for the changes no scenario reached, not your scenarios):"))
        #expect(run.stdout.contains("  sleep.minutes = 375: route regular → light at 12:00"), "\(run.stdout)")
        // Outside both constants nothing changes.
        #expect(run.stdout.contains("  sleep.minutes = 359: same under both"))
        #expect(run.stdout.contains("  sleep.minutes = 390: same under both"))
        let json = CapturedRun(["diff", ".", new, "--no-population", "--format", "json"], in: Self.root)
        let value = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(value["unreached"] as? Int == 1)
        #expect((value["boundary_days"] as? [Any])?.count == 5)
        #expect(((value["elements"] as? [[String: Any]])?.first?["reached"] as? Bool) == false)
    }

    /// A moved fire time and a lower cap that the one scenario named never reaches: a day the
    /// app opens around both times, and days of exactly the old and the new cap, each lived
    /// under both.
    @Test func boundaryDaysProbeAMovedTimeAndAMovedCap() throws {
        let new = try copy(editing: "rules/notifications.yaml") {
            $0.replacingOccurrences(of: "max_per_day: 3", with: "max_per_day: 1").replacingOccurrences(of: "at: \"20:30\"", with: "at: \"19:00\"")
        }
        let run = CapturedRun(["diff", ".", new, "--scenarios", "scenarios/untouched_day.yaml", "--no-population"], in: Self.root)
        #expect(run.exitCode == .unreached)
        #expect(run.stdout.contains("  app opened around 20:30 and 19:00: evening_underachievement moved from 20:30 to 19:00"), "\(run.stdout)")
        #expect(
            run.stdout.contains("  a day of exactly 3 reminders (the old cap): −2 routine_reminder: was at 10:30, 12:00 (now daily_cap)"),
            "\(run.stdout)")
        #expect(run.stdout.contains("  a day of exactly 1 reminder (the new cap): same under both"), "\(run.stdout)")
    }

    /// A routine is an element too: the water goal raised is listed, reached (scenarios have
    /// water on) and named as the cause of what it changed.
    @Test func aChangedRoutineIsAnElementAndACause() throws {
        let new = try copy(editing: "routines/water.yaml") { $0.replacingOccurrences(of: "goal: 1500", with: "goal: 2000") }
        let run = CapturedRun(["diff", ".", new, "--no-population"], in: Self.root)
        #expect(run.exitCode == .failure)
        let text = run.stdout.replacingOccurrences(of: new + "/", with: "NEW/")
        #expect(text.contains("  reached     routine 'water' (NEW/routines/water.yaml:"), "\(text.prefix(600))")
        #expect(text.contains("changed: routine 'water'"), "\(text.prefix(300))")
    }

    @Test func thePopulationSampleShowsTheLightRouteRising() throws {
        let new = try lighterRoute(populations: true)
        // A smaller sample than the default keeps the debug test quick; the default is measured in Benchmarks.
        let run = CapturedRun(["diff", Self.root, ".", "--users", "60", "--days", "7"], in: new)
        #expect(run.exitCode == .unreached)
        #expect(run.stdout.contains("population sample populations/office_workers.yaml: 60 users × 7 days, seed "), "\(run.stdout)")
        // In words and percentages, the dotted name after them.
        let rise = run.stdout.split(separator: "\n").first { $0.hasPrefix("  share of user-days ending on the light route: ") }
        // The first line says the sample moved beyond its intervals, with the largest effect (a
        // route's share: light days rise as regular days fall), and the verdict has the light route.
        let first = run.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            first.contains("; the population sample: ")
                && first.contains("moved beyond their 95 % interval (most: share of user-days ending on the "),
            "\(first)")
        #expect(run.stdout.contains("    changed: share of user-days ending on the light route [routes.light.share]: "), "\(run.stdout)")
        #expect(rise?.hasSuffix(" points) [routes.light.share]") == true, "\(String(describing: rise))")
        let numbers = try #require(rise).split(separator: " ").compactMap { Double($0) }.prefix(2).map { $0 }
        #expect(numbers.count == 2 && numbers[1] > numbers[0], "\(String(describing: rise))")
        // --no-population skips it; both together are a usage error.
        let skipped = CapturedRun(["diff", Self.root, ".", "--no-population"], in: new)
        #expect(!skipped.stdout.contains("population sample"))
        let both = CapturedRun(["diff", Self.root, ".", "--no-population", "--population", "populations/office_workers.yaml"], in: new)
        #expect(both.exitCode == .usage)
    }

    /// The sample's population file is found by the ruleset's own walk: a link in NEW_DIR's
    /// populations/ to a file outside it is named, never read.
    @Test func aPopulationLinkOutOfTheTreeIsNeverRead() throws {
        let new = try lighterRoute()
        let outside = Fixtures.temporaryDirectory() + "/secret.yaml"
        try "name: SECRET-LEAK\nseed: 1\n".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: new + "/populations", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: new + "/populations/a.yaml", withDestinationPath: outside)
        let run = CapturedRun(["diff", ".", new], in: Self.root)
        #expect(!run.stdout.contains("SECRET-LEAK") && !run.stderr.contains("SECRET-LEAK"), "\(run.stdout)")
        #expect(run.stdout.contains("io.outside_root"), "\(run.stdout)")
        #expect(!run.stdout.contains("population sample"))
    }

    @Test func aReachedChangeIsSaidSoAndTheSameRulesetExitsZero() throws {
        // A lower cap: the shipped daily_cap scenario reaches it (the gate refuses under the new one).
        let new = try copy(editing: "rules/notifications.yaml") {
            $0.replacingOccurrences(of: "max_per_day: 3", with: "max_per_day: 2")
        }
        let run = CapturedRun(["diff", ".", new, "--no-population"], in: Self.root)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("reached     policy 'max_per_day' 3 → 2"), "\(run.stdout)")
        #expect(!run.stdout.contains("no scenario reached"))
        // The same ruleset: nothing changed, nothing to reach, exit 0.
        let same = CapturedRun(["diff", ".", ".", "--no-population"], in: Self.root)
        #expect(same.exitCode == .success)
        #expect(same.stdout.hasPrefix("no behaviour changed over "))
    }

    @Test func aMovedThresholdIsItsOwnElementAndARewrittenConditionIsNot() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        func changed(_ edit: @escaping (String) -> String) throws -> [RuleChanges.Entry] {
            let directory = try copy(editing: "rules/route.yaml", edit)
            let new = try #require(Ruleset.load(directory: directory).ruleset)
            return RuleChanges(old: ruleset, new: new).entries
        }
        let moved = try changed { $0.replacingOccurrences(of: "< 360", with: "< 390") }
        #expect(moved.map(\.kind) == ["threshold"])
        #expect(moved.first?.move?.text == "sleep.minutes < 360 → 390")
        #expect(moved.first?.site == "route")
        // Spaces inside the comparison do not make it a rewrite.
        let spaced = try changed { $0.replacingOccurrences(of: "(sleep.minutes ?? 420) < 360", with: "(sleep.minutes ?? 420)  <  390") }
        #expect(spaced.map(\.kind) == ["threshold"])
        let rewritten = try changed { $0.replacingOccurrences(of: "(sleep.minutes ?? 420) < 360", with: "(sleep.minutes ?? 400) < 360") }
        #expect(rewritten.map(\.kind) == ["route"])
    }

    /// "Reached" means a value was seen where the old and the new policy answer differently:
    /// a candidate inside one quiet-hours window only, a day over the smaller cap, a gap
    /// between the two cooldowns, an ignore count between the two `after_ignored`. The
    /// shipped scenarios have none of these for each change below (a delivery inside both
    /// windows, as the 22:30 → 22:00 move has, is not one): NOT REACHED, exit 3, and a boundary
    /// day whose candidate the new ruleset alone refuses or weakens.
    @Test(arguments: [
        (
            "quiet_hours: { start: \"22:30\"", "quiet_hours: { start: \"22:00\"", "policy 'quiet_hours' 22:30-07:00 → 22:00-07:00",
            "  a reminder at 22:15: −1 routine_reminder: was at 22:15 (now quiet_hours)"
        ),
        (
            "max_per_day: 3 ", "max_per_day: 4 ", "policy 'max_per_day' 3 → 4",
            "  a day of exactly 4 reminders (the new cap): +1 routine_reminder at 13:30"
        ),
        (
            "category_cooldown: 90m", "category_cooldown: 120m", "policy 'category_cooldown' 1h30m → 2h",
            "  two reminders 1h45m apart: −1 routine_reminder: was at 10:45 (now category_cooldown)"
        ),
        (
            "after_ignored: 3,", "after_ignored: 4,", "policy 'weaken_after_ignored' 3 → 4",
            "  a reminder ignored 3 days in a row, then due again: routine_reminder at 12:00 active, no longer passive"
        ),
    ])
    func aPolicyValueIsReachedOnlyWhereTheTwoValuesDisagree(change: (String, String, String, String)) throws {
        let (old, new, label, boundary) = change
        let directory = try copy(editing: "rules/notifications.yaml") { $0.replacingOccurrences(of: old, with: new) }
        let run = CapturedRun(["diff", ".", directory, "--scenarios", "scenarios/good_day.yaml", "--no-population"], in: Self.root)
        #expect(run.exitCode == .unreached, "\(run.stdout)")
        #expect(run.stdout.contains("NOT REACHED \(label)"), "\(run.stdout)")
        #expect(run.stdout.contains(boundary), "\(run.stdout)")
    }

    /// The quiet hours moved 22:30 → 22:00 over every shipped scenario: deliveries fall inside
    /// both windows, none between 22:00 and 22:30, so nothing checked the move.
    @Test func aDeliveryInsideBothWindowsDoesNotReachAQuietHoursMove() throws {
        let directory = try copy(editing: "rules/notifications.yaml") {
            $0.replacingOccurrences(of: "quiet_hours: { start: \"22:30\"", with: "quiet_hours: { start: \"22:00\"")
        }
        let run = CapturedRun(["diff", ".", directory, "--no-population"], in: Self.root)
        #expect(run.exitCode == .unreached)
        #expect(run.stdout.contains("NOT REACHED policy 'quiet_hours'"), "\(run.stdout)")
        #expect(run.stdout.contains("no candidate fell inside one window and not the other"))
    }

    /// A rewritten condition is reached where the old and the new condition answer differently
    /// on facts a run saw: `streak.days < 100` added to the evening notice never changes its
    /// answer in the shipped scenarios; `completion_rate < 0.9` instead of `< 0.6 && …` does.
    @Test func aRewrittenConditionIsReachedWhereTheTwoAnswersDiffer() throws {
        let same = try copy(editing: "rules/notifications.yaml") {
            $0.replacingOccurrences(of: "    when: completion_rate < 0.6\n", with: "    when: completion_rate < 0.6 && streak.days < 100\n")
        }
        let unreached = CapturedRun(["diff", ".", same, "--no-population"], in: Self.root)
        #expect(unreached.exitCode == .unreached, "\(unreached.stdout)")
        #expect(
            unreached.stdout.contains("NOT REACHED notification 'evening_underachievement'")
                && unreached.stdout.contains("the old and the new condition never answered differently on the facts seen"), "\(unreached.stdout)")
        let differs = try copy(editing: "rules/notifications.yaml") {
            $0.replacingOccurrences(of: "    when: completion_rate < 0.6\n", with: "    when: completion_rate < 0.9 || streak.days > 100\n")
        }
        let reached = CapturedRun(["diff", ".", differs, "--no-population"], in: Self.root)
        #expect(reached.stdout.contains("reached     notification 'evening_underachievement'"), "\(reached.stdout)")
    }

    /// NOT REACHED names the nearest values seen on each side, the constants included, as
    /// coverage and the editor do: 390 seen for `< 360 → 390`.
    @Test func theNearestValuesIncludeTheConstants() throws {
        let new = try lighterRoute()
        let run = CapturedRun(["diff", ".", new, "--no-population"], in: Self.root)
        #expect(run.stdout.contains("no sleep.minutes between 360 and 390 was seen (nearest 350 and 390)"), "\(run.stdout)")
    }

    /// A changed template no scenario shows: its old and new text on the preview's sample
    /// days, and when it appears.
    @Test func anUnseenTemplateIsRenderedOldAndNew() throws {
        let new = try copy(editing: "templates/notifications.yaml") {
            $0.replacingOccurrences(of: "text: 오늘 마무리 루틴을 시작하자.", with: "text: 이제 마무리 루틴 시간이야.")
        }
        let run = CapturedRun(["diff", ".", new, "--scenarios", "scenarios/good_day.yaml", "--no-population"], in: Self.root)
        #expect(run.exitCode == .unreached)
        #expect(
            run.stdout.contains(
                "  template 'bedtime_start' (lock_screen, sent by notification 'bedtime' at settings.bedtime - 30m), shown by no scenario:"),
            "\(run.stdout)")
        #expect(run.stdout.contains(": \"오늘 마무리 루틴을 시작하자.\" → \"이제 마무리 루틴 시간이야.\""), "\(run.stdout)")
        let json = CapturedRun(["diff", ".", new, "--scenarios", "scenarios/good_day.yaml", "--no-population", "--format", "json"], in: Self.root)
        let value = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((value["unseen_templates"] as? [[String: Any]])?.first?["template"] as? String == "bedtime_start")
    }

    /// A new routine no scenario has on is not blamed for the evening notice that moved.
    @Test func anUnrelatedNewRoutineIsNotACause() throws {
        let new = try copy(editing: "rules/notifications.yaml") { $0.replacingOccurrences(of: "at: \"20:30\"", with: "at: \"20:00\"") }
        try Fixtures.write(
            [
                "routines/stretching.yaml":
                    "id: stretching\nname: 스트레칭\ncategory: exercise\nsource: manual\nunit: count\ngoal: 1\ndefault_enabled: false\n"
            ],
            to: new)
        let run = CapturedRun(["diff", ".", new, "--no-population"], in: Self.root)
        let moved = run.stdout.split(separator: "\n").filter { $0.contains("evening_underachievement moved from 20:30 to 20:00") }
        #expect(!moved.isEmpty, "\(run.stdout.prefix(1500))")
        #expect(moved.allSatisfy { !$0.contains("routine 'stretching'") }, "\(moved)")
        #expect(run.stdout.contains("routine 'stretching'"), "the new routine is still a changed element: \(run.stdout.prefix(800))")
    }
}
