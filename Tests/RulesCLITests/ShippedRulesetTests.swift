import CLITestSupport
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// The repository's own ruleset: the MVP of the seed, clean under --strict.
@Suite struct ShippedRulesetTests {
    static let root = Fixtures.repositoryRoot()

    @Test func loadsWithoutAnyDiagnostic() throws {
        let load = Ruleset.load(directory: Self.root)
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics.map { "\($0.file):\($0.location) \($0.message)" })")
        let ruleset = try #require(load.ruleset)
        #expect(
            ruleset.routines.map(\.id) == ["exercise", "practice", "reading", "room", "skincare", "sleep", "steps", "study", "supplement", "water"])
        #expect(ruleset.routines.filter(\.defaultEnabled).map(\.id).sorted() == ["skincare", "sleep", "steps", "study", "supplement", "water"])
    }

    @Test func checkStrictReportsNothing() {
        let run = CapturedRun(["check", "--strict", "."], in: Self.root)
        #expect(run.exitCode == .success)
        #expect(run.stdout.hasSuffix("checked, no problems\n"))
    }

    @Test func carriesTheSeedValues() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        #expect(ruleset.routine("steps")?.goal == 6000)
        #expect(ruleset.routine("water")?.goal == 1500)
        #expect(ruleset.routine("water")?.quickLog == [250, 500])
        #expect(ruleset.routine("study")?.goal == 25)
        #expect(ruleset.routine("study")?.lightGoal == 15)
        #expect(ruleset.routine("skincare")?.items == ["양치", "세수", "면도", "로션"])
        #expect(ruleset.routine("skincare")?.goal == 4)
        #expect(ruleset.routine("sleep")?.sensitive == true)
        #expect(ruleset.routine("supplement")?.sensitive == true)
        #expect(ruleset.policy.maxPerDay == 3)
        #expect(ruleset.policy.categoryCooldown == 90 * 60)
        #expect(ruleset.policy.quietHours?.start == 22 * 3600 + 30 * 60)
        #expect(ruleset.policy.quietHours?.end == 7 * 3600)
        #expect(ruleset.policy.weakenAfterIgnored == 3)
        #expect(ruleset.notifications.map(\.id) == ["morning_checkin", "evening_underachievement", "recovery_route", "bedtime", "routine_reminder"])
        #expect(ruleset.tools.count == 9)
        #expect(ruleset.light?.scale == 0.6)
        #expect(ruleset.recovery?.items.count == 3)
        #expect(ruleset.sticky == [.recovery])
        #expect(ruleset.template("recovery_generic_01")?.source == "복구 루트로 전환할 시간이야.")
        #expect(ruleset.surface("lock_screen")?.fallback == "오늘 루트가 업데이트됐어.")
        #expect(ruleset.dayStartsAt == 4 * 3600)
        #expect(ruleset.tones == ["calm_directive", "cold_persistent"])
    }

    @Test func aFailedReloadKeepsTheLastGoodRuleset() throws {
        let good = try #require(Ruleset.load(directory: Self.root).ruleset)
        let broken = Fixtures.temporaryDirectory()
        try Fixtures.write(["rules/route.yaml": "route:\n  - use: nowhere\n    when: true\n"], to: broken)
        let reload = Ruleset.load(directory: broken)
        #expect(reload.hasErrors)
        let kept = reload.ruleset(orKeeping: good)
        #expect(kept.routines.count == good.routines.count)
        #expect(kept.route.count == good.route.count)
    }

    /// Several findings in several files: machine formats list them sorted by file, line, column.
    @Test(arguments: ["json", "sarif", "github", "text"])
    func multiFileFindingsInEachFormat(format: String) throws {
        let directory = Fixtures.temporaryDirectory()
        try Fixtures.write(
            [
                "routines/water.yaml": "id: water\nname: 물\ncategory: water\nsource: manual\nunit: ml\ngoal: 0\n",
                "rules/route.yaml": "route:\n  - use: regular\n    when: true\n  - use: light\n    when: (sleep.minutes ?? 420) < 360\n",
                "rules/policy.yaml": "policy:\n  max_per_day: 3\n  category_coldown: 90m\n",
                "templates/t.yaml":
                    "surfaces:\n  lock_screen: { sensitive: forbidden, fallback: 업데이트 }\ntemplates:\n  - id: orphan\n    surface: lock_screen\n    text: 한 줄.\n",
            ], to: directory)
        let run = CapturedRun(["check", "--format", format, "."], in: directory)
        #expect(run.exitCode == .failure)
        #expect(Golden.compare(run.stdout, toFile: Fixtures.directory() + "/formats/findings.\(format)") == nil)
    }
}
