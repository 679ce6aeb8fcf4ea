import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset
import RulesetFiles

/// `rules diff OLD_DIR NEW_DIR`: what changed in behaviour, not in text.
enum DiffCommand {
    static var command: Command {
        Command(
            name: "diff",
            abstract: "Show how two rulesets behave differently on the same scenarios.",
            discussion: """
                Simulates the scenarios (default: NEW_DIR's scenarios/) against both rulesets and
                reports notifications gained, lost or moved, route and risk changes with the minutes
                they moved, day results and streaks, and rendered texts that changed: a summary line
                first, then details. Exits 0 when nothing changed, 1 when something did.
                """,
            usage: "rules diff OLD_DIR NEW_DIR [--scenarios PATH…] [--format text|json|html]",
            arguments: [("OLD_DIR", "The ruleset before the edit."), ("NEW_DIR", "The ruleset after it.")],
            options: [
                OptionSpec(name: "--scenarios", valueName: "PATH", help: "Scenario files or directories (repeatable).", repeatable: true),
                OptionSpec(name: "--format", valueName: "FORMAT", allowed: ["text", "json", "html"], help: "Output format (default: text)."),
            ],
            run: run)
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard arguments.positional.count == 2 else {
            return RulesCLI.usageError("diff takes OLD_DIR and NEW_DIR", usage: command.usage, helpName: "diff", io: io)
        }
        var rulesets: [Ruleset] = []
        for path in arguments.positional {
            var parsed = ParsedArguments()
            parsed.values["--ruleset"] = [path]
            guard let (ruleset, _) = SimulationSupport.ruleset(parsed, io) else { return .usage }
            rulesets.append(ruleset)
        }
        let scenarioPaths = arguments.values["--scenarios"] ?? [(arguments.positional[1] as NSString).appendingPathComponent("scenarios")]
        guard let files = SimulationSupport.scenarioFiles(scenarioPaths, io) else { return .usage }
        let old = SimulationSupport.scenarios(files, ruleset: rulesets[0])
        let new = SimulationSupport.scenarios(files, ruleset: rulesets[1])
        var pairs: [(old: Scenario, new: Scenario)] = []
        for (a, b) in zip(old, new) {
            guard let oldScenario = a.scenario, let newScenario = b.scenario else {
                io.err("warning: \(a.file) does not load against both rulesets; skipped\n")
                continue
            }
            pairs.append((oldScenario, newScenario))
        }
        let diff = BehaviourDiff.compare(pairs, old: rulesets[0], new: rulesets[1])
        switch arguments.value("--format") ?? "text" {
        case "json": io.out(diff.json().prettyRendered() + "\n")
        case "html":
            let rows = diff.changes.map {
                "<tr><td>\(HTMLReport.escape($0.scenario))</td><td>\(DateFormat.string($0.day))</td><td>\($0.kind)</td><td>\(HTMLReport.escape($0.message))</td></tr>"
            }
            io.out(
                "<!DOCTYPE html>\n<html lang=\"ko\"><head><meta charset=\"utf-8\"/><title>rules diff</title></head><body>\n<h1>\(HTMLReport.escape(diff.summary))</h1>\n<table>\n\(rows.joined(separator: "\n"))\n</table>\n</body></html>\n"
            )
        default: io.out(diff.text())
        }
        return diff.isEmpty ? .success : .failure
    }
}
