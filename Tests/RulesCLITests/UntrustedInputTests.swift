import CLITestSupport
import Foundation
import RulesCLI
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files a pull request can change are hostile: a link out of the tree is named, never read
/// or printed; an output never writes through a link, over an input of the run or into a
/// device; `-` is standard output.
@Suite struct UntrustedInputTests {
    static let root = Fixtures.repositoryRoot()

    /// The shipped ruleset and one scenario in a fresh directory, and a "secret" outside it.
    func workspace() throws -> (directory: String, secret: String) {
        let directory = try Fixtures.copyOfShipped()
        try FileManager.default.createDirectory(atPath: directory + "/scenarios", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.root + "/scenarios/good_day.yaml", toPath: directory + "/scenarios/good_day.yaml")
        let secret = Fixtures.temporaryDirectory() + "/secret.yaml"
        try "TOKEN_4f9a: hunter2\nPASSWORD_LINE: do-not-print\n".write(toFile: secret, atomically: true, encoding: .utf8)
        return (directory, secret)
    }

    func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    @Test(arguments: ["text", "json", "github", "sarif"])
    func aLinkOutOfTheTreeIsNamedNeverRead(format: String) throws {
        let (directory, secret) = try workspace()
        try link(directory + "/rules/leak.yaml", to: secret)
        try link(directory + "/rules/root", to: "/")
        try link(directory + "/templates/proc", to: "/proc/self")
        try link(directory + "/scenarios/leak.yaml", to: secret)
        let run = CapturedRun(["check", ".", "--format", format], in: directory)
        #expect(run.exitCode == .failure)
        for shown in [run.stdout, run.stderr] {
            #expect(!shown.contains("TOKEN_4f9a") && !shown.contains("hunter2") && !shown.contains("do-not-print"))
            #expect(!shown.contains(secret))
        }
        for name in ["rules/leak.yaml", "rules/root", "templates/proc", "scenarios/leak.yaml"] {
            #expect(run.stdout.contains(name), "\(name) is not named")
        }
        #expect(run.stdout.contains("io.outside_root"))
    }

    @Test func aScenarioNamedThroughALinkOutOfTheTreeIsNotRead() throws {
        let (directory, secret) = try workspace()
        try link(directory + "/scenarios/leak.yaml", to: secret)
        for arguments in [["simulate", "scenarios/leak.yaml"], ["test", "scenarios/leak.yaml"], ["check", "scenarios/leak.yaml"], ["test"]] {
            let run = CapturedRun(arguments, in: directory)
            #expect(run.exitCode != .success, "\(arguments)")
            #expect(run.stdout.contains("io.outside_root"), "\(arguments): \(run.stdout)")
            #expect(!(run.stdout + run.stderr).contains("hunter2"), "\(arguments)")
        }
        // A link inside the tree is followed as before.
        try link(directory + "/scenarios/again.yaml", to: "good_day.yaml")
        #expect(CapturedRun(["test", "scenarios/again.yaml"], in: directory).exitCode == .success)
    }

