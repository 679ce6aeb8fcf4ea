import CLITestSupport
import Foundation
import RulesCLI
import RulesDiagnostics
import TestSupport
import Testing

@Suite struct CLITests {
    /// A ruleset directory with one broken file and one clean file.
    func brokenRuleset() throws -> String {
        let directory = Fixtures.temporaryDirectory()
        try Fixtures.write(
            [
                "rules/routes.yaml": "route:\n  - use: recovery\n    when: now >= 21:00: x\n",
                "routines/water.yaml": "id: water\nname: 물\nid: again\n",
                "templates/ok.yaml": "templates: []\n",
                "rules/.hidden.yaml": "{{{{",
                "notes.txt": "{{{{",
            ], to: directory)
        return directory
    }

    @Test func helpListsSubcommandsAndExitsZero() {
        for arguments in [[], ["--help"], ["-h"], ["help"]] {
            let run = CapturedRun(arguments, in: "/")
            #expect(run.exitCode == .success)
            #expect(run.stdout.contains("OVERVIEW:"))
            #expect(run.stdout.contains("USAGE: rules <subcommand>"))
            #expect(run.stdout.contains("SUBCOMMANDS:"))
            #expect(run.stdout.contains("  check "))
        }
    }

    @Test func commandHelpHasOptions() {
        for arguments in [["help", "check"], ["check", "--help"]] {
            let run = CapturedRun(arguments, in: "/")
            #expect(run.exitCode == .success)
            #expect(run.stdout.contains("USAGE: rules check"))
            #expect(run.stdout.contains("--format <FORMAT>"))
            #expect(run.stdout.contains("--strict"))
        }
    }

    @Test func versionPrintsVersion() {
        let run = CapturedRun(["--version"], in: "/")
        #expect(run.exitCode == .success)
        #expect(run.stdout == "rules \(RulesCLI.version)\n")
    }

    @Test func unknownOptionSuggestsNearestAndExitsTwo() {
        let run = CapturedRun(["check", "--formt", "json"], in: "/")
        #expect(run.exitCode == .usage)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: unknown option '--formt'; did you mean '--format'?\n"))
        #expect(run.stderr.contains("Usage: rules check"))
        #expect(run.stderr.contains("See 'rules check --help' for more information."))
    }

    @Test func unknownSubcommandSuggestsNearest() {
        let run = CapturedRun(["chek"], in: "/")
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("did you mean 'check'?"))
    }

    @Test func badFormatValueIsUsageError() {
        let run = CapturedRun(["check", "--format", "xml"], in: "/")
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("expected one of text, json, sarif, github"))
    }

    @Test func missingPathIsIOErrorExitTwo() {
        let run = CapturedRun(["check", "no/such/dir"], in: Fixtures.temporaryDirectory())
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("no such file or directory: no/such/dir"))
    }

    @Test func brokenFileGivesPositionCaretAndExitOne() throws {
        let run = CapturedRun(["check", "."], in: try brokenRuleset())
        #expect(run.exitCode == .failure)
        #expect(Golden.compare(run.stdout, toFile: Fixtures.directory() + "/check/broken.txt") == nil)
    }

    @Test(arguments: ["json", "sarif", "github"])
    func eachFormatMatchesGolden(format: String) throws {
        let run = CapturedRun(["check", "--format", format], in: try brokenRuleset())
        #expect(run.exitCode == .failure)
        #expect(Golden.compare(run.stdout, toFile: Fixtures.directory() + "/check/broken.\(format)") == nil)
    }

    @Test func cleanDirectoryExitsZero() throws {
        let directory = Fixtures.temporaryDirectory()
        try Fixtures.write(["rules/policy.yaml": "policy:\n  max_per_day: 3\n"], to: directory)
        let run = CapturedRun(["check"], in: directory)
        #expect(run.exitCode == .success)
        #expect(run.stdout == "1 file checked, no problems\n")
    }

    @Test func singleFileArgumentIsChecked() throws {
        let run = CapturedRun(["check", "routines/water.yaml"], in: try brokenRuleset())
        #expect(run.exitCode == .failure)
        #expect(run.stdout.hasPrefix("routines/water.yaml:3:1: error: duplicate key 'id'"))
    }

    @Test func colourOnlyOnTerminalAndNeverWithNoColor() throws {
        let directory = try brokenRuleset()
        let terminal = CapturedRun(["check"], in: directory, terminal: true)
        #expect(terminal.stdout.contains("\u{1B}["))
        let noColor = CapturedRun(["check"], in: directory, terminal: true, environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
        let piped = CapturedRun(["check"], in: directory, terminal: false)
        #expect(!piped.stdout.contains("\u{1B}["))
        #expect(noColor.stdout == piped.stdout)
    }

    /// A scenario or population named with terminal control sequences (retitle, clear, a
    /// carriage return that overwrites the line) prints them escaped in every text report;
    /// the colour of diagnostics still passes.
    @Test func controlCharactersInNamesNeverReachTheTerminal() throws {
        let directory = Fixtures.temporaryDirectory()
        let hostile = #"x\u001b]0;pwned\u0007\u001b[2J\rover"#
        let scenario = directory + "/s.yaml"
        try "name: \"\(hostile)\"\ndate: 2026-07-20\ntimezone: Asia/Seoul\nevents: [{ at: \"08:00\", app: open }]\n".write(
            toFile: scenario, atomically: true, encoding: .utf8)
        let original = try String(contentsOfFile: Fixtures.repositoryRoot() + "/populations/office_workers.yaml", encoding: .utf8)
        let population = directory + "/p.yaml"
        try original.replacingOccurrences(of: "name: 직장인\n", with: "name: \"\(hostile)\"\n").write(
            toFile: population, atomically: true, encoding: .utf8)
        let runs = [
            CapturedRun(["simulate", scenario], in: Fixtures.repositoryRoot(), terminal: true),
            CapturedRun(["test", scenario], in: Fixtures.repositoryRoot(), terminal: true),
            CapturedRun(["population", population, "--users", "3", "--days", "1"], in: Fixtures.repositoryRoot(), terminal: true),
        ]
        for run in runs {
            let all = run.stdout + run.stderr
            #expect(all.contains("x\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{d}over"), "\(all)")
            #expect(!all.unicodeScalars.contains { $0.value == 0x07 || $0.value == 0x0D })
            #expect(!all.contains("\u{1B}]") && !all.contains("\u{1B}[2J"))
        }
        #expect(TextRenderer.terminalSafe("\u{1B}[1;31merror\u{1B}[0m\tok\n") == "\u{1B}[1;31merror\u{1B}[0m\tok\n")
        #expect(TextRenderer.terminalSafe("a\u{9B}b\u{7F}") == "a\\u{9b}b\\u{7f}")
    }

    @Test func emptyDirectoryIsUsageError() {
        let run = CapturedRun(["check"], in: Fixtures.temporaryDirectory())
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("no .yaml or .yml files"))
    }
}
