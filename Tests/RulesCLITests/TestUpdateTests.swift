import CLITestSupport
import Foundation
import RulesCLI
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `rules test --update`: a reviewed behaviour change accepted in one step.
@Suite struct TestUpdateTests {
    static let root = Fixtures.repositoryRoot()

    /// A copy of the shipped ruleset and scenarios with `change` applied to `file`.
    static func copy(changing file: String, _ old: String, _ new: String) throws -> String {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let path = directory + "/" + file
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        return directory
    }

    static func scenarioTexts(_ directory: String) throws -> [String: String] {
        var texts: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory + "/scenarios") where name.hasSuffix(".yaml") {
            texts[name] = try String(contentsOfFile: directory + "/scenarios/" + name, encoding: .utf8)
        }
        return texts
    }

    /// The issue's case: the evening notice moved from 20:30 to 20:00 fails 11 expectations;
    /// one `--update` rewrites them all as a diff, keeping every comment, and the tests pass.
    @Test func movingANoticeIsAcceptedInOneReviewedDiff() throws {
        let directory = try Self.copy(changing: "rules/notifications.yaml", "    at: \"20:30\"", "    at: \"20:00\"")
        let before = CapturedRun(["test"], in: directory)
        #expect(before.stdout.hasSuffix("139 passed, 11 failed\n"), "\(before.stdout.suffix(200))")
        let textsBefore = try Self.scenarioTexts(directory)
        let update = CapturedRun(["test", "--update"], in: directory)
        #expect(
            update.stdout.contains(
                "scenarios/collapsed_day.yaml:34\n-   - { at: \"20:30\", delivered: evening_underachievement }\n+   - { at: \"20:00\", delivered: evening_underachievement }\n"
            ))
        #expect(update.stdout.contains("updated 7 expectations in scenarios/ignored_week.yaml\n"))
        #expect(update.stdout.hasSuffix("150 passed, 0 failed\n"), "\(update.stdout.suffix(300))")
        let after = CapturedRun(["test"], in: directory)
        #expect(after.exitCode == .success && after.stdout.hasSuffix("150 passed, 0 failed\n"))
        // Only values changed: every line keeps its place, every comment stays.
        for (name, old) in textsBefore {
            let new = try #require(try Self.scenarioTexts(directory)[name])
            let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
            let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(oldLines.count == newLines.count, "\(name)")
            #expect(oldLines.filter { $0.contains("#") } == newLines.filter { $0.contains("#") }, "\(name)")
            for (a, b) in zip(oldLines, newLines) where a != b {
                #expect(a.replacingOccurrences(of: "20:30", with: "20:00") == b, "\(name): \(a) → \(b)")
            }
        }
    }

    /// Moving the notice after the scenario's responses changes the story (the "ignored" taps
    /// now come before it, so the weakening never happens): `--update` must not rewrite that
    /// into the expectations. The scenario is left as it was, each early response named by line.
    @Test func anUpdateThatWouldRewriteTheStoryStopsAndSaysWhere() throws {
        let directory = try Self.copy(changing: "rules/notifications.yaml", "    at: \"20:30\"", "    at: \"21:00\"")
        let before = try String(contentsOfFile: directory + "/scenarios/ignored_week.yaml", encoding: .utf8)
        let update = CapturedRun(["test", "scenarios/ignored_week.yaml", "--update"], in: directory)
        #expect(update.exitCode == .failure)
        #expect(
            update.stdout.contains(
                "not updated: scenarios/ignored_week.yaml:14: a response now comes before its notice — no notification 'evening_underachievement' was delivered by 20:35 that day (delivered at 21:00)"
            ), "\(update.stdout)")
        #expect(try String(contentsOfFile: directory + "/scenarios/ignored_week.yaml", encoding: .utf8) == before)
    }

    @Test func snapshotAndCountsAreUpdatedAndAConditionIsLeft() throws {
        let directory = try Self.copy(changing: "routines/water.yaml", "goal: 1500", "goal: 2000")
        let update = CapturedRun(["test", "--update"], in: directory)
        #expect(update.stdout.contains("-     water_goal_ml: 1500\n+     water_goal_ml: 2000\n"), "\(update.stdout)")
        #expect(update.stdout.contains("left to fix by hand"))
        #expect(CapturedRun(["test"], in: directory).stdout.hasSuffix("148 passed, 2 failed\n"))
    }

    /// `--dry-run` shows the same diff and the updates by cause, and writes nothing; the
    /// failures stay failures (exit 1). It is allowed under CI (it writes nothing).
    @Test func aDryRunPrintsTheUpdatesByCauseAndWritesNothing() throws {
        let directory = try Self.copy(changing: "rules/notifications.yaml", "    at: \"20:30\"", "    at: \"20:00\"")
        let texts = try Self.scenarioTexts(directory)
        let dry = CapturedRun(["test", "--update", "--dry-run"], in: directory, environment: ["CI": "true"])
        #expect(dry.exitCode == .failure)
        #expect(try Self.scenarioTexts(directory) == texts)
        #expect(
            dry.stdout.contains(
                "scenarios/collapsed_day.yaml:34\n-   - { at: \"20:30\", delivered: evening_underachievement }\n+   - { at: \"20:00\", delivered: evening_underachievement }\n"
            ))
        #expect(dry.stdout.contains("would update 7 expectations in scenarios/ignored_week.yaml\n"), "\(dry.stdout)")
        #expect(
            dry.stdout.contains("updates by cause (dry run: nothing was written):\n  notification evening_underachievement (11):\n"), "\(dry.stdout)")
        #expect(dry.stdout.hasSuffix("139 passed, 11 failed\n"))
        let alone = CapturedRun(["test", "--dry-run"], in: directory)
        #expect(alone.exitCode == .usage)
        #expect(alone.stderr.contains("--dry-run goes with --update"))
    }

    /// An unrelated change stands apart in the list by cause: a lower water goal changes the
    /// snapshot and the streak-related counts, each its own group.
    @Test func updatesAreGroupedByWhatCausedThem() throws {
        let directory = try Self.copy(changing: "routines/water.yaml", "goal: 1500", "goal: 2000")
        let dry = CapturedRun(["test", "--update", "--dry-run"], in: directory)
        let groups = dry.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.hasSuffix("):") && !$0.hasPrefix("    ") }
        #expect(groups.count >= 2, "\(dry.stdout)")
        #expect(groups.contains { $0.hasPrefix("  snapshot (") }, "\(groups)")
    }

    /// A count that fails names the notices: the extra ones (no `delivered:` names them) or,
    /// when too few came, the ones refused that day with their gates.
    @Test func aCountFailureNamesTheNotices() throws {
        let directory = try Fixtures.copyOfShipped()
        try Fixtures.write(
            [
                "scenarios/count.yaml": """
                name: counted
                timezone: Asia/Seoul
                routines: [water, study, skincare]
                days:
                  - date: 2026-07-20
                    events: [{ at: "08:00", app: open }, { at: "20:40", app: open }, { at: "21:40", app: open }]
                    expect:
                      - { at: "20:30", delivered: evening_underachievement }
                      - { notifications_delivered: 1 }
                  - date: 2026-07-21
                    events: [{ at: "08:00", app: open }, { at: "20:40", app: open }, { at: "21:40", app: open }]
                    expect:
                      - { notifications_delivered: 9 }
                """
            ], to: directory)
        let run = CapturedRun(["test", "scenarios/count.yaml"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("extra (no delivered: expectation names it): "), "\(run.stdout)")
        #expect(!run.stdout.contains("extra (no delivered: expectation names it): evening_underachievement"), "\(run.stdout)")
        #expect(run.stdout.contains("missing"), "\(run.stdout)")
    }

    @Test func updateIsRefusedUnderCI() throws {
        let directory = try Self.copy(changing: "rules/notifications.yaml", "    at: \"20:30\"", "    at: \"20:00\"")
        let texts = try Self.scenarioTexts(directory)
        let refused = CapturedRun(["test", "--update"], in: directory, environment: ["CI": "true"])
        #expect(refused.exitCode == .usage)
        #expect(refused.stderr.contains("--update is refused when CI is set"))
        #expect(try Self.scenarioTexts(directory) == texts)
    }

    /// Lines counted as the parser counts them: a comment holding a lone CR and a line
    /// separator (U+2028) before the expectation does not move the fix onto another line.
    @Test func aFixLandsOnItsLineWhateverEndsTheLinesBeforeIt() throws {
        let directory = try Self.copy(changing: "rules/notifications.yaml", "    at: \"20:30\"", "    at: \"20:00\"")
        let path = directory + "/scenarios/collapsed_day.yaml"
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        lines.insert("# 한 줄 메모\r# 다음 메모\u{2028}# 또 다른 메모", at: 3)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let update = CapturedRun(["test", "--update", "scenarios/collapsed_day.yaml"], in: directory)
        #expect(
            update.stdout.contains("scenarios/collapsed_day.yaml:37\n-   - { at: \"20:30\", delivered: evening_underachievement }\n"),
            "\(update.stdout)")
        #expect(CapturedRun(["test", "scenarios/collapsed_day.yaml"], in: directory).stdout.hasSuffix("12 passed, 0 failed\n"))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("# 한 줄 메모\r# 다음 메모\u{2028}# 또 다른 메모\n"))
    }

    /// The case of the issue in a file written to be awkward: a block scalar (`at: >-`), an
    /// expectation anchored and used again through an alias, a byte-order mark, mode 0600,
    /// reached through an in-tree link and with a second hard link. The update edits each
    /// scalar once, in place: the file keeps its bytes otherwise, its mode, its inode (so the
    /// hard link sees the change) and the link stays a link.
    @Test func anUpdateEditsEachScalarOnceAndKeepsTheFile() throws {
        let directory = try Self.copy(changing: "rules/notifications.yaml", "    at: \"20:30\"", "    at: \"20:00\"")
        let real = directory + "/scenarios/awkward.yaml"
        let text = """
            name: awkward
            date: 2026-07-06
            timezone: Asia/Seoul
            routines: [water, study]
            events:
              - { at: "08:00", app: open }
            expect:
              - at: >-
                  20:30
                delivered: evening_underachievement   # the evening notice
              - &evening { at: "20:30", delivered: evening_underachievement }
              - *evening
              - { notifications_delivered: 3 }

            """
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        #expect(FileManager.default.createFile(atPath: real, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
        #expect(link(real, directory + "/awkward-hardlink.yaml") == 0)
        try FileManager.default.createSymbolicLink(atPath: directory + "/scenarios/via-link.yaml", withDestinationPath: "awkward.yaml")
        let before = CapturedRun(["test", "scenarios/via-link.yaml"], in: directory)
        #expect(before.stdout.hasSuffix("1 passed, 3 failed\n"), "\(before.stdout)")
        let update = CapturedRun(["test", "--update", "scenarios/via-link.yaml"], in: directory)
        #expect(update.stdout.hasSuffix("4 passed, 0 failed\n"), "\(update.stdout)")
        let after = try #require(FileManager.default.contents(atPath: real))
        let expected: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.replacingOccurrences(of: "20:30", with: "20:00").utf8)
        #expect(Array(after) == expected, "\(String(decoding: after, as: UTF8.self))")
        let attributes = try FileManager.default.attributesOfItem(atPath: real)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(FileManager.default.contents(atPath: directory + "/awkward-hardlink.yaml") == after)
        let kind = try FileManager.default.attributesOfItem(atPath: directory + "/scenarios/via-link.yaml")[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
        #expect(CapturedRun(["test", "scenarios/awkward.yaml"], in: directory).exitCode == .success)
    }
}
