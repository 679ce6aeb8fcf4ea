import CLITestSupport
import Foundation
import RulesCLI
import TestSupport
import Testing

/// What designers get wrong, said first and plainly.
@Suite struct DesignerMistakesTests {
    static let root = Fixtures.repositoryRoot()

    /// A route condition that cannot be evaluated (a division by zero) is counted as not
    /// matched, as the engine counts it; why-not says so instead of reading it as false.
    @Test func whyNotSaysAnEntryCouldNotBeEvaluated() throws {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let path = directory + "/rules/route.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let broken = text.replacingOccurrences(
            of: "    when: (sleep.minutes ?? 420) < 360", with: "    when: (sleep.minutes ?? 420) < 360 || 100 / (completed - completed) > 1")
        #expect(broken != text)
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        let run = CapturedRun(["explain", "scenarios/good_day.yaml", "--at", "07:30", "--why-not", "route=light"], in: directory)
        #expect(
            run.stdout
                == "would have been the light route if sleep.minutes had been 359 (sleep.minutes < 360); it was 450 (it was regular); entry light could not be evaluated (division by zero) and counted as not matched\n",
            "\(run.stdout)\(run.stderr)")
    }

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

    /// A file is never called clean while its ruleset could not be read: checking route.yaml
    /// beside a rules file that does not parse shows that file's error and route.yaml's
    /// misspelled built-in fact, exit 1.
    @Test func aFileBesideABrokenOneIsNeverCalledClean() throws {
        let directory = try Fixtures.copyOfShipped()
        let route = directory + "/rules/route.yaml"
        try (try String(contentsOfFile: route, encoding: .utf8)).replacingOccurrences(
            of: "(sleep.minutes ?? 420) < 360", with: "(sleep.minuts ?? 420) < 360"
        )
        .write(toFile: route, atomically: true, encoding: .utf8)
        try "policy:\n  foo: \"unterminated\n".write(toFile: directory + "/rules/zz.yaml", atomically: true, encoding: .utf8)
        let run = CapturedRun(["check", "rules/route.yaml"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("rules/zz.yaml:3:1: error: "), "\(run.stdout)")
        #expect(run.stdout.contains("rules/route.yaml:18:18: error: 'sleep' has no member 'minuts'"), "\(run.stdout)")
        #expect(!run.stdout.contains("no problems"))
    }

    /// A population file outside populations/ is known by its keys and checked against the
    /// ruleset of the working directory; any other file outside a ruleset is said to be read as
    /// YAML only, never "no problems".
    @Test func aPopulationFileAnywhereIsCheckedAndOtherFilesAreSaidUnchecked() throws {
        let directory = Fixtures.temporaryDirectory()
        try "seed: 1\nusers: 5\ndays: 2\nstart: 2026-07-06\ngroups:\n  - name: x\n    half_life: 0\n    app_opens: 1e308\n".write(
            toFile: directory + "/bad.yaml", atomically: true, encoding: .utf8)
        try "a: 1\n".write(toFile: directory + "/other.yaml", atomically: true, encoding: .utf8)
        let population = CapturedRun(["check", directory + "/bad.yaml"], in: Self.root)
        #expect(population.exitCode == .failure, "\(population.stdout)")
        #expect(population.stdout.contains("bad.yaml:7:5: error: "), "\(population.stdout)")
        let elsewhere = CapturedRun(["check", "bad.yaml"], in: directory)
        #expect(elsewhere.stdout.contains("a population file read as YAML only: no ruleset here to check it against [io.not_checked]"))
        let other = CapturedRun(["check", directory + "/other.yaml"], in: Self.root)
        #expect(other.stdout.contains("read as YAML only: not under a ruleset's"), "\(other.stdout)")
        #expect(!other.stdout.contains("no problems"))
        #expect(CapturedRun(["check", directory + "/other.yaml", "--strict"], in: Self.root).exitCode == .failure)
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

    /// Nonsense that `rules check --strict` once passed: a share written as a percent, sleep
    /// said with 잤 on the lock screen, an evening notice at `8:30`. Each is an error now.
    @Test(arguments: [
        (
            "rules/notifications.yaml", "    when: completion_rate < 0.6\n", "    when: completion_rate < 60\n", "lint.fraction_as_percent",
            "did you mean '0.6'?"
        ),
        (
            "templates/notifications.yaml", "text: 아직 살릴 수 있는 루트가 있어.", "text: 어젯밤 6시간도 못 잤지만 아직 살릴 수 있어.", "lint.sensitive_word",
            "says '잤' (a form of '자다')"
        ),
        (
            "templates/notifications.yaml", "text: 아직 살릴 수 있는 루트가 있어.", "text: 잠을 줄였으니 지금 살리자.", "lint.sensitive_word",
            "says '잠' (a form of '자다')"
        ),
        ("rules/notifications.yaml", "at: \"20:30\"", "at: \"8:30\"", "lint.ambiguous_time", "write 08:30 for the morning or 20:30 for the evening"),
    ])
    func nonsenseFailsTheCheck(edit: (String, String, String, String, String)) throws {
        let (file, old, new, code, words) = edit
        let (directory, missing) = try Fixtures.variantOfShipped([(file, old, new)])
        #expect(missing.isEmpty, "\(missing)")
        let run = CapturedRun(["check", "."], in: directory)
        #expect(run.exitCode == .failure, "\(run.stdout)")
        #expect(run.stdout.contains("error:") && run.stdout.contains("[\(code)]") && run.stdout.contains(words), "\(run.stdout)")
    }

    /// Everyday words that hold a form of a sensitive verb are not the topic: `잠깐`, `혼자`.
    @Test func everydayWordsAreNotTheTopic() throws {
        let (directory, missing) = try Fixtures.variantOfShipped([
            ("templates/notifications.yaml", "text: 아직 살릴 수 있는 루트가 있어.", "text: 잠깐, 혼자는 어려워도 아직 살릴 수 있어.")
        ])
        #expect(missing.isEmpty)
        let run = CapturedRun(["check", "--strict", "."], in: directory)
        #expect(run.exitCode == .success, "\(run.stdout)")
    }

    /// The recovery route says how many items it offers (`recovery.item_count`), and a line
    /// that writes a number it no longer offers is warned: "세 개만 살리자" after the route
    /// offers four.
    @Test func aRecoveryLineWithAStaleCountIsWarned() throws {
        let (directory, missing) = try Fixtures.variantOfShipped([
            ("rules/route.yaml", "  max_items: 3\n", "  max_items: 4\n"),
            (
                "rules/route.yaml", "    - { routine: steps, delta: 300 }\n",
                "    - { routine: steps, delta: 300 }\n    - { routine: reading, target: 10 }\n"
            ),
        ])
        #expect(missing.isEmpty, "\(missing)")
        let run = CapturedRun(["check", "--strict", "."], in: directory)
        #expect(run.exitCode == .failure)
        #expect(
            run.stdout.contains("template 'home_recovery_calm' says '세 개', but the recovery route offers up to 4 items [lint.stale_count]"),
            "\(run.stdout)")
        #expect(run.stdout.contains("help: write {recovery.item_count}개, which follows the route"))
        // Written with the fact, the line follows the route: no warning, and the day says how
        // many items this user's route holds (3: the scenario's user does not read).
        let text = try String(contentsOfFile: directory + "/templates/character.yaml", encoding: .utf8)
        try text.replacingOccurrences(of: "세 개만 살리자", with: "{recovery.item_count}개만 살리자").write(
            toFile: directory + "/templates/character.yaml", atomically: true, encoding: .utf8)
        let fixed = CapturedRun(["check", "--strict", "."], in: directory)
        #expect(fixed.exitCode == .success, "\(fixed.stdout)")
        let day = CapturedRun(["simulate", Self.root + "/scenarios/light_then_recovery.yaml", "--ruleset", "."], in: directory)
        #expect(day.stdout.contains("3개만 살리자"), "\(day.stdout.prefix(3000))")
    }
}
