import CLITestSupport
import Foundation
import TestSupport
import Testing

/// `rules watch` as a designer uses it: start it, save a file, see the next round, stop it
/// with Ctrl-C and keep a report that no longer reloads.
@Suite struct WatchTests {
    static let root = Fixtures.repositoryRoot()

    @Test func aSaveStartsARoundAndCtrlCLeavesAStillReport() throws {
        let binary = try BuiltProduct.path("rules")
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        // Waits (up to 60 s) for a pattern in a file; the script fails if it never comes.
        let script = #"""
            wait_for() { for i in $(seq 600); do grep -q -- "$1" "$2" 2>/dev/null && return 0; sleep 0.1; done; echo "timed out waiting for $1" >&2; exit 9; }
            "$RULES" watch scenarios/collapsed_day.yaml --html report.html --interval 0.1 > log 2>&1 &
            pid=$!
            wait_for "round 1" log
            wait_for "report: report.html" log
            grep -q 'id="rules-watch"' report.html || { echo "no reload script while watching" >&2; exit 8; }
            sed -i 's/text: 오늘 루트가 준비됐어./text: 오늘 루트가 준비됐다./' templates/notifications.yaml
            wait_for "round 2: templates/notifications.yaml" log
            wait_for "오늘 루트가 준비됐다." report.html
            kill -INT $pid
            wait $pid
            echo "status $?" >> log
            """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["RULES": binary, "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let log = try String(contentsOfFile: directory + "/log", encoding: .utf8)
        // As many files and expectations as the shipped ruleset and scenarios hold.
        #expect(log.contains(" files checked, no problems"))
        #expect(log.contains(" passed, 0 failed"))
        #expect(log.contains("watch ended after 2 rounds"))
        #expect(log.hasSuffix("status 0\n"))
        let report = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
        #expect(report.contains("오늘 루트가 준비됐다."))
        #expect(!report.contains("rules-watch"), "the report left behind must not reload itself")
    }

    @Test func aFindingIsPrintedInTheRoundOfTheSaveThatCausedIt() throws {
        let directory = try Fixtures.copyOfShipped()
        try Fixtures.write(["templates/extra.yaml": "templates:\n  - { id: x, surface: lock_screen, text: \"{sleep.minutes}분\" }\n"], to: directory)
        let run = CapturedRun(["watch", "--rounds", "1"], in: directory)
        #expect(run.exitCode == .success)
        #expect(run.stdout.contains("── round 1 ──"))
        #expect(run.stdout.contains("[lint.sensitive_leak]"), "\(run.stdout)")
        #expect(run.stdout.contains("watch ended after 1 round"))
    }

    /// A save that breaks the rules: the terminal says the errors once (check, not test and
    /// simulate again), and the page shows them above the last good day with an "errors"
    /// badge instead of "live"; the next good save brings the day back.
    @Test func brokenRulesAreShownOnThePageAndSaidOnce() throws {
        let binary = try BuiltProduct.path("rules")
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let script = #"""
            wait_for() { for i in $(seq 600); do grep -q -- "$1" "$2" 2>/dev/null && return 0; sleep 0.1; done; echo "timed out waiting for $1" >&2; exit 9; }
            "$RULES" watch scenarios/collapsed_day.yaml --html report.html --interval 0.1 > log 2>&1 &
            pid=$!
            wait_for "report: report.html" log
            sed -i 's/completion_rate < 0.6/completion_rat < 0.6/' rules/route.yaml
            wait_for "round 2: rules/route.yaml" log
            wait_for "rules watch: errors" report.html
            cp report.html broken.html
            sed -i 's/completion_rat < 0.6/completion_rate < 0.6/' rules/route.yaml
            wait_for "round 3: rules/route.yaml" log
            wait_for "rules watch: live" report.html
            kill -INT $pid
            wait $pid
            """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["RULES": binary, "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let log = try String(contentsOfFile: directory + "/log", encoding: .utf8)
        let brokenRound = log.components(separatedBy: "── round 2").last?.components(separatedBy: "── round 3").first ?? ""
        let said = brokenRound.components(separatedBy: "unknown fact 'completion_rat'").count - 1
        #expect(said == 2, "each error once (two lines misspell it), not once per command: \(brokenRound)")
        #expect(brokenRound.contains("rules test, rules simulate: skipped until the rules check"))
        let broken = try String(contentsOfFile: directory + "/broken.html", encoding: .utf8)
        #expect(broken.contains("The rules do not check: below is the last day that simulated"))
        #expect(
            broken.contains("unknown fact &#39;completion_rat&#39;") || broken.contains("unknown fact 'completion_rat'"), "\(broken.prefix(2000))")
        #expect(!broken.contains("rules watch: live"))
        let fixed = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
        #expect(!fixed.contains("The rules do not check"))
    }
}
