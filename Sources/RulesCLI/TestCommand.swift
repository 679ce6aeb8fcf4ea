import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset
import RulesSimulator

/// `rules test [PATH…]`: runs scenarios' expectations; ends with `N passed, N failed`.
enum TestCommand {
    static var command: Command {
        Command(
            name: "test",
            abstract: "Run the expectations of scenarios.",
            discussion: """
                Simulates every scenario under PATH (default: scenarios/) and checks its expect:
                entries. A failure shows the expected and actual values and the explanation of the
                decision. Ends with the line 'N passed, N failed'; exits 1 on any failure.
                """,
            usage: "rules test [PATH…] [--ruleset DIR]",
            arguments: [("PATH", "Scenario files or directories (default: scenarios).")],
            options: [SimulationSupport.rulesetOption],
            run: run)
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard let (ruleset, _) = SimulationSupport.ruleset(arguments, io) else { return .usage }
        let paths = arguments.positional.isEmpty ? ["scenarios"] : arguments.positional
        guard let files = SimulationSupport.scenarioFiles(paths, io) else { return .usage }
        var passed = 0
        var failed = 0
        var out = ""
        for loaded in SimulationSupport.scenarios(files, ruleset: ruleset) {
            guard let scenario = loaded.scenario else {
                out += TextRenderer(color: false).render(loaded.diagnostics, sources: loaded.source.map { [loaded.file: $0] } ?? [:])
                failed += 1
                continue
            }
            let result = Simulation.run(scenario, ruleset: ruleset)
            var scenarioFailures = 0
            for problem in result.problems {
                out += "FAIL \(problem.origin.file):\(problem.origin.location.line):\(problem.origin.location.column) \(problem.message)\n"
                scenarioFailures += 1
            }
            for outcome in ExpectationChecker.check(result, ruleset: ruleset) {
                if outcome.passed {
                    passed += 1
                    continue
                }
                scenarioFailures += 1
                let origin = outcome.expectation.origin
                out += "FAIL \(origin.file):\(origin.location.line):\(origin.location.column) \(outcome.expectation.text) (\(DateFormat.string(outcome.day)))\n"
                out += "  expected: \(outcome.expected)\n  actual:   \(outcome.actual)\n"
                if let explanation = outcome.explanation {
                    out += ExplainCommand.render(explanation, clock: scenario.clock).split(separator: "\n", omittingEmptySubsequences: false)
                        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
                }
            }
            failed += scenarioFailures
            out += "\(scenarioFailures == 0 ? "ok  " : "FAIL") \(loaded.file) — \(scenario.name)\n"
        }
        out += "\(passed) passed, \(failed) failed\n"
        io.out(out)
        return failed == 0 ? .success : .failure
    }
}
