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
            usageArguments: "SCENARIO",
            arguments: [("SCENARIO", "A scenario file (scenarios/*.yaml).")],
            options: Options.self,
            run: run)
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var ruleset = "."
        var format = ReportFormat.text
        var out: String?
        var at: String?
        var restoreEachEvent = false
        var stateIn: String?
        var stateOut: String?

        static var fields: [OptionField<Self>] {
            [
                SimulationSupport.rulesetOption(\.ruleset),
                .option(\.format, OptionSpec(name: "--format", valueName: "FORMAT", help: "Output format (default: text).")),
                .option(\.out, OptionSpec(name: "--out", valueName: "FILE", help: "Write to FILE instead of standard output.")),
                .option(\.at, OptionSpec(name: "--at", valueName: "HH:MM", help: "Stop at this time (HH:MM on the first day, or YYYY-MM-DDTHH:MM).")),
                .flag(
                    \.restoreEachEvent,
                    OptionSpec(name: "--restore-each-event", valueName: nil, help: "Save and restore the engine's state between every two events.")),
                .option(
                    \.stateIn, OptionSpec(name: "--state-in", valueName: "FILE", help: "Start from this saved engine state instead of a fresh one.")),
                .option(\.stateOut, OptionSpec(name: "--state-out", valueName: "FILE", help: "Write the engine state after the last event to FILE.")),
            ]
        }
    }

    /// What `rules simulate` was asked, read and checked before anything runs: the options
    /// as given and what was read from them.
    struct Request {
        var given: Options
        var path: String
        var ruleset: Ruleset
        var scenario: Scenario
        /// `--at` as a day and time.
        var stop: (day: Int, seconds: Int)?
        var start: EngineState?
        /// What this run reads (no output may replace one).
        var inputs: [String]

        var options: SimulationOptions { SimulationOptions(stop: stop, restoreEachEvent: given.restoreEachEvent, start: start) }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        let request: Request
        switch read(given, io) {
        case .success(let read): request = read
        case .failure(let refusal): return refusal.code
        }
        // Text and JSON lines are written as the run goes, and the HTML page is drawn day by
        // day (memory does not grow with the run's length); a stop with --at keeps the run.
        return request.stop == nil ? streamed(request, io) : kept(request, io)
    }

    struct Refusal: Error {
        var code: ExitCode
    }

    /// The request: one scenario file that loads against the ruleset, a stop that falls in it,
    /// a saved state of its time zone, and outputs that replace neither each other nor an input.
    static func read(_ given: Options, _ io: CommandIO) -> Result<Request, Refusal> {
        func usage(_ message: String) -> Result<Request, Refusal> {
            .failure(Refusal(code: RulesCLI.usageError(message, usage: command.usage, helpName: "simulate", io: io)))
        }
        guard given.positional.count == 1, let path = given.positional.first else { return usage("simulate takes one scenario file") }
        guard let (ruleset, _) = SimulationSupport.ruleset(given.ruleset, io) else { return .failure(Refusal(code: .usage)) }
        guard let files = SimulationSupport.scenarioFiles([path], io) else { return .failure(Refusal(code: .usage)) }
        let loaded = SimulationSupport.scenarios(files, ruleset: ruleset)
        guard let first = loaded.first else {
            io.fail(.noScenario(path))
            return .failure(Refusal(code: .usage))
        }
        guard let scenario = first.scenario else {
            io.out(first.rendered(color: io.useColor))
            return .failure(Refusal(code: .failure))
        }
        first.warn(io)
        var stop: (day: Int, seconds: Int)?
        if let at = given.at {
            switch SimulationSupport.stopPoint(at, scenario: scenario) {
            case .success(let point): stop = point
            case .failure(let refusal): return usage("--at: \(refusal.message)")
            }
        }
        var start: EngineState?
        if let stateIn = given.stateIn {
            let saved = savedState(stateIn, scenario: scenario, io)
            guard let state = saved.state else { return .failure(Refusal(code: saved.exit)) }
            start = state
        }
        // Two outputs never share a place: the state would silently replace the timeline.
        if let out = given.out, let stateOut = given.stateOut, io.sameOutput(out, stateOut) {
            return usage("--out and --state-out name the same file (\(out)): the state would replace the timeline; give each its own")
        }
        // No output replaces what this run reads: the scenario, the saved state, the rule files.
        let inputs = SimulationSupport.inputs(ruleset: given.ruleset, io, extra: [path] + [given.stateIn].compactMap { $0 })
        return .success(Request(given: given, path: path, ruleset: ruleset, scenario: scenario, stop: stop, start: start, inputs: inputs))
    }

    /// A whole run, its records written as they come (the run keeps none).
    static func streamed(_ request: Request, _ io: CommandIO) -> ExitCode {
        guard let output = io.openOutput(request.given.out, inputs: request.inputs) else { return .usage }
        let timeline = StreamedTimeline(request, output: output)
        let result = Simulation.run(request.scenario, ruleset: request.ruleset, options: request.options, sink: Streaming(timeline.add))
        guard finish(result, request, io) else { return .usage }
        timeline.finish(result)
        guard output.finish() else { return .usage }
        if let out = request.given.out, out != "-" { io.out("wrote \(out)\n") }
        return .success
    }

    /// A run that stops at `--at`: kept, then written with the snapshot the app saved last.
    static func kept(_ request: Request, _ io: CommandIO) -> ExitCode {
        let result = Simulation.run(request.scenario, ruleset: request.ruleset, options: request.options)
        guard finish(result, request, io) else { return .usage }
        let ruleset = request.ruleset
        var output: String
        switch request.given.format {
        case .json: output = Trace.jsonLines(result, ruleset: ruleset)
        case .html: output = HTMLReport.render(result, ruleset: ruleset)
        case .text:
            output = Trace.text(result, ruleset: ruleset)
            let at = request.given.at ?? ""
            if let snapshot = result.engine.snapshot {
                output += "\nsnapshot at \(at):\n" + snapshot.json(clock: result.engine.clock).prettyRendered() + "\n"
            } else {
                output += "\nno snapshot at \(at): the app has not run yet\n"
            }
        }
        if request.given.format == .json, let snapshot = result.engine.snapshot {
            output += JSONValue.object([("kind", .string("snapshot.final"))] + (snapshotFields(snapshot, result.engine.clock))).rendered() + "\n"
        }
        if let out = request.given.out {
            guard io.writeAtomically(output, to: out, inputs: request.inputs) else { return .usage }
            if out != "-" { io.out("wrote \(out)\n") }
        } else {
            io.out(output)
        }
        return .success
    }

    /// After the run: the state written with --state-out, and the scenario's problems said.
    /// False when the state could not be written.
    static func finish(_ result: SimulationResult, _ request: Request, _ io: CommandIO) -> Bool {
        if let stateOut = request.given.stateOut {
            let data: Data
            do { data = try (result.stateAfterLastEvent ?? result.engine.state).encoded() } catch {
                io.fail(.stateDidNotEncode("\(error)"))
                return false
            }
            guard io.writeAtomically(String(decoding: data, as: UTF8.self), to: stateOut, inputs: request.inputs) else { return false }
        }
        for problem in result.problems {
            io.err("\(problem.origin.file):\(problem.origin.location.line):\(problem.origin.location.column): warning: \(problem.message)\n")
        }
        return true
    }

    /// The saved state at `file` for `scenario`, or the exit code after saying why not: the
    /// file unreadable or over the limit, the state refused (damaged, newer, foreign), or
    /// written in another time zone than the scenario's (the state nil, with the exit code).
    static func savedState(_ file: String, scenario: Scenario, _ io: CommandIO) -> (state: EngineState?, exit: ExitCode) {
        guard let bytes = io.read(file, limit: InputLimits.maxStateBytes, what: "a saved engine state") else { return (nil, .usage) }
        let load = EngineState.decode(Data(bytes), file: file)
        guard let state = load.state else {
            io.out(TextRenderer(color: io.useColor).render(load.diagnostics, sources: [:]))
            return (nil, .failure)
        }
        guard state.timeZone == scenario.timeZoneName || state.clock == scenario.clock else {
            io.fail(.stateInOtherZone(file: file, zone: state.timeZone, scenarioZone: scenario.timeZoneName))
            return (nil, .usage)
        }
        return (state, .success)
    }

    static func snapshotFields(_ snapshot: DailySnapshot, _ clock: LocalClock) -> [(String, JSONValue)] {
        if case .object(let fields) = snapshot.json(clock: clock) { return fields }
        return []
    }
}

