import CLITestSupport
import Foundation
import RulesCLI
import TestSupport
import Testing

/// `rules simulate --state-in/--state-out`: support replays a user's next hours from the
/// state the app saved. Saving mid-day and resuming gives the same rest of the day as the
/// uninterrupted run; a default changed in a new ruleset reaches a restored user who never
/// set it; bad states and outputs over inputs are refused.
@Suite struct SavedStateTests {
    static let root = Fixtures.repositoryRoot()

    /// The shipped ruleset copied into a fresh directory, with `scenarios/` holding `files`.
    func workspace(_ files: [String: String], replacing: [(String, String, String)] = []) throws -> String {
        let directory = try Fixtures.copyOfShipped()
        for (file, old, new) in replacing {
            let path = directory + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(old), "\(file) has no '\(old)'")
            try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: directory + "/scenarios", withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: directory + "/scenarios/" + name, atomically: true, encoding: .utf8) }
        return directory
    }

    static let head = """
        name: a day
        date: 2026-06-29
        timezone: Asia/Seoul
        routines: [steps, sleep, water, study, skincare]
        health:
          permission: { steps: granted, sleep: granted }
          sleep: { start: "00:40", end: "07:10" }
          steps: { "07:00": 0, "12:00": 2000, "20:00": 4000, "22:00": 4400 }
        events:

        """
    static let morning = """
          - { at: "08:00", app: open }
          - { at: "08:05", log: { routine: water, value: 1500 } }

        """
    static let evening = """
          - { at: "20:00", app: open }
          - { at: "20:35", notification: evening_underachievement, response: ignored }
          - { at: "21:35", notification: recovery_route, response: opened }
          - { at: "21:40", log: { routine: water, value: 300, source: widget } }
          - { at: "21:45", check: { routine: skincare, item: 양치 } }
          - { at: "22:05", app: open }

        """

    /// JSON records after `cut` (an ISO prefix compared as text: same zone, same format).
    func records(_ text: String, after cut: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            guard let range = line.range(of: #""at":""#) else { return false }
            return String(line[range.upperBound...].prefix(25)) > cut
        }
    }

    @Test func aDaySavedAtNoonAndResumedGoesOnAsTheUninterruptedDay() throws {
        let directory = try workspace([
            "full.yaml": Self.head + Self.morning + Self.evening, "rest.yaml": Self.head + Self.evening,
        ])
        let full = CapturedRun(["simulate", "scenarios/full.yaml", "--format", "json"], in: directory)
        #expect(full.exitCode == .success, "\(full.stderr)")
        let saved = CapturedRun(["simulate", "scenarios/full.yaml", "--at", "12:00", "--state-out", "noon.json"], in: directory)
        #expect(saved.exitCode == .success, "\(saved.stderr)")
        let state = try String(contentsOfFile: directory + "/noon.json", encoding: .utf8)
        #expect(state.contains(#""format":"operator-engine-state""#))
        #expect(state.contains(#""value":1500"#))
        let rest = CapturedRun(["simulate", "scenarios/rest.yaml", "--state-in", "noon.json", "--format", "json"], in: directory)
        #expect(rest.exitCode == .success, "\(rest.stderr)")
        let expected = records(full.stdout, after: "2026-06-29T12:00")
        #expect(expected.count > 20)
        #expect(records(rest.stdout, after: "2026-06-29T12:00") == expected)
        // Without the saved state the rest of the day differs (no water in the morning).
        let fresh = CapturedRun(["simulate", "scenarios/rest.yaml", "--format", "json"], in: directory)
        #expect(records(fresh.stdout, after: "2026-06-29T12:00") != expected)
    }

    /// The state stores only what the user set: a ruleset that turns the morning check-in's
    /// default off reaches a user who never touched it, not one who turned it on.
    @Test func aChangedDefaultReachesARestoredUserWhoNeverSetIt() throws {
        let day1 = "name: d1\ndate: 2026-07-06\ntimezone: Asia/Seoul\nevents:\n  - { at: \"08:00\", app: open }\n"
        let setter = day1 + "  - { at: \"08:30\", settings: { morning_checkin: true } }\n"
        let day2 = """
            name: d2
            date: 2026-07-07
            timezone: Asia/Seoul
            events:
              - { at: "08:00", app: open }
            expect:
              - { suppressed: morning_checkin, reason: disabled }

            """
        let old = try workspace(["day1.yaml": day1, "setter.yaml": setter])
        let new = try workspace(
            ["day2.yaml": day2],
            replacing: [
                (
                    "rules/settings.yaml", "morning_checkin:          { type: bool, default: true }",
                    "morning_checkin:          { type: bool, default: false }"
                )
            ])
        for (scenario, state) in [("day1.yaml", "untouched.json"), ("setter.yaml", "set.json")] {
            let run = CapturedRun(["simulate", "scenarios/" + scenario, "--state-out", new + "/" + state], in: old)
            #expect(run.exitCode == .success, "\(run.stderr)")
        }
        let untouched = CapturedRun(["simulate", "scenarios/day2.yaml", "--state-in", "untouched.json", "--format", "json"], in: new)
        // The state was saved after 08:00 on the first day: that day's 09:00 check-in, already
        // scheduled with iOS, still comes; the next day's is refused as disabled.
        #expect(untouched.stdout.contains(#""kind":"notification.suppressed","id":"morning_checkin.20260707""#))
        #expect(
            untouched.stdout.contains(
                #""id":"morning_checkin.20260707","type":"morning_checkin","fire_at":"2026-07-07T09:00:00+09:00","reason":"disabled""#))
        #expect(!untouched.stdout.contains(#""kind":"notification.delivered","id":"morning_checkin.20260707""#))
        let set = CapturedRun(["simulate", "scenarios/day2.yaml", "--state-in", "set.json", "--format", "json"], in: new)
        #expect(set.stdout.contains(#""kind":"notification.delivered","id":"morning_checkin.20260707""#), "\(set.stdout)")
        #expect(!set.stdout.contains(#""reason":"disabled""#), "\(set.stdout)")
    }

    @Test func badStatesAndOutputsOverInputsAreRefused() throws {
        let directory = try workspace(["day.yaml": Self.head + Self.morning])
        try "{\"format\":\"operator-engine-state\",\"version\":99}".write(toFile: directory + "/newer.json", atomically: true, encoding: .utf8)
        let newer = CapturedRun(["simulate", "scenarios/day.yaml", "--state-in", "newer.json"], in: directory)
        #expect(newer.exitCode == .failure)
        #expect(newer.stdout.contains("state.newer_version"))
        let missing = CapturedRun(["simulate", "scenarios/day.yaml", "--state-in", "nothing.json"], in: directory)
        #expect(missing.exitCode == .usage)
        // A state of another time zone.
        let paris = (Self.head + Self.morning).replacingOccurrences(of: "Asia/Seoul", with: "Europe/Paris")
        try paris.write(toFile: directory + "/scenarios/paris.yaml", atomically: true, encoding: .utf8)
        #expect(CapturedRun(["simulate", "scenarios/paris.yaml", "--state-out", "paris.json"], in: directory).exitCode == .success)
        let zone = CapturedRun(["simulate", "scenarios/day.yaml", "--state-in", "paris.json"], in: directory)
        #expect(zone.exitCode == .usage)
        #expect(zone.stderr.contains("Europe/Paris"))
        // The output never replaces an input of the run.
        let before = try String(contentsOfFile: directory + "/scenarios/day.yaml", encoding: .utf8)
        let clash = CapturedRun(["simulate", "scenarios/day.yaml", "--state-out", "scenarios/day.yaml"], in: directory)
        #expect(clash.exitCode == .usage)
        #expect(try String(contentsOfFile: directory + "/scenarios/day.yaml", encoding: .utf8) == before)
        let same = CapturedRun(["simulate", "scenarios/day.yaml", "--state-in", "paris.json", "--state-out", "./paris.json"], in: directory)
        #expect(same.exitCode == .usage)
    }
}
