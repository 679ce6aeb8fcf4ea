import Foundation
import RulesDiagnostics
import RulesEngine
import RulesSimulator
import Ruleset
import RulesetFiles

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
                does between runs; the output must be the same. --state-in starts from an engine state
                the app saved (its time zone must be the scenario's; the scenario's routines and
                settings apply over it, and what it says is pending is delivered); --state-out writes
                the state after the last event (or at --at), so support can replay a user's next hours.
                """,
            usage:
                "rules simulate SCENARIO [--ruleset DIR] [--format text|json|html] [--out FILE] [--at HH:MM] [--restore-each-event] [--state-in FILE] [--state-out FILE]",
            arguments: [("SCENARIO", "A scenario file (scenarios/*.yaml).")],
            options: [
                SimulationSupport.rulesetOption,
                OptionSpec(name: "--format", valueName: "FORMAT", allowed: ["text", "json", "html"], help: "Output format (default: text)."),
                OptionSpec(name: "--out", valueName: "FILE", help: "Write to FILE instead of standard output."),
                OptionSpec(name: "--at", valueName: "HH:MM", help: "Stop at this time (HH:MM on the first day, or YYYY-MM-DDTHH:MM)."),
                OptionSpec(name: "--restore-each-event", valueName: nil, help: "Save and restore the engine's state between every two events."),
                OptionSpec(name: "--state-in", valueName: "FILE", help: "Start from this saved engine state instead of a fresh one."),
                OptionSpec(name: "--state-out", valueName: "FILE", help: "Write the engine state after the last event to FILE."),
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
        var start: EngineState?
        if let stateIn = arguments.value("--state-in") {
            let saved = savedState(stateIn, scenario: scenario, io)
            guard let state = saved.state else { return saved.exit }
            start = state
        }
        // Two outputs never share a place: the state would silently replace the timeline.
        if let out = arguments.value("--out"), let stateOut = arguments.value("--state-out"), io.sameOutput(out, stateOut) {
            return RulesCLI.usageError(
                "--out and --state-out name the same file (\(out)): the state would replace the timeline; give each its own",
                usage: command.usage, helpName: "simulate", io: io)
        }
        // No output replaces what this run reads: the scenario, the saved state, the rule files.
        let inputs = SimulationSupport.inputs(arguments, io, extra: [path] + [arguments.value("--state-in")].compactMap { $0 })
        let format = arguments.value("--format") ?? "text"
        // Text and JSON lines are written as the run goes, and the HTML page is drawn day by
        // day (memory does not grow with the run's length); a stop with --at keeps the run.
        let streams = stop == nil
        var streamed: Output?
        if streams {
            guard let opened = io.openOutput(arguments.value("--out"), inputs: inputs) else { return .usage }
            streamed = opened
        }
        var writer: TraceWriter?
        var page: HTMLReportWriter?
        // The page's day sections wait on disk while the run goes (the overview above them
        // needs every day).
        let sections = SpooledText()
        let observe: ((OperatorEngine, [EngineRecord]) -> Void)? =
            streams
            ? { engine, records in
                guard !records.isEmpty, let output = streamed else { return }
                if format == "html" {
                    if page == nil {
                        page = HTMLReportWriter(
                            scenario: scenario, ruleset: ruleset, dayStart: engine.profile.dayStart(ruleset), clock: start?.clock ?? scenario.clock,
                            sink: { sections.append($0) })
                    }
                    page?.add(records)
                    return
                }
                if writer == nil {
                    // Made at the first records, when the first day's settings hold.
                    let made = TraceWriter(
                        format: format == "json" ? .json : .text, scenario: scenario, ruleset: ruleset, dayStart: engine.profile.dayStart(ruleset),
                        clock: start?.clock ?? scenario.clock)
                    output.write(made.header)
                    writer = made
                }
                if var current = writer {
                    output.write(current.write(records))
                    writer = current
                }
            } : nil
        // Streamed: the records go out as they come and the run keeps none.
        let options = SimulationOptions(stop: stop, restoreEachEvent: arguments.has("--restore-each-event"), start: start)
        let result =
            observe.map { Simulation.run(scenario, ruleset: ruleset, options: options, sink: Streaming($0)) }
            ?? Simulation.run(scenario, ruleset: ruleset, options: options)
        if let stateOut = arguments.value("--state-out") {
            let data: Data
            do { data = try (result.stateAfterLastEvent ?? result.engine.state).encoded() } catch {
                io.err("Error: the engine state did not encode: \(error)\n")
                return .usage
            }
            guard io.writeAtomically(String(decoding: data, as: UTF8.self), to: stateOut, inputs: inputs) else { return .usage }
        }
        for problem in result.problems {
            io.err("\(problem.origin.file):\(problem.origin.location.line):\(problem.origin.location.column): warning: \(problem.message)\n")
        }
        if let streamed {
            if format == "html" {
                var drawn = page ?? HTMLReportWriter(scenario: scenario, ruleset: ruleset, dayStart: result.dayStart, sink: { sections.append($0) })
                let (head, tail) = drawn.finishParts()
                streamed.write(head)
                sections.copy(to: streamed)
                streamed.write(tail)
            } else if writer == nil {
                // A run without any record still has its timeline's header.
                streamed.write(TraceWriter(format: format == "json" ? .json : .text, scenario: scenario, ruleset: ruleset, dayStart: 0).header)
            }
            guard streamed.finish() else { return .usage }
            if let out = arguments.value("--out"), out != "-" { io.out("wrote \(out)\n") }
            return .success
        }
        var output: String
        switch format {
        case "json": output = Trace.jsonLines(result, ruleset: ruleset)
        case "html": output = HTMLReport.render(result, ruleset: ruleset)
        default:
            output = Trace.text(result, ruleset: ruleset)
            if stop != nil {
                let at = arguments.value("--at") ?? ""
                if let snapshot = result.engine.snapshot {
                    output += "\nsnapshot at \(at):\n" + snapshot.json(clock: result.engine.clock).prettyRendered() + "\n"
                } else {
                    output += "\nno snapshot at \(at): the app has not run yet\n"
                }
            }
        }
        if stop != nil, format == "json", let snapshot = result.engine.snapshot {
            output += JSONValue.object([("kind", .string("snapshot.final"))] + (snapshotFields(snapshot, result.engine.clock))).rendered() + "\n"
        }
        if let out = arguments.value("--out") {
            guard io.writeAtomically(output, to: out, inputs: inputs) else { return .usage }
            if out != "-" { io.out("wrote \(out)\n") }
        } else {
            io.out(output)
        }
        return .success
    }

    /// The saved state at `file` for `scenario`, or the exit code after saying why not: the
    /// file unreadable or over the limit, the state refused (damaged, newer, foreign), or
    /// written in another time zone than the scenario's (the state nil, with the exit code).
    static func savedState(_ file: String, scenario: Scenario, _ io: CommandIO) -> (state: EngineState?, exit: ExitCode) {
        let limit = InputLimits.maxStateBytes
        let bytes: [UInt8]
        switch FileReader.contents(of: io.resolve(file), limit: limit) {
        case .success(let read): bytes = read
        case .failure(.tooLarge(let size)):
            io.err("Error: \(file) is \(size) bytes, over the limit of \(limit) bytes for a saved engine state\n")
            return (nil, .usage)
        case .failure(let failure):
            io.err("Error: \(file): \(failure.description)\n")
            return (nil, .usage)
        }
        let load = EngineState.decode(Data(bytes), file: file)
        guard let state = load.state else {
            io.out(TextRenderer(color: io.useColor).render(load.diagnostics, sources: [:]))
            return (nil, .failure)
        }
        guard state.timeZone == scenario.timeZoneName || state.clock == scenario.clock else {
            io.err("Error: \(file) is a state in \(state.timeZone); the scenario's clock is \(scenario.timeZoneName)\n")
            return (nil, .usage)
        }
        return (state, .success)
    }

    static func snapshotFields(_ snapshot: DailySnapshot, _ clock: LocalClock) -> [(String, JSONValue)] {
        if case .object(let fields) = snapshot.json(clock: clock) { return fields }
        return []
    }
}
