import Foundation
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// YAML → bundle → load gives the same simulation as loading the YAML directly:
/// byte-identical JSON traces for every shipped scenario.
@Suite struct RoundTripTests {
    static let root = Fixtures.repositoryRoot()

    @Test func bundleAndYAMLSimulateIdentically() throws {
        let files = RulesetDirectory.files(in: Self.root, folders: RulesetDirectory.rulesetFolders)
        let bundle = RulesetBundle.make(RulesetDirectory.read(files).documents)
        let fromYAML = try #require(Ruleset.load(directory: Self.root).ruleset)
        let fromBundle = try #require(Ruleset.load(bundle: Data(bundle.utf8)).ruleset)
        var compared = 0
        for name in RulesetDirectory.yamlFiles(under: Self.root + "/scenarios") {
            let text = try String(contentsOfFile: Self.root + "/scenarios/" + name, encoding: .utf8)
            let node = try #require(YAMLReader.parse(text, file: name).documents.first)
            let a = try #require(ScenarioLoader.load(node, file: name, source: nil, ruleset: fromYAML).scenario)
            let b = try #require(ScenarioLoader.load(node, file: name, source: nil, ruleset: fromBundle).scenario)
            let traceA = Trace.jsonLines(Simulation.run(a, ruleset: fromYAML), ruleset: fromYAML)
            let traceB = Trace.jsonLines(Simulation.run(b, ruleset: fromBundle), ruleset: fromBundle)
            #expect(traceA == traceB, "\(name)")
            compared += 1
        }
        #expect(compared >= 8)
    }
}

/// The app's relaunch and separate processes: traces are the same bytes whether the engine
/// keeps running or its state is saved and restored after every event, and whichever
/// process writes them (no dictionary or set order reaches the output).
@Suite struct StateAndProcessTests {
    static let root = Fixtures.repositoryRoot()

    static var scenarioFiles: [String] { RulesetDirectory.yamlFiles(under: root + "/scenarios") }

    static let ruleset = Ruleset.load(directory: root).ruleset ?? Ruleset()

    @Test func theShippedScenariosAreThere() {
        #expect(Self.scenarioFiles.count >= 8)
    }

    /// One case per shipped scenario (each runs in parallel, and a failure names its file).
    @Test(arguments: scenarioFiles)
    func aShippedScenarioIsTheSameWithTheStateRestoredAfterEveryEvent(_ name: String) throws {
        let ruleset = Self.ruleset
        let text = try String(contentsOfFile: Self.root + "/scenarios/" + name, encoding: .utf8)
        let node = try #require(YAMLReader.parse(text, file: name).documents.first)
        let scenario = try #require(ScenarioLoader.load(node, file: name, source: nil, ruleset: ruleset).scenario)
        let plain = Simulation.run(scenario, ruleset: ruleset)
        let restored = Simulation.run(scenario, ruleset: ruleset, options: SimulationOptions(restoreEachEvent: true))
        #expect(plain.records == restored.records)
        #expect(Trace.jsonLines(plain, ruleset: ruleset) == Trace.jsonLines(restored, ruleset: ruleset))
        #expect(Trace.text(plain, ruleset: ruleset) == Trace.text(restored, ruleset: ruleset))
        #expect(restored.problems.isEmpty)
        // With every memo recomputed, and with both compared at every step: the same bytes,
        // and no step whose memos changed anything.
        let recomputed = Simulation.run(scenario, ruleset: ruleset, options: SimulationOptions(verification: .recomputed))
        #expect(Trace.jsonLines(plain, ruleset: ruleset) == Trace.jsonLines(recomputed, ruleset: ruleset))
        let compared = Simulation.run(scenario, ruleset: ruleset, options: SimulationOptions(verification: .compared))
        #expect(Trace.jsonLines(plain, ruleset: ruleset) == Trace.jsonLines(compared, ruleset: ruleset))
    }

    /// Runs the built `rules` binary (built with the tests) and returns its standard output.
    func runRules(_ arguments: [String]) throws -> Data {
        let binary = try BuiltProduct.path("rules")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Self.root)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    @Test func twoProcessesWriteTheSameJSONTraceForEveryShippedScenario() throws {
        var compared = 0
        for name in Self.scenarioFiles {
            for extra in [[], ["--restore-each-event"]] {
                let arguments = ["simulate", "scenarios/" + name, "--format", "json"] + extra
                let first = try runRules(arguments)
                let second = try runRules(arguments)
                #expect(!first.isEmpty, "\(name)")
                #expect(first == second, "\(name) \(extra)")
                compared += 1
            }
        }
        #expect(compared >= 16)
    }
}

/// The HTML report groups records by day once: the same page as before, in linear time
/// (the timing itself is the `Benchmarks scaling` case).
@Suite struct HTMLReportTests {
    @Test func aMultiDayReportHasOneSectionPerDayWithItsOwnRecords() throws {
        let root = Fixtures.repositoryRoot()
        let ruleset = try #require(Ruleset.load(directory: root).ruleset)
        var yaml = "name: days\ntimezone: Asia/Seoul\nroutines: [water]\ndays:\n"
        for day in 1...5 { yaml += "  - date: 2026-01-0\(day)\n    events: [{ at: \"08:0\(day)\", app: open }]\n" }
        let node = try #require(YAMLReader.parse(yaml, file: "days.yaml").documents.first)
        let scenario = try #require(ScenarioLoader.load(node, file: "days.yaml", source: nil, ruleset: ruleset).scenario)
        let page = HTMLReport.render(Simulation.run(scenario, ruleset: ruleset), ruleset: ruleset)
        // A week overview first, each day linked to its section.
        #expect(page.contains("<nav class=\"overview\"><h2>Overview</h2>"))
        for day in 1...5 {
            #expect(page.contains("<a href=\"#day-2026-01-0\(day)\">"))
            #expect(page.contains("<section class=\"day\" id=\"day-2026-01-0\(day)\">"))
            #expect(page.contains("2026-01-0\(day)"))
            #expect(page.components(separatedBy: "08:0\(day)").count >= 2)
        }
    }
}
