import CLITestSupport
import Foundation
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// The simulator's days (`Tests/RulesSimulatorTests/Fixtures/days`) through the CLI.
@Suite struct StreamedTimelineTests {
    static let root = Fixtures.repositoryRoot()
    static let folder = root + "/Tests/RulesSimulatorTests/Fixtures/days"
    static let files = RulesetDirectory.yamlFiles(under: folder)
    static let ruleset = Ruleset.load(directory: root).ruleset ?? Ruleset()

    static func scenario(_ name: String) throws -> Scenario {
        let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
        let node = try #require(YAMLReader.parse(text, file: name).documents.first)
        return try #require(ScenarioLoader.load(node, file: name, source: nil, ruleset: ruleset).scenario)
    }

    /// `rules simulate` streams text and JSON lines as the run goes and draws the HTML page day
    /// by day: the same bytes as the whole run written at once, for every case here (trips, DST
    /// gaps, settings by day).
    @Test(arguments: files)
    func theStreamedTimelineIsTheWholeRunsTimeline(_ name: String) throws {
        let scenario = try Self.scenario(name)
        let result = Simulation.run(scenario, ruleset: Self.ruleset)
        for (format, whole) in [
            ("json", Trace.jsonLines(result, ruleset: Self.ruleset)), ("text", Trace.text(result, ruleset: Self.ruleset)),
            ("html", HTMLReport.render(result, ruleset: Self.ruleset)),
        ] {
            let run = CapturedRun(["simulate", name, "--format", format, "--ruleset", Self.root], in: Self.folder)
            #expect(run.exitCode == .success, "\(name): \(run.stderr)")
            #expect(run.stdout == whole, "\(name) \(format)")
        }
    }

}
