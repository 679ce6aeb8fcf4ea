import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesPopulation
import RulesSimulator
import RulesTune
import Ruleset
import RulesetFiles

/// `rules tune POP --vary KNOB=RANGE … --target '…' --maximise METRIC`: the values of knobs
/// that meet the targets, searched on the same synthetic people.
enum TuneCommand {
    static var command: Command {
        Command(
            name: "tune",
            abstract: "Search knob values for the candidates that meet population targets and do best on an objective.",
            discussion: """
                A knob is a value of the ruleset that 'rules diff' names when it changes: a policy value
                (policy.max_per_day), a notification's time (notifications.ID.at), the constant of a
                comparison in a table or condition (route.short_sleep, or FILE:LINE of the comparison),
                a setting's default, the light route's scale. --list-knobs lists them with their
                values and the bounds their keys allow. A range is A..B with a step (/15, /30m; whole
                numbers step by 1) or a list (2,3,5).
                Every candidate — the grid of the values, or a Latin-hypercube sample of it when the
                grid does not fit --budget, always with the current ruleset as candidate 0 — lives the
                same users with the same streams, so differences are the rules', not the draw's. Each
                metric is reported with its paired difference from the current ruleset and a 95 %
                interval over users. Successive halving spends the budget on the contenders: all
                candidates live a small first round; those a target rules out with confidence stop,
                then — feasibility before the objective — only candidates the objective ranks below
                one that meets every target with confidence, worst first, down to half; the rest live
                more users (the same users first) until the last round at --users × --days.
                Targets are METRIC OP VALUE with OP one of <=, <, >=, > (shares take 0.1 or 10%);
                metrics are the population report's names, plus busiest_day.at_least_N.share (users
                with a day of N or more notices), answers.opted_out_all.share and
                answers.opted_out_any.share (users who switched every notice, or any type, off),
                completions.all (routines done) and completions.category.C; --list-metrics lists them.
                Prints the candidates that meet every target with confidence, best first, every
                candidate's fate, the Pareto set of the objective and the first target, and the best
                one's edit as a unified diff; --write DIR writes the tuned copy of the ruleset (checked
                before the search), names the scenarios whose expectations it now fails, and updates
                a comment on an edited line that stated the old value.
                Exit status: 0 a candidate meets every target; 1 none does — a finding: the full
                report is written (text, JSON or HTML), naming for each target no candidate met the
                closest one, its interval and the round it ended in; 2 usage errors.
                """,
            usageArguments: "POP",
            moreUsage: ["rules tune --list-knobs [--ruleset DIR]", "rules tune --list-metrics [POP] [--ruleset DIR]"],
            arguments: [("POP", "A population file (populations/*.yaml).")],
            options: Options.self,
            run: run)
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var ruleset = "."
        var vary: [String] = []
        var targets: [String] = []
        var maximise: String?
        var minimise: String?
        var budget: Int?
        var users: Int?
        var days: Int?
        var jobs: Int?
        var seed: Int?
        var format = ReportFormat.text
        var out: String?
        var write: String?
        var listKnobs = false
        var listMetrics = false

        static var fields: [OptionField<Self>] {
            typealias Sizes = PopulationCommand.Sizes
            return [
                SimulationSupport.rulesetOption(\.ruleset),
                .repeated(\.vary, OptionSpec(name: "--vary", valueName: "KNOB=RANGE", help: "A knob and its values (repeatable).")),
                .repeated(
                    \.targets, OptionSpec(name: "--target", valueName: "'METRIC OP VALUE'", help: "A bound every answer must meet (repeatable).")),
                .option(\.maximise, OptionSpec(name: "--maximise", valueName: "METRIC", help: "The metric to make as large as the targets allow.")),
                .option(
                    \.minimise,
                    OptionSpec(
                        name: "--minimise", valueName: "METRIC", help: "The metric to make as small as the targets allow.", instead: "--maximise")),
                .number(
                    \.budget, in: 1...InputLimits.maxNumber,
                    OptionSpec(name: "--budget", valueName: "USER_DAYS", help: "The most user-days to live (default: the whole schedule).")),
                .number(\.users, in: Sizes.users, OptionSpec(name: "--users", valueName: "N", help: "Users of the last round (default: 1,000).")),
                .number(\.days, in: Sizes.days, OptionSpec(name: "--days", valueName: "N", help: "Days each user lives (default: 14).")),
                .number(\.jobs, in: Sizes.jobs, OptionSpec(name: "--jobs", valueName: "N", help: "Threads (default: every core).")),
                .number(\.seed, in: Sizes.seeds, OptionSpec(name: "--seed", valueName: "S", help: "The seed (default: the population file's).")),
                .option(\.format, OptionSpec(name: "--format", valueName: "FORMAT", help: "Output format (default: text).")),
                .option(\.out, OptionSpec(name: "--out", valueName: "FILE", help: "Write the report to FILE instead of standard output.")),
                .option(\.write, OptionSpec(name: "--write", valueName: "DIR", help: "Write the best candidate's ruleset to DIR (a new directory).")),
                .flag(\.listKnobs, OptionSpec(name: "--list-knobs", help: "List every knob of the ruleset, its value and its bounds.")),
                .flag(
                    \.listMetrics,
                    OptionSpec(
                        name: "--list-metrics", help: "List every metric a target or objective may name (for POP, if given), with its meaning.")),
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard let read = SimulationSupport.loaded(given.ruleset, io), let ruleset = read.ruleset else { return .usage }
        let prefix = given.ruleset == "." ? "" : given.ruleset
        var catalogue = KnobCatalogue(ruleset: ruleset, documents: read.documents, sources: read.sources)
        catalogue.workingDirectory = io.currentDirectory
        catalogue.rulesetDirectory = io.resolve(given.ruleset)
        if given.listKnobs || given.listMetrics { return list(given, catalogue: catalogue, ruleset: ruleset, io) }
        guard given.positional.count == 1, let path = given.positional.first else { return usage("tune takes one population file", io) }
        guard let population = PopulationCommand.load(path, ruleset: ruleset, io) else { return .failure }
        let question: TuneQuestion
        let metrics = TuneSetup.metrics(ruleset: ruleset, population: population)
        switch TuneSetup.question(given, catalogue: catalogue, metrics: metrics) {
        case .success(let asked): question = asked
        case .failure(let problem): return usage(problem, io)
        }
        let setup: TuneSearch.Setup
        switch TuneSetup.setup(given, question: question, metrics: metrics, population: population, read: read, prefix: prefix, io) {
        case .success(let made): setup = made
        case .failure(let problem): return usage(problem, io)
        }
        // The copy --write will make is checked before the search, not after it.
        if let directory = given.write, !TunedCopy.preflight(directory, from: given.ruleset, io) { return .usage }
        let result = TuneSearch.run(question, setup, budget: given.budget, progress: TuneSetup.progress(io, setup: setup))
        var report = TuneReport(result: result, file: path, edit: edit(result, read: read, prefix: prefix))
        if let best = result.meeting.first {
            report.editNotes = KnobEdit.commentNotes(result.candidates[best].setting, knobs: question.knobs, sources: read.sources)
        }
        guard written(report, given, path: path, read: read, prefix: prefix, io) else { return .usage }
        // No candidate meeting every target is the search's finding: the report is written, and
        // the exit status says so (1, as a failed check; 2 stays for a mistyped command).
        if report.best == nil, let finding = TuneFinding(result) {
            for line in finding.lines(report) { io.err("rules tune: \(line)\n") }
            return .failure
        }
        return .success
    }

    /// `--list-knobs`, `--list-metrics [POP]`.
    static func list(_ given: Options, catalogue: KnobCatalogue, ruleset: Ruleset, _ io: CommandIO) -> ExitCode {
        if given.listKnobs {
            io.out(knobList(catalogue))
            return .success
        }
        guard given.positional.count <= 1 else { return usage("--list-metrics takes at most one population file", io) }
        var metrics = PopulationMetric.names(ruleset: ruleset, groups: [], answers: true)
        if let path = given.positional.first {
            guard let population = PopulationCommand.load(path, ruleset: ruleset, io) else { return .failure }
            metrics = TuneSetup.metrics(ruleset: ruleset, population: population)
        }
        io.out(metricList(metrics))
        return .success
    }

    /// The report written (to --out or standard output) and, with --write, the tuned copy with
    /// what else it changes; false when something could not be written.
    static func written(_ report: TuneReport, _ given: Options, path: String, read: RulesetLoad, prefix: String, _ io: CommandIO) -> Bool {
        let output: String
        switch given.format {
        case .text: output = report.text()
        case .json: output = report.json().prettyRendered() + "\n"
        case .html: output = TuneReportHTML.render(report)
        }
        let inputs = SimulationSupport.inputs(ruleset: given.ruleset, io, extra: [path])
        if let out = given.out {
            guard io.writeAtomically(output, to: out, inputs: inputs) else { return false }
        } else {
            io.out(output)
        }
        guard let directory = given.write, let best = report.best else { return true }
        let result = report.result
        let texts = inside(KnobEdit.texts(result.candidates[best].setting, knobs: result.question.knobs, sources: read.sources), prefix)
        guard TunedCopy.write(directory, from: given.ruleset, texts: texts, io) else { return false }
        io.err("wrote the tuned ruleset to \(directory)\n")
        for note in report.editNotes { io.err("  \(note)\n") }
        for line in TunedScenarios.lines(TunedScenarios.failing(in: io.resolve(directory)), directory: directory) { io.err(line + "\n") }
        return true
    }

    /// The best candidate's edit, file by file.
    static func edit(_ result: TuneResult, read: RulesetLoad, prefix: String) -> String {
        guard let best = result.meeting.first else { return "" }
        let sources = relative(read.sources, prefix)
        let texts = inside(KnobEdit.texts(result.candidates[best].setting, knobs: result.question.knobs, sources: read.sources), prefix)
        return texts.keys.sorted().map { file in UnifiedDiff.of(sources[file]?.text ?? "", texts[file] ?? "", file: file) }.joined()
    }

    /// Edited texts by their path inside the ruleset. A knob's file is named as the ruleset's
    /// files are read (with the `--ruleset` prefix), so its edit is made on the source of that
    /// name and then placed inside the ruleset.
    static func inside(_ texts: [String: String], _ prefix: String) -> [String: String] {
        guard !prefix.isEmpty else { return texts }
        var out: [String: String] = [:]
        for (name, text) in texts where name.hasPrefix(prefix + "/") { out[String(name.dropFirst(prefix.count + 1))] = text }
        return out
    }

    /// Sources by their path inside the ruleset (without the `--ruleset` prefix).
    static func relative(_ sources: [String: SourceFile], _ prefix: String) -> [String: SourceFile] {
        guard !prefix.isEmpty else { return sources }
        var out: [String: SourceFile] = [:]
        for (name, source) in sources where name.hasPrefix(prefix + "/") { out[String(name.dropFirst(prefix.count + 1))] = source }
        return out
    }

    /// `--list-knobs`: one knob a line, with its place, value, bounds and what it is.
    static func knobList(_ catalogue: KnobCatalogue) -> String {
        let width = catalogue.knobs.map { $0.name.count }.max() ?? 0
        var out = "\(catalogue.knobs.count) knobs (name, where, now, bounds):\n"
        for knob in catalogue.knobs {
            let name = knob.name.padding(toLength: width, withPad: " ", startingAt: 0)
            out += "  \(name)  \(knob.place)  now \(knob.literal(knob.current))  bounds \(knob.boundsText)  — \(knob.what)\n"
        }
        return out
    }

    /// `--list-metrics`: one metric a line, with its kind and its words.
    static func metricList(_ metrics: [String]) -> String {
        let width = metrics.map(\.count).max() ?? 0
        var out = "\(metrics.count) metrics (name, kind, meaning); a share takes 0.1 or 10 %:\n"
        for metric in metrics {
            let kind: String
            switch PopulationMetric.form(metric) {
            case .quantile: kind = "quantile"
            case .ratio: kind = PopulationMetric.isShare(metric) ? "share   " : "mean    "
            default: kind = "count   "
            }
            out += "  \(metric.padding(toLength: width, withPad: " ", startingAt: 0))  \(kind)  \(MetricWords.words(metric))\n"
        }
        return out
    }

    static func usage(_ problem: KnobProblem, _ io: CommandIO) -> ExitCode {
        usage(problem.message + (problem.hint.map { "\nhelp: \($0)" } ?? ""), io)
    }

    static func usage(_ message: String, _ io: CommandIO) -> ExitCode {
        RulesCLI.usageError(message, usage: command.usage, helpName: "tune", io: io)
    }
}