/// A timeline written as the run goes: text or JSON lines record by record, or the HTML
/// page's day sections spooled to disk until the overview above them is drawn at the end.
final class StreamedTimeline {
    let request: SimulateCommand.Request
    let output: Output
    var writer: TraceWriter?
    var page: HTMLReportWriter?
    let sections = SpooledText()

    init(_ request: SimulateCommand.Request, output: Output) {
        self.request = request
        self.output = output
    }

    /// One step's records.
    func add(_ engine: OperatorEngine, _ records: [EngineRecord]) {
        guard !records.isEmpty else { return }
        let (scenario, ruleset) = (request.scenario, request.ruleset)
        if request.given.format == .html {
            if page == nil {
                let sections = sections
                page = HTMLReportWriter(
                    scenario: scenario, ruleset: ruleset, dayStart: engine.profile.dayStart(ruleset), clock: request.start?.clock ?? scenario.clock,
                    sink: { sections.append($0) })
            }
            page?.add(records)
            return
        }
        if writer == nil {
            // Made at the first records, when the first day's settings hold.
            let made = TraceWriter(
                format: request.given.format == .json ? .json : .text, scenario: scenario, ruleset: ruleset,
                dayStart: engine.profile.dayStart(ruleset), clock: request.start?.clock ?? scenario.clock)
            output.write(made.header)
            writer = made
        }
        if var current = writer {
            output.write(current.write(records))
            writer = current
        }
    }

    /// The end of the timeline: the page's overview and its spooled sections, or the header
    /// of a text timeline that had no record.
    func finish(_ result: SimulationResult) {
        let sections = sections
        if request.given.format == .html {
            var drawn =
                page
                ?? HTMLReportWriter(scenario: request.scenario, ruleset: request.ruleset, dayStart: result.dayStart, sink: { sections.append($0) })
            let (head, tail) = drawn.finishParts()
            output.write(head)
            sections.copy(to: output)
            output.write(tail)
        } else if writer == nil {
            // A run without any record still has its timeline's header.
            output.write(
                TraceWriter(format: request.given.format == .json ? .json : .text, scenario: request.scenario, ruleset: request.ruleset, dayStart: 0)
                    .header
            )
        }
    }
}
