import Foundation
import RulesDiagnostics
import RulesDocument
import RulesSimulator
import Ruleset
import RulesetFiles

/// Code lenses from the saved files: above a scenario, its expectations ("▶ run — 5 passed",
/// which runs it again); above a notification, the scenario days it was delivered on; above a
/// condition, for each of its thresholds, the scenario days whose app runs saw its fact on each
/// side. Worked out off the message queue after `initialize` and each save.
enum CodeLenses {
    /// The workspace's saved ruleset and scenarios lived (nil when the ruleset does not load).
    static func compute(root: String) -> (ruleset: Ruleset, lenses: ScenarioLenses)? {
        guard let ruleset = Ruleset.load(directory: root).ruleset else { return nil }
        return (ruleset, ScenarioLenses.compute(scenarios(root: root, ruleset: ruleset), ruleset: ruleset))
    }

    /// The scenarios under `root/scenarios` (or the one file `only`), by file name relative to root.
    static func scenarios(root: String, ruleset: Ruleset, only: String? = nil) -> [(file: String, scenario: Scenario)] {
        var problems: [Diagnostic] = []
        var found: [(String, Scenario)] = []
        for file in RulesetDirectory.files(in: root, folders: ["scenarios"], prefix: "", problems: &problems).sorted(by: { $0.display < $1.display })
        where only == nil || file.path == only {
            let (parsed, source) = FileReader.yaml(file.path, display: file.display)
            for node in parsed.documents where !node.isNull {
                if let scenario = ScenarioLoader.load(node, file: file.display, source: source, ruleset: ruleset).scenario {
                    found.append((file.display, scenario))
                }
            }
        }
        return found
    }

    /// The lenses of one file (`display`: its path relative to the root).
    static func lenses(for display: String, uri: String, ruleset: Ruleset, lenses: ScenarioLenses) -> [JSONValue] {
        func lens(_ line: Int, _ title: String, command: String = "rules.showLens", arguments: [JSONValue] = []) -> JSONValue {
            let position: JSONValue = .object([("line", .int(Swift.max(0, line))), ("character", .int(0))])
            return .object([
                ("range", .object([("start", position), ("end", position)])),
                ("command", .object([("title", .string(title)), ("command", .string(command)), ("arguments", .array(arguments))])),
            ])
        }
        var out: [JSONValue] = []
        if let result = lenses.scenarios[display] {
            out.append(
                lens(
                    0, "▶ run — \(result.passed) passed\(result.failed == 0 ? "" : ", \(result.failed) failed")", command: "rules.runScenario",
                    arguments: [.string(uri)]))
        }
        for rule in ruleset.notifications where rule.origin.file == display {
            let days = lenses.delivered[rule.id] ?? 0
            out.append(lens(rule.origin.location.line - 1, "delivered on \(days) of \(lenses.days) scenario days"))
        }
        for threshold in lenses.thresholds where threshold.file == display {
            out.append(
                lens(threshold.line - 1, "\(threshold.text): holds on \(threshold.holdsDays) scenario days, fails on \(threshold.failsDays)"))
        }
        return out
    }
}
