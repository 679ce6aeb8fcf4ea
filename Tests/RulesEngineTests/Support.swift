import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset
import RulesetFiles
import RulesSimulator
import RulesYAML
import TestSupport
import Testing

/// The shipped ruleset and scenario runs written inline.
enum Shipped {
    static let root = Fixtures.repositoryRoot()
    static let ruleset: Ruleset = Ruleset.load(directory: root).ruleset ?? Ruleset()

    /// Loads a scenario from YAML text against `ruleset`; records an issue on errors.
    static func scenario(_ yaml: String, ruleset: Ruleset = ruleset, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Scenario? {
        let parsed = YAMLReader.parse(yaml, file: "inline.yaml")
        guard let node = parsed.documents.first, parsed.isClean else {
            Issue.record("YAML: \(parsed.diagnostics.map(\.message))", sourceLocation: sourceLocation)
            return nil
        }
        let (scenario, diagnostics) = ScenarioLoader.load(node, file: "inline.yaml", source: nil, ruleset: ruleset)
        if scenario == nil { Issue.record("scenario: \(diagnostics.map(\.message))", sourceLocation: sourceLocation) }
        return scenario
    }

    static func run(_ yaml: String, ruleset: Ruleset = ruleset, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SimulationResult? {
        scenario(yaml, ruleset: ruleset, sourceLocation: sourceLocation).map { Simulation.run($0, ruleset: ruleset) }
    }

    /// Deliveries of a result: (type, HH:MM, interruption level).
    static func deliveries(_ result: SimulationResult) -> [(String, String, String)] {
        result.records.compactMap { record in
            guard case .notificationDelivered(let n, _) = record.kind else { return nil }
            return (n.type, TimeFormat.clock(result.scenario.clock.local(record.at).seconds), n.interruptionLevel.rawValue)
        }
    }

    static func suppressions(_ result: SimulationResult) -> [(String, String, String)] {
        result.records.compactMap { record in
            guard case .notificationSuppressed(let s) = record.kind else { return nil }
            return (s.type, TimeFormat.clock(result.scenario.clock.local(s.fireAt).seconds), s.reason.rawValue)
        }
    }
}
