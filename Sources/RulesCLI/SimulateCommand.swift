import Foundation
import RulesDiagnostics
import RulesEngine
import RulesSimulator
import Ruleset

/// `rules simulate SCENARIO`: the day as a timeline (text, JSON lines or an HTML page).
enum SimulateCommand {
    static var command: Command {
        Command(
            name: "simulate",
            abstract: "Simulate a scenario day by day and show what the operator does.",
            discussion: """
                Prints the timeline: app runs and syncs, logs, risk and route changes with reasons,
                notifications scheduled, cancelled, delivered or suppressed (with the gate), rendered
                texts per surface, tool verdicts, snapshots and the day's result. --format json writes
                one object per line; --format html one self-contained page. --at stops there and
                prints the snapshot the app saved last. --restore-each-event writes the engine's state to
                JSON and reads it back into a fresh engine after every event and delivery, as the app
                does between runs; the output must be the same.
                """,
            usage: "rules simulate SCENARIO [--ruleset DIR] [--format text|json|html] [--out FILE] [--at HH:MM] [--restore-each-event]",
            arguments: [("SCENARIO", "A scenario file (scenarios/*.yaml).")],
            options: [
                SimulationSupport.rulesetOption,
                OptionSpec(name: "--format", valueName: "FORMAT", allowed: ["text", "json", "html"], help: "Output format (default: text)."),
                OptionSpec(name: "--out", valueName: "FILE", help: "Write to FILE instead of standard output."),
                OptionSpec(name: "--at", valueName: "HH:MM", help: "Stop at this time (HH:MM on the first day, or YYYY-MM-DDTHH:MM)."),
                OptionSpec(name: "--restore-each-event", valueName: nil, help: "Save and restore the engine's state between every two events."),
            ],
            run: run)
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard arguments.positional.count == 1, let path = arguments.positional.first else {
            return RulesCLI.usageError("simulate takes one scenario file", usage: command.usage, helpName: "simulate", io: io)
        }
        guard let (ruleset, _) = SimulationSupport.ruleset(arguments, io) else { return .usage }
        guard let files = SimulationSupport.scenarioFiles([path], io) else { return .usage }
        let loaded = SimulationSupport.scenarios(files, ruleset: ruleset)
        guard let first = loaded.first else {
            io.err("Error: \(path) holds no scenario\n")
            return .usage
        }
        guard let scenario = first.scenario else {
            io.out(first.rendered(color: io.useColor))
            return .failure
        }
        first.warn(io)
        var stop: (day: Int, seconds: Int)?
        if let at = arguments.value("--at") {
            switch SimulationSupport.stopPoint(at, scenario: scenario) {
            case .success(let point): stop = point
            case .failure(let refusal):
                return RulesCLI.usageError("--at: \(refusal.message)", usage: command.usage, helpName: "simulate", io: io)
            }
        }
        let result = Simulation.run(scenario, ruleset: ruleset, stop: stop, restoreEachEvent: arguments.has("--restore-each-event"))
        var output: String
        switch arguments.value("--format") ?? "text" {
        case "json": output = Trace.jsonLines(result, ruleset: ruleset)
        case "html": output = HTMLReport.render(result, ruleset: ruleset)
        default:
            output = Trace.text(result, ruleset: ruleset)
            if stop != nil {
                let at = arguments.value("--at") ?? ""
                if let snapshot = result.engine.snapshot {
                    output += "\nsnapshot at \(at):\n" + snapshot.json(clock: scenario.clock).prettyRendered() + "\n"
                } else {
                    output += "\nno snapshot at \(at): the app has not run yet\n"
                }
            }
        }
        if stop != nil, arguments.value("--format") == "json", let snapshot = result.engine.snapshot {
            output += JSONValue.object([("kind", .string("snapshot.final"))] + (snapshotFields(snapshot, scenario))).rendered() + "\n"
        }
        for problem in result.problems {
            io.err("\(problem.origin.file):\(problem.origin.location.line):\(problem.origin.location.column): warning: \(problem.message)\n")
        }
        if let out = arguments.value("--out") {
            guard io.writeAtomically(output, to: out) else { return .usage }
            io.out("wrote \(out)\n")
        } else {
            io.out(output)
        }
        return .success
    }

    static func snapshotFields(_ snapshot: DailySnapshot, _ scenario: Scenario) -> [(String, JSONValue)] {
        if case .object(let fields) = snapshot.json(clock: scenario.clock) { return fields }
        return []
    }
}