    /// A message quotes at most the first line of what it found: a file read by mistake is
    /// never printed whole (a plain scalar folds all its lines into one).
    @Test func aMessageQuotesOneLineOfAValue() throws {
        let (directory, _) = try workspace()
        let junk = (1...40).map { "line\($0) of something private" }.joined(separator: "\n")
        try junk.write(toFile: directory + "/scenarios/junk.yaml", atomically: true, encoding: .utf8)
        let run = CapturedRun(["check", "scenarios/junk.yaml"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("ruleset.wrong_type"))
        #expect(!run.stdout.contains("line3 of"), "\(run.stdout)")
    }

    @Test func anOutputReplacesALinkNeverItsTarget() throws {
        let (directory, secret) = try workspace()
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
        let before = try String(contentsOfFile: secret, encoding: .utf8)
        try link(directory + "/report.html", to: secret)
        let run = CapturedRun(["simulate", "scenarios/good_day.yaml", "--format", "html", "--out", "report.html"], in: directory)
        #expect(run.exitCode == .success, "\(run.stderr)")
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == before)
        let mode = try FileManager.default.attributesOfItem(atPath: secret)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let kind = try FileManager.default.attributesOfItem(atPath: directory + "/report.html")[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
        // A dangling link does not create its target.
        let nowhere = Fixtures.temporaryDirectory() + "/created-by-a-link.json"
        try link(directory + "/bundle.json", to: nowhere)
        #expect(CapturedRun(["bundle", ".", "--out", "bundle.json"], in: directory).exitCode == .success)
        #expect(!FileManager.default.fileExists(atPath: nowhere))
    }

    @Test func anOutputNeverReplacesAnInputOfTheRun() throws {
        let (directory, _) = try workspace()
        let route = try String(contentsOfFile: directory + "/rules/route.yaml", encoding: .utf8)
        let scenario = try String(contentsOfFile: directory + "/scenarios/good_day.yaml", encoding: .utf8)
        let cases: [[String]] = [
            ["bundle", ".", "--out", "rules/route.yaml"], ["simulate", "scenarios/good_day.yaml", "--out", "scenarios/good_day.yaml"],
            ["simulate", "scenarios/good_day.yaml", "--out", "rules/route.yaml"], ["reference", "--out", "rules/route.yaml"],
            ["simulate", "scenarios/good_day.yaml", "--out", "/dev/null"], ["simulate", "scenarios/good_day.yaml", "--out", "rules"],
        ]
        for arguments in cases {
            let run = CapturedRun(arguments, in: directory)
            #expect(run.exitCode == .usage, "\(arguments)")
            #expect(run.stderr.contains("Error: cannot write"), "\(arguments): \(run.stderr)")
        }
        #expect(try String(contentsOfFile: directory + "/rules/route.yaml", encoding: .utf8) == route)
        #expect(try String(contentsOfFile: directory + "/scenarios/good_day.yaml", encoding: .utf8) == scenario)
    }

    @Test func dashIsStandardOutputEverywhere() throws {
        let (directory, _) = try workspace()
        for arguments in [
            ["bundle", ".", "--out", "-"], ["simulate", "scenarios/good_day.yaml", "--format", "json", "--out", "-"],
            ["reference", "--out", "-"], ["simulate", "scenarios/good_day.yaml", "--state-out", "-", "--format", "json"],
        ] {
            let run = CapturedRun(arguments, in: directory)
            #expect(run.exitCode == .success, "\(arguments): \(run.stderr)")
            #expect(!run.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: directory + "/-"), "\(arguments) wrote a file named '-'")
        }
    }

    /// A line feed in a file name or a scenario name never starts a line of its own: in a CI
    /// log, `::error file=…::` at the start of a line is an annotation.
    @Test func aLineFeedInANameCannotForgeAnAnnotation() throws {
        let (directory, _) = try workspace()
        let forged = directory + "/scenarios/a\n::error file=x::FORGED.yaml"
        try "name: x\ndate: 2026-07-01\ntimezone: Asia/Seoul\nevents: []\n".write(toFile: forged, atomically: true, encoding: .utf8)
        try "name: \"n\\n::error file=y::NAMED\"\ndate: 2026-07-01\ntimezone: Asia/Seoul\nevents: []\nexpect: [{ day: success }]\n"
            .write(toFile: directory + "/scenarios/n.yaml", atomically: true, encoding: .utf8)
        for arguments in [["check", "."], ["test"], ["simulate", "scenarios/n.yaml"]] {
            let run = CapturedRun(arguments, in: directory)
            let lines = (run.stdout + run.stderr).split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("::") }, "\(arguments): \(run.stdout)")
        }
        let check = CapturedRun(["check", "."], in: directory)
        #expect(check.stdout.contains("io.file_name"))
    }

    /// Names from a population file (the population, a group) and from a bundle (a
    /// document's file) never start a line of their own either, in any command's text.
    @Test func aLineFeedInAPopulationOrBundleNameCannotForgeAnAnnotation() throws {
        let (directory, _) = try workspace()
        try FileManager.default.createDirectory(atPath: directory + "/populations", withIntermediateDirectories: true)
        let office = try String(contentsOfFile: Self.root + "/populations/office_workers.yaml", encoding: .utf8)
        let forged = office.replacingOccurrences(of: "name: 직장인\n", with: "name: \"직장인\\n::error file=p::POPULATION\"\n")
            .replacingOccurrences(of: "  - name: 꾸준한 직장인\n", with: "  - name: \"꾸준한\\n::error file=g::GROUP\"\n")
        #expect(forged != office)
        try forged.write(toFile: directory + "/populations/forged.yaml", atomically: true, encoding: .utf8)
        let population = CapturedRun(["population", "populations/forged.yaml", "--users", "4", "--days", "1", "--format", "text"], in: directory)
        #expect(population.exitCode == .success, "\(population.stderr)")
        #expect(population.stdout.contains("POPULATION") && population.stdout.contains("GROUP"))
        // An unsigned bundle whose hash holds, with a document named across two lines (and an
        // error in it, so that its name is printed).
        let notifications = directory + "/rules/notifications.yaml"
        let policy = try String(contentsOfFile: notifications, encoding: .utf8)
        try policy.replacingOccurrences(of: "max_per_day: 3 ", with: "max_per_day: three ").write(
            toFile: notifications, atomically: true, encoding: .utf8)
        let documents = RulesetDirectory.read(RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders)).documents
        var renamed = documents
        let index = try #require(renamed.firstIndex { $0.file.hasSuffix("notifications.yaml") && $0.file.hasPrefix("rules/") })
        renamed[index].file = "rules/x.yaml\n::error file=b::BUNDLE"
        let text = RulesetBundle.make(renamed)
        try text.write(toFile: directory + "/forged.json", atomically: true, encoding: .utf8)
        let check = CapturedRun(["check", "forged.json"], in: directory)
        #expect(check.stdout.contains("BUNDLE"), "\(check.stdout)")
        for run in [population, check] {
            let lines = (run.stdout + run.stderr).split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("::") }, "\(run.stdout)")
        }
    }

    /// What reaches a terminal or a CI log never steers it: a conceal or any other escape
    /// sequence from input is written as text (only the renderer's own colours pass), and a
    /// bidi override or a line separator in a file name is escaped in every format.
    @Test func escapeSequencesAndBidiControlsFromInputAreEscaped() throws {
        #expect(TextRenderer.terminalSafe("a\u{1B}[8mhidden\u{1B}[0m") == "a\\u{1b}[8mhidden\u{1B}[0m")
        #expect(TextRenderer.terminalSafe("\u{1B}[1;31merror:\u{1B}[0m") == "\u{1B}[1;31merror:\u{1B}[0m")
        #expect(TextRenderer.terminalSafe("x\u{202E}y\u{2028}z") == "x\\u{202e}y\\u{2028}z")
        let (directory, _) = try workspace()
        try "settings: { nothing_here: 1 }\n".write(toFile: directory + "/rules/a\u{202E}lmay.b\u{2028}x.yaml", atomically: true, encoding: .utf8)
        for format in ["text", "json", "github", "sarif"] {
            let run = CapturedRun(["check", ".", "--format", format], in: directory)
            #expect(run.exitCode == .failure, "\(format)")
            #expect(!run.stdout.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x2028 }, "\(format): \(run.stdout)")
            #expect(run.stdout.lowercased().contains("202e"), "\(format): the name is not shown escaped")
        }
    }

    /// `watch` on a tree with a link to / ends its rounds (the link is named, not walked),
    /// and `--html` at a FIFO replaces it with the report instead of blocking on it.
    @Test func watchNeverBlocksOnALinkToTheRootOrAFIFO() throws {
        let (directory, _) = try workspace()
        try link(directory + "/rules/root", to: "/")
        let linked = CapturedRun(["watch", "--rounds", "1", "--interval", "0.1"], in: directory)
        #expect(linked.exitCode == .success)
        #expect(linked.stdout.contains("io.outside_root"), "\(linked.stdout)")
        try FileManager.default.removeItem(atPath: directory + "/rules/root")
        #expect(mkfifo(directory + "/report.html", 0o644) == 0)
        let fifo = CapturedRun(
            ["watch", "scenarios/good_day.yaml", "--html", "report.html", "--rounds", "1", "--interval", "0.1"], in: directory)
        #expect(fifo.exitCode == .success, "\(fifo.stderr)")
        let kind = try FileManager.default.attributesOfItem(atPath: directory + "/report.html")[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
    }
}
