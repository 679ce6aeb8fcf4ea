import Foundation
import Ruleset
import RulesetFiles
import RulesSimulator
import RulesYAML
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
