import CLITestSupport
import Foundation
import RulesCLI
import RulesDiagnostics
import RulesetFiles
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The shipped scenarios through the CLI: golden traces, byte-identical runs, a page that
/// parses, failures that explain themselves, bad scenarios with positions.
@Suite struct ScenarioTraceTests {
    static let root = Fixtures.repositoryRoot()
    /// Every shipped scenario (a new one needs its golden traces: run with UPDATE_GOLDEN=1).
    static let scenarios = RulesetDirectory.yamlFiles(under: root + "/scenarios").map { String($0.dropLast(".yaml".count)) }

    @Test(arguments: scenarios)
    func textTraceMatchesGolden(name: String) {
        let run = CapturedRun(["simulate", "scenarios/\(name).yaml"], in: Self.root)
        #expect(run.exitCode == .success)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(Golden.compare(run.stdout, toFile: Fixtures.directory() + "/traces/\(name).txt") == nil)
    }

    @Test(arguments: scenarios)
    func jsonTraceMatchesGoldenAndIsByteIdenticalAcrossRuns(name: String) throws {
        let first = CapturedRun(["simulate", "--format", "json", "scenarios/\(name).yaml"], in: Self.root)
        let second = CapturedRun(["simulate", "--format", "json", "scenarios/\(name).yaml"], in: Self.root)
        #expect(first.stdout == second.stdout)
        for line in first.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["at"] is String && object?["kind"] is String)
        }
        #expect(Golden.compare(first.stdout, toFile: Fixtures.directory() + "/traces/\(name).jsonl") == nil)
    }

    @Test func shippedScenariosPass() {
        let run = CapturedRun(["test", "scenarios"], in: Self.root)
        #expect(run.exitCode == .success, "\(run.stdout)")
        #expect(run.stdout.hasSuffix(" passed, 0 failed\n"))
    }

    @Test func htmlReportIsWellFormedAndSelfContained() throws {
        let run = CapturedRun(["simulate", "--format", "html", "scenarios/collapsed_day.yaml"], in: Self.root)
        #expect(run.exitCode == .success)
        let html = run.stdout
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").count == 2)  // only the SVG namespace
        #expect(!html.contains("https://"))
        #expect(html.contains("무너진 날"))
        #expect(html.contains("<polyline class=\"steps\""))
        #expect(html.contains("class=\"band-recovery\""))
        #expect(html.contains("<title>evening_underachievement delivered"))
        #expect(html.contains("recovery_route suppressed: its condition was false"))
        // The story in words: sleep, the phone's lock screen and lines, the route's reason,
        // the recovery checklist with times, snapshots in readable units, local times.
        #expect(html.contains("<b>sleep</b>5시간 30분 · 01:20–06:50"))
        #expect(
            html.contains(
                "<div class=\"notice\"><div class=\"app\"><span>갓생 operator</span><span>09:00</span></div><div class=\"body\">오늘 루트가 준비됐어.</div></div>"
            ))
        #expect(html.contains("<li><time>21:50</time><span class=\"where\">widget</span>복구 완료</li>"))
        #expect(html.contains("route light → recovery</span>: completion rate below threshold"))
        // Routines by name, amounts with their unit; one line per happening (a widget tap is
        // its log, not an app run and then a log).
        #expect(html.contains("<li>✓ 물 300 ml — done at 21:20</li>"))
        #expect(html.contains("logged 물 +250 ml (widget)"))
        #expect(!html.contains("app run: widget:log water 250"))
        #expect(html.contains("<td>800 / 1,500 ml</td>"))
        #expect(html.contains("delivered · ignored at 20:30"))
        #expect(!html.contains("+09:00"), "times are local, not ISO")
        let parser = XMLParser(data: Data(html.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    /// The week a notice is ignored shows it turn quiet; risk changes are named.
    @Test func theWeeklyReportShowsTheNoticeTurningPassiveAndTheRisk() {
        let run = CapturedRun(["simulate", "scenarios/ignored_week.yaml", "--format", "html", "--out", "-"], in: Self.root)
        #expect(run.exitCode == .success)
        #expect(run.stdout.contains("<b>delivered quietly</b> (passive: weakened after being ignored)"))
        #expect(run.stdout.contains("evening_underachievement (quiet)"))
        #expect(run.stdout.contains("<span class=\"route\">risk "))
    }

    @Test func atStopsThereAndPrintsTheSnapshot() {
        let run = CapturedRun(["simulate", "scenarios/collapsed_day.yaml", "--at", "21:10"], in: Self.root)
        #expect(run.exitCode == .success)
        #expect(run.stdout.contains("\"character_line\": \"전부 하려다 망하지 말고, 세 개만 살리자.\""))
        #expect(!run.stdout.contains("21:20  "))
        let bad = CapturedRun(["simulate", "scenarios/collapsed_day.yaml", "--at", "25:00"], in: Self.root)
        #expect(bad.exitCode == .usage)
        let early = CapturedRun(["simulate", "scenarios/night_owl.yaml", "--at", "07:00"], in: Self.root)
        #expect(early.exitCode == .success)
        #expect(early.stdout.hasSuffix("\nno snapshot at 07:00: the app has not run yet\n"), "before the first app run: \(early.stdout)")
    }

    /// `--at` names a moment of the scenario; `simulate` and `explain` refuse any other with the
    /// same message saying what is wrong: the time, the date, or a day the scenario lacks.
    @Test(arguments: ["simulate", "explain"])
    func atRefusesWhatIsNotAMomentOfTheScenarioAndSaysWhy(command: String) {
        func run(_ at: String) -> CapturedRun { CapturedRun([command, "scenarios/ignored_week.yaml", "--at", at], in: Self.root) }
        let refusals = [
            "25:00": "--at: '25:00' is not a time: give HH:MM (00:00 to 24:00), or YYYY-MM-DDTHH:MM for another day of the scenario",
            "2026-07-08T9": "--at: '2026-07-08T9' is not a time: give HH:MM (00:00 to 24:00), or YYYY-MM-DDTHH:MM for another day of the scenario",
            "2026-02-30T09:00": "--at: '2026-02-30' is not a date (YYYY-MM-DD)",
            "2026-07-13T09:00": "--at: 2026-07-13 is not a day of the scenario (its days: 2026-07-06 to 2026-07-12)",
        ]
        for (at, message) in refusals.sorted(by: { $0.key < $1.key }) {
            let refused = run(at)
            #expect(refused.exitCode == .usage, "\(at)")
            #expect(refused.stderr.hasPrefix("Error: \(message)\n"), "\(at): \(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
        let later = run("2026-07-08T09:00")
        #expect(later.exitCode == .success)
        #expect(later.stdout.contains("2026-07-08T08:00:00+09:00"), "the day named, its last run before 09:00: \(later.stdout)")
        #expect(!later.stdout.contains("== 2026-07-09") && !later.stdout.contains("2026-07-08T12:00"), "and nothing after: \(later.stdout)")
    }

    /// A temporary directory holding a copy of the shipped ruleset (so paths stay relative).
    func workspace() -> String {
        let directory = (try? Fixtures.copyOfShipped()) ?? Fixtures.temporaryDirectory()
        return directory
    }

    @Test func failedExpectationsShowExpectedActualAndWhy() throws {
        let directory = workspace()
        try Fixtures.write(
            [
                "scenarios/wrong.yaml": """
                name: 틀린 기대
                date: 2026-06-29
                timezone: Asia/Seoul
                routines: [water, study]
                events:
                  - { at: "21:05", app: open }
                expect:
                  - { at: "21:05", route: light }
                  - { at: "20:30", delivered: evening_underachievement }
                  - { snapshot_at: "21:05", completed_routines: 1 }
                  - { day: success }
                """
            ], to: directory)
        let run = CapturedRun(["test", "scenarios"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.hasSuffix("0 passed, 4 failed\n"))
        #expect(Golden.compare(run.stdout, toFile: Fixtures.directory() + "/failures/wrong.txt") == nil)
    }

    @Test func badScenariosGiveDiagnosticsWithPositions() throws {
        let directory = workspace()
        try Fixtures.write(
            [
                "scenarios/bad.yaml": """
                name: 나쁜 시나리오
                date: 2026-06-29
                timezone: Asia/Seol
                routines: [watr]
                events:
                  - { at: "09:00", app: open }
                  - { at: "08:00", log: { routine: water, value: 300 } }
                  - { at: "25:00", app: open }
                  - { at: "10:00", notification: evening, response: opened }
                expect:
                  - { at: "21:00", route: recvery }
                """
            ], to: directory)
        let run = CapturedRun(["test", "scenarios"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(Golden.compare(run.stdout, toFile: Fixtures.directory() + "/failures/bad.txt") == nil)
        let check = CapturedRun(["check", "--ruleset-less-path-is-not-an-option"], in: directory)
        #expect(check.exitCode == .usage)
    }

    @Test func explainShowsTheDecidingEntryAndTheFacts() {
        let run = CapturedRun(["explain", "scenarios/collapsed_day.yaml", "--at", "21:10"], in: Self.root)
        #expect(run.exitCode == .success)
        #expect(Golden.compare(run.stdout, toFile: Fixtures.directory() + "/explain/route.txt") == nil)
        let notification = CapturedRun(
            ["explain", "scenarios/collapsed_day.yaml", "--at", "21:10", "--decision", "notification", "recovery_route"], in: Self.root)
        #expect(notification.stdout.contains("condition_false"))
        #expect(notification.stdout.contains("risk = \"medium\""))
        let template = CapturedRun(["explain", "scenarios/collapsed_day.yaml", "--at", "21:10", "--decision", "template", "home"], in: Self.root)
        #expect(template.stdout.contains("home_recovery_calm"))
    }
}
