import CLITestSupport
import Foundation
import RulesFit
import TestSupport
import Testing

/// The loop a designer runs: synthetic telemetry out, a population fitted to it, the check of
/// the fitted users against the real ones — and every bad telemetry refused with exit 2 and
/// nothing written.
@Suite struct PopulationFitCommandTests {
    static let root = Fixtures.repositoryRoot()

    /// Telemetry of 400 office workers over 10 days, 30 % of the deliveries withheld (fewer
    /// users and days leave the rarely-opening group too small to be found). Their users do not
    /// differ beyond their days (`between_users` taken out): with the shipped spread the groups
    /// overlap and the silhouette finds two of the three, which `--check` then fails on
    /// `routes.none.share` — grouping users who differ is the fit's open problem (docs/GUIDE.md).
    static let telemetry: String = {
        let directory = Fixtures.temporaryDirectory() + "/telemetry"
        let shipped = (try? String(contentsOfFile: root + "/populations/office_workers.yaml", encoding: .utf8)) ?? ""
        let alike = shipped.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("between_users:") }
        precondition(alike.count + 3 == shipped.split(separator: "\n", omittingEmptySubsequences: false).count, "three groups' between_users")
        let population = Fixtures.temporaryDirectory() + "/office_workers.yaml"
        try? alike.joined(separator: "\n").write(toFile: population, atomically: true, encoding: .utf8)
        let run = CapturedRun(
            ["population", population, "--users", "400", "--days", "10", "--randomize", "0.3", "--telemetry-out", directory], in: root)
        precondition(run.exitCode == .success, run.stderr)
        return directory
    }()

    static func lines() throws -> [String] {
        try String(contentsOfFile: telemetry + "/telemetry-000001.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func exportFitAndCheckTheLoop() throws {
        // Inside a copy of the ruleset's populations/, where `rules check` reads it against the ruleset.
        let out = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"]) + "/populations/fitted.yaml"
        let fit = CapturedRun(["population", "fit", Self.telemetry, "--out", out], in: Self.root)
        #expect(fit.exitCode == .success, "\(fit.stderr)")
        #expect(fit.stdout.contains("3 groups from 400 users × 10 days"), "\(fit.stdout)")
        let check = CapturedRun(["check", out], in: Self.root)
        #expect(check.exitCode == .success, "\(check.stdout)")
        #expect(check.stdout.contains("1 file checked, no problems"), "\(check.stdout)")
        // (A value past the file's limits is what `rules check` would name there.)
        let broken = (out as NSString).deletingLastPathComponent + "/broken.yaml"
        try (try String(contentsOfFile: out, encoding: .utf8)).replacingOccurrences(of: "weight: 0.", with: "weight: -0.").write(
            toFile: broken, atomically: true, encoding: .utf8)
        #expect(CapturedRun(["check", broken], in: Self.root).exitCode == .failure)
        let passes = CapturedRun(["population", "fit", "--check", out, Self.telemetry], in: Self.root)
        #expect(passes.exitCode == .success, "\(passes.stdout)\(passes.stderr)")
        #expect(passes.stdout.contains("every metric within its interval"))
        // A population whose evening opens come three hours early is caught, by name.
        let fitted = try String(contentsOfFile: out, encoding: .utf8)
        var shifted = fitted
        for hour in 19...23 { shifted = shifted.replacingOccurrences(of: "at: \"\(hour):", with: "at: \"\(String(format: "%02d", hour - 4)):") }
        #expect(shifted != fitted)
        let wrong = Fixtures.temporaryDirectory() + "/wrong.yaml"
        try shifted.write(toFile: wrong, atomically: true, encoding: .utf8)
        let fails = CapturedRun(["population", "fit", "--check", wrong, Self.telemetry], in: Self.root)
        #expect(fails.exitCode == .failure, "\(fails.stdout)")
        #expect(fails.stdout.contains("FAIL opens_a_day.20-24"), "\(fails.stdout)")
    }

    /// The check covers behaviour: on the telemetry of a world whose users all set a 10:00
    /// supplement reminder and act on 30 % of them, that world lived with another seed passes;
    /// the same world with acts doubled, opt-outs tripled or no reminder switched on fails,
    /// naming what differs. Every run says what it could not compare.
    @Test func theCheckFailsWorldsKnownToBeWrong() throws {
        let directory = Fixtures.temporaryDirectory()
        try PlantedPopulations.reminderWorld(seed: 3).write(toFile: directory + "/truth.yaml", atomically: true, encoding: .utf8)
        let telemetry = directory + "/telemetry"
        let lived = CapturedRun(["population", directory + "/truth.yaml", "--randomize", "0.5", "--telemetry-out", telemetry], in: Self.root)
        #expect(lived.exitCode == .success, "\(lived.stderr)")
        let other = PlantedPopulations.reminderWorld(seed: 4)
        let worlds: [(String, String, String?)] = [
            ("another seed", other, nil),
            ("acts doubled", PlantedPopulations.reminderWorld(seed: 4, act: 0.6), "trial.routine_reminder.delivered_done"),
            ("opt-outs tripled", PlantedPopulations.reminderWorld(seed: 4, optOut: 0.09), "switched_off.routine_reminder.users"),
            ("no reminders", PlantedPopulations.reminderWorld(seed: 4, reminders: false), "notices_a_day.routine_reminder"),
        ]
        for (name, text, metric) in worlds {
            #expect(text != other || metric == nil, "\(name): the world was not changed")
            let file = directory + "/world.yaml"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let check = CapturedRun(["population", "fit", "--check", file, telemetry], in: Self.root)
            #expect(check.stdout.contains("not compared (telemetry does not carry them)"), "\(name): \(check.stdout)")
            if let metric {
                #expect(check.exitCode == .failure, "\(name) passed: \(check.stdout)")
                #expect(check.stdout.contains("FAIL \(metric):"), "\(name): \(check.stdout)")
            } else {
                #expect(check.exitCode == .success, "\(name): \(check.stdout)")
            }
        }
    }

    @Test func theFittedFileRunsAsAPopulation() throws {
        let out = Fixtures.temporaryDirectory() + "/fitted.yaml"
        #expect(CapturedRun(["population", "fit", Self.telemetry, "--groups", "2", "--out", out], in: Self.root).exitCode == .success)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.components(separatedBy: "  - name: \"group").count - 1 == 2)
        #expect(text.contains("acts:") && text.contains("# the trial: what a delivery got done"))
        let lived = CapturedRun(["population", out, "--users", "20", "--days", "2"], in: Self.root)
        #expect(lived.exitCode == .success, "\(lived.stdout)\(lived.stderr)")
    }

    static func badCases() throws -> [(String, [String], String)] {
        let lines = try Self.lines()
        let first = lines[0]
        let key = try #require(first.components(separatedBy: #""ruleset":""#).dropFirst().first?.prefix(16))
        let otherRuleset = first.replacingOccurrences(of: #""ruleset":"\#(key)""#, with: #""ruleset":"0000000000000000""#)
        let user = try #require(first.components(separatedBy: #""user":""#).dropFirst().first?.prefix(32))
        let log = try #require(lines.first { $0.contains(#""kind":"log""#) && $0.contains(#""value":"#) })
        let negative = log.replacingOccurrences(of: #""value":"#, with: #""value":-"#)
        let run = try #require(lines.first { $0.contains(#""cause":"open""#) })
        let freeText = run.replacingOccurrences(of: #""cause":"open""#, with: #""cause":"잘 잤다""#)
        let text = first.replacingOccurrences(of: #""v":1,"#, with: #""v":1,"name":"minji","#)
        let early = first.replacingOccurrences(of: #""minute":"#, with: #""minute":1"#)
        return [
            ("malformed", [first, "{\"v\":1,", first], "bad.jsonl:2: "),
            ("two rulesets", lines + [String(otherRuleset.prefix(otherRuleset.count))], "say how to treat them with --mixed"),
            ("free text", [freeText] + lines, "bad.jsonl:1: a string that is not an identifier (telemetry never carries texts)"),
            ("a name", [text] + lines, "'name' is not a telemetry field (telemetry never carries texts)"),
            ("out of order", [early, first], "bad.jsonl:2: user "),
            ("few users", Array(lines.prefix(40)), "a fit needs at least 20"),
            (
                "an empty user", [first.replacingOccurrences(of: String(user), with: "")] + lines,
                "bad.jsonl:1: 'user' is not a pseudonym (32 hex digits)"
            ),
            ("a ruleset that is no key", [first.replacingOccurrences(of: String(key), with: "office")] + lines, "'ruleset' is not a ruleset's key"),
            ("a negative amount", [negative] + lines, "is negative: a logged amount never is"),
            (
                "a line number that is none", [first.replacingOccurrences(of: #""seq":0,"#, with: #""seq":1.5,"#)] + lines,
                "'seq' 1.5 is not a line's number"
            ),
            ("a truncated line", lines + [String(first.prefix(12))], "the line ends before its object does (a truncated line?)"),
        ]
    }

    @Test func badTelemetryIsRefusedAndNothingIsWritten() throws {
        for (name, lines, message) in try Self.badCases() {
            let directory = Fixtures.temporaryDirectory()
            try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/bad.jsonl", atomically: true, encoding: .utf8)
            let out = directory + "/fitted.yaml"
            let run = CapturedRun(["population", "fit", directory + "/bad.jsonl", "--out", out], in: Self.root)
            #expect(run.exitCode == .usage, "\(name)")
            #expect(run.stderr.contains(message), "\(name): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(name)")
        }
    }

    @Test func telemetryIsNeverWrittenThroughALink() throws {
        let link = Fixtures.temporaryDirectory() + "/telemetry"
        let target = Fixtures.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let run = CapturedRun(
            ["population", "populations/office_workers.yaml", "--users", "3", "--days", "1", "--telemetry-out", link], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("it is a link"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    /// Only regular files are read as telemetry: a FIFO among a directory's files, `/dev/zero`
    /// and a FIFO named directly are refused at once (each once hung `fit` and `fit --check`
    /// forever), with exit 2 and nothing written.
    @Test func aPipeOrDeviceAmongTheTelemetryIsRefusedAtOnce() throws {
        let directory = Fixtures.temporaryDirectory()
        try (try Self.lines().prefix(50).joined(separator: "\n") + "\n").write(toFile: directory + "/a.jsonl", atomically: true, encoding: .utf8)
        let mkfifo = Process()
        mkfifo.executableURL = URL(fileURLWithPath: "/usr/bin/mkfifo")
        mkfifo.arguments = [directory + "/b.jsonl"]
        try mkfifo.run()
        mkfifo.waitUntilExit()
        let out = Fixtures.temporaryDirectory() + "/fitted.yaml"
        for telemetry in [directory, directory + "/b.jsonl", "/dev/zero"] {
            for arguments in [
                ["population", "fit", telemetry, "--out", out], ["population", "fit", "--check", "populations/office_workers.yaml", telemetry],
            ] {
                let run = CapturedRun(arguments, in: Self.root)
                #expect(run.exitCode == .usage, "\(telemetry): \(run.stderr)")
                #expect(run.stderr.contains("not a regular file"), "\(telemetry): \(run.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func unknownKindsAreCountedNotFatalAndMixedRulesetsCanBeTakenByMajority() throws {
        let directory = Fixtures.temporaryDirectory()
        var lines = try Self.lines()
        let run = try #require(lines.firstIndex { $0.contains(#""kind":"run""#) })
        lines.insert(lines[run].replacingOccurrences(of: #""kind":"run""#, with: #""kind":"future_kind""#), at: run + 1)
        let key = try #require(lines[5].components(separatedBy: #""ruleset":""#).dropFirst().first?.prefix(16))
        let other = lines[5].replacingOccurrences(of: #""ruleset":"\#(key)""#, with: #""ruleset":"f\#(key.dropFirst())""#)
        lines.append(String(other))
        try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/t.jsonl", atomically: true, encoding: .utf8)
        let refused = CapturedRun(["population", "fit", directory + "/t.jsonl", "--out", directory + "/a.yaml"], in: Self.root)
        #expect(refused.exitCode == .usage)
        let majority = CapturedRun(
            ["population", "fit", directory + "/t.jsonl", "--mixed", "majority", "--out", directory + "/b.yaml"], in: Self.root)
        #expect(majority.exitCode == .success, "\(majority.stderr)")
        #expect(majority.stderr.contains("unknown kinds counted and skipped: future_kind 1"), "\(majority.stderr)")
    }

    /// Telemetry of another ruleset (its routines or types renamed) is counted and skipped, not
    /// fitted as this one's; a file given twice is refused naming both; what a directory holds
    /// besides .jsonl files is named.
    @Test func renamedTwiceGivenAndSkippedTelemetryIsSaid() throws {
        let directory = Fixtures.temporaryDirectory()
        let renamed = try Self.lines().map { $0.replacingOccurrences(of: #""routine":"water""#, with: #""routine":"waterx""#) }
        try (renamed.joined(separator: "\n") + "\n").write(toFile: directory + "/a.jsonl", atomically: true, encoding: .utf8)
        try "{}".write(toFile: directory + "/old.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/shard-2", withIntermediateDirectories: true)
        let out = Fixtures.temporaryDirectory() + "/fitted.yaml"
        let fit = CapturedRun(["population", "fit", directory, "--out", out], in: Self.root)
        #expect(fit.exitCode == .success, "\(fit.stderr)")
        #expect(fit.stderr.contains("counted and skipped (telemetry of another ruleset?): routine waterx "), "\(fit.stderr)")
        #expect(fit.stderr.contains("2 entries not read (only .jsonl files are telemetry; name a subdirectory to read it): old.json, shard-2"))
        let twice = CapturedRun(["population", "fit", directory, directory + "/a.jsonl", "--out", out + "2"], in: Self.root)
        #expect(twice.exitCode == .usage)
        #expect(twice.stderr.contains("a.jsonl: given twice (also as "), "\(twice.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "2"))
    }

    @Test func telemetryOutWithUserOrOverItselfIsRefusedBeforeAnythingIsWritten() throws {
        let directory = Fixtures.temporaryDirectory() + "/t"
        let base = ["population", "populations/office_workers.yaml", "--users", "3", "--days", "2", "--telemetry-out", directory]
        let user = CapturedRun(base + ["--user", "2"], in: Self.root)
        #expect(user.exitCode == .usage && user.stderr.contains("--user replays one user's days and writes no telemetry"))
        let same = CapturedRun(base + ["--out", directory], in: Self.root)
        #expect(same.exitCode == .usage && same.stderr.contains("is the --telemetry-out directory itself"), "\(same.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory))
    }
}
