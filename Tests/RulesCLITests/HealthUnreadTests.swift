import CLITestSupport
import Foundation
import RulesDiagnostics
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// HealthKit permission starts not_determined, so samples in a scenario that never states a
/// permission are never read: the loader warns at the samples (once per kind), the scenario
/// still runs, and `test`, `simulate` and `explain` show the warning without failing on it.
@Suite struct HealthUnreadTests {
    static let root = Fixtures.repositoryRoot()
    static let ruleset = Ruleset.load(directory: root).ruleset ?? Ruleset()

    /// `(line:column kind)` of each `scenario.health_unread`, and whether the scenario loaded.
    func unread(_ yaml: String) -> (warnings: [String], loaded: Bool) {
        let parsed = YAMLReader.parse(yaml, file: "inline.yaml")
        guard let node = parsed.documents.first else {
            Issue.record("no document")
            return ([], false)
        }
        let (scenario, diagnostics) = ScenarioLoader.load(node, file: "inline.yaml", source: nil, ruleset: Self.ruleset)
        #expect(diagnostics.allSatisfy { $0.code == "scenario.health_unread" && $0.severity == .warning }, "\(diagnostics.map(\.message))")
        // In source order, as the commands print them (the loader reports steps before sleep).
        let warnings = diagnostics.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }.map {
            "\($0.location.line):\($0.location.column) \($0.message.contains("steps") ? "steps" : "sleep")"
        }
        return (warnings, scenario != nil)
    }

    static let day = "name: d\ndate: 2026-07-10\ntimezone: Asia/Seoul\n"

    @Test func samplesWithoutAPermissionAreReportedAtTheSamplesAndStillRun() {
        let result = unread(Self.day + "health:\n  sleep: { start: \"02:00\", end: \"07:00\" }\n  steps: { \"09:00\": 1000 }\nevents: []\n")
        #expect(result.loaded)
        #expect(result.warnings == ["5:3 sleep", "6:3 steps"])
    }

    @Test(arguments: ["granted", "denied", "not_determined"])
    func aStatedPermissionOfAnyKindIsNotReported(permission: String) {
        let health =
            "health:\n  permission: { steps: \(permission), sleep: \(permission) }\n  sleep: { start: \"02:00\", end: \"07:00\" }\n  steps: { \"09:00\": 1000 }\n"
        #expect(unread(Self.day + health + "events: []\n").warnings.isEmpty)
    }

    @Test func onlyTheKindWithoutAPermissionIsReported() {
        let health = "health:\n  permission: { sleep: granted }\n  sleep: { start: \"02:00\", end: \"07:00\" }\n  steps: { \"09:00\": 1000 }\n"
        #expect(unread(Self.day + health + "events: []\n").warnings == ["7:3 steps"])
    }

    /// Permission carries over from an earlier day and from the top-level health; unread
    /// samples on many days are reported once, on the first.
    @Test func acrossDaysAPermissionCarriesOverAndEachKindIsReportedOnce() {
        let head = "name: d\ntimezone: Asia/Seoul\n"
        let carried = unread(
            head + "days:\n  - date: 2026-07-10\n    health: { permission: { steps: granted, sleep: granted } }\n"
                + "  - date: 2026-07-11\n    health: { steps: { \"09:00\": 1000 }, sleep: { start: \"01:00\", end: \"07:00\" } }\n")
        #expect(carried.warnings.isEmpty)
        let defaults = unread(
            head + "health: { permission: { steps: granted } }\ndays:\n  - date: 2026-07-10\n    health: { steps: { \"09:00\": 1000 } }\n")
        #expect(defaults.warnings.isEmpty)
        let twice = unread(
            head + "days:\n  - date: 2026-07-10\n    health: { steps: { \"09:00\": 1000 } }\n"
                + "  - date: 2026-07-11\n    health: { steps: { \"09:00\": 2000 } }\n")
        #expect(twice.warnings == ["5:15 steps"])
        let late = unread(
            head + "days:\n  - date: 2026-07-10\n    health: { steps: { \"09:00\": 1000 } }\n"
                + "  - date: 2026-07-11\n    health: { permission: { steps: granted }, steps: { \"09:00\": 2000 } }\n")
        #expect(late.warnings == ["5:15 steps"], "day 1's samples were unread, whatever day 2 says")
    }

    @Test func theCommandsShowTheWarningAndDoNotFailOnIt() throws {
        let directory = try Fixtures.copyOfShipped()
        try FileManager.default.createDirectory(atPath: directory + "/scenarios", withIntermediateDirectories: true)
        let text =
            Self.day + "health:\n  sleep: { start: \"02:00\", end: \"07:00\" }\nevents:\n  - { at: \"08:00\", app: open }\n"
            + "expect:\n  - { at: \"08:00\", route: regular }\n"
        try text.write(toFile: directory + "/scenarios/d.yaml", atomically: true, encoding: .utf8)
        let warning = "scenarios/d.yaml:5:3: warning: the app never reads these sleep samples"

        let test = CapturedRun(["test", "scenarios/d.yaml"], in: directory)
        #expect(test.exitCode == .success)
        #expect(test.stdout.contains(warning), "\(test.stdout)")
        #expect(test.stdout.hasSuffix("1 passed, 0 failed\n"), "\(test.stdout)")

        let simulate = CapturedRun(["simulate", "scenarios/d.yaml", "--format", "json"], in: directory)
        #expect(simulate.exitCode == .success)
        #expect(simulate.stderr.hasPrefix(warning), "\(simulate.stderr)")
        #expect(simulate.stdout.hasPrefix("{"), "standard output stays the trace")

        let explain = CapturedRun(["explain", "scenarios/d.yaml", "--at", "08:00"], in: directory)
        #expect(explain.exitCode == .success)
        #expect(explain.stderr.hasPrefix(warning))
        #expect(explain.stdout.contains("sleep.minutes = unknown"))

        let check = CapturedRun(["check", "scenarios/d.yaml"], in: directory)
        #expect(check.exitCode == .success)
        #expect(check.stdout.contains(warning))
    }
}
