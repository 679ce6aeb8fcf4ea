import CLITestSupport
import Foundation
import RulesCLI
import TestSupport
import Testing

@Suite struct SchemaCommandTests {
    @Test func writesEverySchemaAsJSON() throws {
        let directory = Fixtures.temporaryDirectory()
        let run = CapturedRun(["schema", "--out", "schemas"], in: directory)
        #expect(run.exitCode == .success)
        for name in ["routine.schema.json", "rules.schema.json", "scenario.schema.json"] {
            let data = try #require(FileManager.default.contents(atPath: directory + "/schemas/" + name))
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        }
    }

    @Test func committedSchemasAreUpToDate() throws {
        let root = Fixtures.repositoryRoot()
        let directory = Fixtures.temporaryDirectory()
        let run = CapturedRun(["schema", "--out", directory], in: root)
        try #require(run.exitCode == .success, "\(run.stderr)")
        // The same files both ways: a schema the command stopped writing is stale too, and a run
        // that wrote nothing must not pass by comparing nothing.
        let written = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let committed = try FileManager.default.contentsOfDirectory(atPath: root + "/schemas").filter { $0.hasSuffix(".json") }.sorted()
        #expect(written.count >= 5 && written == committed, "written \(written), committed \(committed)")
        for name in written {
            let fresh = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            let committed = try? String(contentsOfFile: root + "/schemas/" + name, encoding: .utf8)
            #expect(fresh == committed, "schemas/\(name) is stale: run 'swift run rules schema --out schemas'")
        }
    }

    @Test func printsOneKindWithoutOut() {
        let run = CapturedRun(["schema", "--kind", "routine"], in: "/")
        #expect(run.exitCode == .success)
        #expect(run.stdout.contains("\"$id\": \"routine.schema.json\""))
    }

    @Test func explainPrintsALintCheckWithExamples() {
        let run = CapturedRun(["check", "--explain", "lint.sensitive_leak"], in: "/")
        #expect(run.exitCode == .success)
        #expect(run.stdout.hasPrefix("lint.sensitive_leak (error): "))
        #expect(run.stdout.contains("Triggers:"))
        #expect(run.stdout.contains("Does not trigger:"))
        let unknown = CapturedRun(["check", "--explain", "lint.sensitive_leek"], in: "/")
        #expect(unknown.exitCode == .usage)
        #expect(unknown.stderr.contains("did you mean 'lint.sensitive_leak'?"))
    }
}

/// The users' reference is generated from the code and must be committed fresh.
@Suite struct ReferenceTests {
    static let root = Fixtures.repositoryRoot()

    @Test func committedReferenceIsUpToDate() throws {
        let run = CapturedRun(["reference"], in: Self.root)
        #expect(run.exitCode == .success)
        let committed = try String(contentsOfFile: Self.root + "/docs/REFERENCE.md", encoding: .utf8)
        #expect(run.stdout == committed, "docs/REFERENCE.md is stale: run 'swift run rules reference --out docs/REFERENCE.md'")
        // The product documents are not in the repository: the reference never cites them
        // ("seed 6.4"); `--seed S` of population runs is an option, not a citation.
        #expect(!committed.contains("SPEC") && committed.range(of: #"seed \d"#, options: .regularExpression) == nil)
        for section in [
            "## Facts", "## Functions", "## Template filters", "## Korean particles", "## Settings", "## Scenario events", "## Scenario expectations",
            "## Commands", "### Days of a scenario", "--state-in FILE", "--state-out FILE", "| `timezone` |", "## Diagnostics",
        ] {
            #expect(committed.contains(section), "\(section)")
        }
        // Each code is described once (io.unreadable was listed twice, with two meanings).
        let diagnostics = committed.components(separatedBy: "## Diagnostics").last ?? ""
        let codes = diagnostics.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { $0.split(separator: "|")[0] }
        #expect(codes.count > 50)
        #expect(Set(codes).count == codes.count, "\(codes.sorted())")
    }

    @Test func factsListsTheRulesetsRoutinesAndSettingsWithSensitivity() {
        let run = CapturedRun(["facts"], in: Self.root)
        #expect(run.exitCode == .success)
        #expect(run.stdout.contains("routines.water.progress  number"))
        #expect(run.stdout.contains("settings.bedtime  time?"))
        #expect(run.stdout.contains("sleep.minutes  int?  [sensitive]"))
        #expect(run.stdout.contains("routines.supplement.value  number  [sensitive]"))
        // Each routine's examples are its own: its name, its goal in its unit.
        #expect(run.stdout.contains("routines.skincare.name  string  — routine '스킨케어': the routine's name (e.g. \"스킨케어\")"))
        #expect(run.stdout.contains("routines.water.goal  number  — routine '물': the goal in force (the route's) (e.g. 1500 ml)"))
        #expect(run.stdout.contains("routines.sleep.goal  number  [sensitive]  — routine '수면': the goal in force (the route's) (e.g. 420 minutes)"))
        #expect(!run.stdout.contains("routine '운동': the routine's name (e.g. \"물\")"))
    }

    @Test func runningFromAFolderWithoutARulesetNamesTheRulesetOption() {
        let run = CapturedRun(["simulate", "x.yaml"], in: "/")
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("--ruleset DIR"))
    }
}

/// `explain --decision notification X` gives X's fate, or why it was never a candidate.
@Suite struct NotificationFateTests {
    static let root = Fixtures.repositoryRoot()

    @Test func aTypeWithoutATimeSaysWhyItWasNeverACandidate() {
        let run = CapturedRun(["explain", "scenarios/collapsed_day.yaml", "--at", "08:30", "--decision", "notification", "bedtime"], in: Self.root)
        #expect(run.exitCode == .success)
        #expect(run.stdout == "bedtime was never a candidate: its time (settings.bedtime - 30m) is unknown — settings.bedtime not set\n")
    }

    @Test func aPerRoutineTypeWithoutRemindersSaysSo() {
        let run = CapturedRun(
            ["explain", "scenarios/collapsed_day.yaml", "--at", "08:30", "--decision", "notification", "routine_reminder"], in: Self.root)
        #expect(run.exitCode == .success)
        #expect(run.stdout.hasSuffix("and none is set\n"))
    }
}
