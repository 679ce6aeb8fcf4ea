import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesFit
import RulesPopulation
import RulesSimulator
import Ruleset
import RulesetFiles

/// `rules population POP`: lives every synthetic user of a population file and reports what
/// the ruleset does to them; `rules population merge FILE…` combines shard results.
enum PopulationCommand {
    static var command: Command {
        Command(
            name: "population",
            abstract: "Live a population of synthetic users and report what the ruleset does to them.",
            discussion: """
                Draws the users of POP (a populations/*.yaml file) from its seed, lives each of their days
                with the engine (app opens, logs, ticks and answers to notifications as their group
                does) and prints deliveries per type and per user-day, routes, day results, streaks,
                XP and the invariants (over the daily cap, in quiet hours, sensitive text on the lock
                screen, problem records), which must all be 0: otherwise it exits 1 and names the first
                user-day, which --user N replays as an ordinary trace.
                --jobs spreads users over cores (default: all); the output is the same for any --jobs.
                --shard K/N lives users K, K+N, K+2N, … and writes a partial result (JSON) that
                'rules population merge FILE…' combines into what one run gives.
                """,
            usageArguments: "POP",
            moreUsage: [
                "rules population merge FILE… [--format text|json|html] [--out FILE]",
                "rules population fit TELEMETRY… [--ruleset DIR] [--groups K|auto] [--mixed refuse|majority|all] --out FILE",
                "rules population fit --check FITTED TELEMETRY… [--ruleset DIR]",
                "rules population fit --features FEATURES… [--ruleset DIR] [--groups K|auto] [--out FILE | --check FITTED]",
                "rules population fit TELEMETRY… --features-out FILE [--ruleset DIR]",
            ],
            arguments: [("POP", "A population file (populations/*.yaml), or 'merge' followed by shard results.")],
            options: Options.self,
            run: run)
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var ruleset = "."
        var sizes = Sizes()
        /// Text for a run, JSON for a merge unless given.
        var format: ReportFormat?
        var out: String?
        var user: Int?
        var telemetryOut: String?
        var groups: String?
        var mixed = TelemetryReader.Mixed.refuse
        var check: String?
        var features = false
        var featuresOut: String?

        static var fields: [OptionField<Self>] {
            [
                SimulationSupport.rulesetOption(\.ruleset),
                .number(\.sizes.users, in: Sizes.users, OptionSpec(name: "--users", valueName: "N", help: "How many users (default: the file's).")),
                .number(\.sizes.days, in: Sizes.days, OptionSpec(name: "--days", valueName: "N", help: "How many days each (default: the file's).")),
                .number(\.sizes.seed, in: Sizes.seeds, OptionSpec(name: "--seed", valueName: "S", help: "The seed (default: the file's).")),
                .number(
                    \.sizes.jobs, in: Sizes.jobs,
                    OptionSpec(name: "--jobs", valueName: "N", help: "Threads to spread users over (default: every core).")),
                .option(
                    \.sizes.shard,
                    OptionSpec(name: "--shard", valueName: "K/N", help: "Live every N-th user from the K-th and write a partial result."),
                    as: Sizes.shard),
                .option(
                    \.sizes.randomize,
                    OptionSpec(
                        name: "--randomize", valueName: "P",
                        help: "Withhold each due delivery with probability P and report the effects of a delivery (a micro-randomized trial)."),
                    as: Sizes.randomize),
                .option(\.format, OptionSpec(name: "--format", valueName: "FORMAT", help: "Output format (default: text).")),
                .option(\.out, OptionSpec(name: "--out", valueName: "FILE", help: "Write to FILE instead of standard output.")),
                .number(
                    \.user, in: Sizes.users,
                    OptionSpec(name: "--user", valueName: "N", help: "Replay user N's days as an ordinary trace (text or json).")),
                .option(
                    \.telemetryOut,
                    OptionSpec(
                        name: "--telemetry-out", valueName: "DIR",
                        help: "Also write every user's telemetry, as the app would send it, to DIR (JSON lines, 1,000 users a file).")),
                .option(
                    \.groups, OptionSpec(name: "--groups", valueName: "K|auto", help: "fit: how many groups (default: auto, by the silhouette).")),
                .option(
                    \.mixed,
                    OptionSpec(
                        name: "--mixed", valueName: "refuse|majority|all", help: "fit: lines of several rulesets (default: refuse)."),
                    as: PopulationFitCommand.mixed),
                .option(
                    \.check,
                    OptionSpec(
                        name: "--check", valueName: "FITTED",
                        help: "fit: live FITTED for the telemetry's users and days and compare their metrics; exit 1 names any outside.")),
                .flag(
                    \.features,
                    OptionSpec(
                        name: "--features",
                        help: "fit: the files are per-user features (JSON lines, as a warehouse query writes them), not telemetry lines.")),
                .option(
                    \.featuresOut,
                    OptionSpec(
                        name: "--features-out", valueName: "FILE",
                        help: "fit: also write the telemetry's per-user features (what the warehouse queries compute) to FILE.")),
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        if given.positional.first == "merge" { return merge(Array(given.positional.dropFirst()), given, io) }
        if given.positional.first == "fit" { return PopulationFitCommand.run(Array(given.positional.dropFirst()), given, io) }
        guard given.positional.count == 1, let path = given.positional.first else {
            return usage("population takes one population file", io)
        }
        let (sizes, user) = (given.sizes, given.user)
        guard let read = SimulationSupport.loaded(given.ruleset, io), let ruleset = read.ruleset else { return .usage }
        guard let population = load(path, ruleset: ruleset, io) else { return .failure }
        let options: PopulationOptions
        do throws(UsageError) { options = try sizes.options(for: population, ruleset: ruleset) } catch { return usage(error.message, io) }
        let shard = options.shard
        let format = given.format ?? .text
        if user != nil, given.telemetryOut != nil {
            return usage("--user replays one user's days and writes no telemetry; --telemetry-out writes every user's: give one", io)
        }
        if let user {
            guard user <= options.users else { return usage("--user \(user) is past the last user (\(options.users))", io) }
            let result = PopulationRun.replay(population, ruleset: ruleset, user: user, options: options)
            let output: String
            switch format {
            case .json: output = Trace.jsonLines(result, ruleset: ruleset)
            case .html: output = HTMLReport.render(result, ruleset: ruleset)
            case .text: output = Trace.text(result, ruleset: ruleset)
            }
            return write(output, given, io) ? .success : .usage
        }
        let progress = progressLine(total: options.shard.size(of: options.users))
        // The files read once; every job but the first decodes its own copy of the ruleset from
        // the same documents (see `PopulationRun.run`).
        let documents = read.documents
        var telemetry: TelemetryBlocks?
        if let directory = given.telemetryOut {
            if let problem = reportAmongTelemetry(given, directory: directory, io) { return usage(problem, io) }
            guard
                let blocks = TelemetryOutput.blocks(
                    directory, ruleset: given.ruleset, options: options, inputs: SimulationSupport.inputs(ruleset: given.ruleset, io, extra: [path]),
                    io)
            else { return .usage }
            telemetry = blocks
        }
        var tally = PopulationRun.run(
            population, ruleset: ruleset, options: options, perJob: { Ruleset.load(documents: documents).ruleset }, progress: progress,
            telemetry: telemetry)
        if let telemetry, !telemetry.succeeded { return .usage }
        PopulationReport.complete(&tally, ruleset: ruleset)
        let header = PopulationHeader(
            name: population.name, file: path, users: options.users, days: options.days, seed: options.seed, start: population.start,
            rulesetSHA256: ruleset.sha256, populationSHA256: population.sha256, ruleset: given.ruleset)
        // A shard's result is for merging: JSON whatever the format asked.
        let summary = PopulationSummary(tally, header: header, shard: shard)
        let output = summary.rendered(shard != .whole ? .json : format) ?? ""
        guard write(output, given, io) else { return .usage }
        return tally.violations == 0 ? .success : .failure
    }

    static func merge(_ files: [String], _ given: Options, _ io: CommandIO) -> ExitCode {
        guard !files.isEmpty else { return usage("merge takes the shard results to combine", io) }
        var parts: [(header: PopulationHeader, shard: Shard?, tally: PopulationTally)] = []
        for file in files {
            let limit = InputLimits.maxPopulationResultBytes
            guard let bytes = io.read(file, limit: limit, what: "a population result") else { return .usage }
            let parsed = JSONReader.parse(bytes, file: file, maxBytes: limit, maxDepth: 16)
            guard let node = parsed.documents.first, parsed.diagnostics.isEmpty else {
                io.out(TextRenderer(color: io.useColor).render(parsed.diagnostics, sources: [:]))
                return .failure
            }
            do throws(PopulationReport.ReadFailure) {
                parts.append(try PopulationReport.read(node))
            } catch {
                io.fail(.notAPopulationResult(file: file, reason: error.description))
                return .failure
            }
        }
        switch PopulationReport.merge(parts) {
        case .failure(let failure):
            io.fail(.cannotMerge(failure.description))
            return .failure
        case .success(let (header, tally)):
            let format = given.format ?? .json
            let output = PopulationSummary(tally, header: header).rendered(format) ?? ""
            guard write(output, given, io) else { return .usage }
            return tally.violations == 0 ? .success : .failure
        }
    }

    /// The population of `path`, or nil after printing its diagnostics.
    static func load(_ path: String, ruleset: Ruleset, _ io: CommandIO) -> Population? {
        let read = read(display: path, absolute: io.resolve(path), ruleset: ruleset)
        if !read.diagnostics.isEmpty {
            io.out(TextRenderer(color: io.useColor).render(read.diagnostics, sources: read.source.map { [path: $0] } ?? [:]))
        }
        return read.diagnostics.contains { $0.severity == .error } ? nil : read.population
    }

    /// A population file read against `ruleset`: the population when it has no error, and
    /// its diagnostics (sorted, at most 100), as `rules check` reports them.
    static func read(display: String, absolute: String, ruleset: Ruleset) -> (population: Population?, diagnostics: [Diagnostic], source: SourceFile?)
    {
        let (parsed, source) = FileReader.yaml(absolute, display: display)
        let loaded = PopulationLoader.load(parsed: parsed, file: display, source: source, ruleset: ruleset)
        return (loaded.population, DiagnosticCollector(loaded.diagnostics).report(), source)
    }

    /// `--users`, `--days`, `--seed`, `--jobs` and `--shard`, as `population` and
    /// `diff --population` read them (absent: the file's, every core, the whole population).
    struct Sizes {
        var users: Int?
        var days: Int?
        var seed: Int?
        var jobs: Int?
        var shard = Shard.whole
        /// The trial's chance to withhold each due delivery (0: none).
        var randomize = 0.0

        static let users = 1...Population.maxUsers
        static let days = 1...Population.maxDays
        static let seeds = 0...InputLimits.maxNumber
        static let jobs = 1...256

        static func randomize(_ text: String) throws(UsageError) -> Double {
            guard let p = Double(text), p.isFinite, p >= 0, p <= 1 else {
                throw UsageError(message: "--randomize takes a probability from 0 to 1, e.g. 0.5")
            }
            return p
        }

        static func shard(_ text: String) throws(UsageError) -> Shard {
            guard let parsed = Shard(text) else { throw UsageError(message: "--shard takes K/N with 1 ≤ K ≤ N, e.g. 2/8") }
            return parsed
        }

        func options(for population: Population, ruleset: Ruleset) throws(UsageError) -> PopulationOptions {
            var options = PopulationOptions(
                population: population, users: users, days: days, seed: seed.map(UInt64.init),
                jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, shard: shard)
            options.randomize = randomize
            guard Population.livesWithinEngineDays(start: population.start, days: options.days) else {
                let last = DateFormat.string(population.start + options.days - 1)
                throw UsageError(message: "--days \(options.days) " + ScenarioLoader.outsideEngineDays("ends on \(last), which"))
            }
            // The work is bounded before it starts (a shard lives its share of the users).
            let lived = (options.users + options.shard.count - 1) / options.shard.count
            if let problem = population.workProblem(users: lived, days: options.days, ruleset: ruleset) { throw UsageError(message: problem) }
            return options
        }
    }

    static func write(_ output: String, _ given: Options, _ io: CommandIO) -> Bool {
        if let out = given.out {
            guard io.writeAtomically(output, to: out, inputs: SimulationSupport.inputs(ruleset: given.ruleset, io, extra: given.positional)) else {
                return false
            }
            io.out("wrote \(out)\n")
        } else {
            io.out(output)
        }
        return true
    }

    /// A long run at a terminal shows how far it is: on the terminal itself (standard error),
    /// at most once a second, erased at the end.
    static func progressLine(total: Int) -> (@Sendable (Int) -> Void)? {
        guard isatty(2) == 1, total >= 1_000 else { return nil }
        let throttle = Throttle()
        return { done in
            guard throttle.shouldShow(done, of: total) else { return }
            StandardStream.error.write(done == total ? "\r\u{1B}[K" : "\rlived \(done) of \(total) users…")
        }
    }

    /// The report is never written among the telemetry's files (one would replace the other).
    static func reportAmongTelemetry(_ given: Options, directory: String, _ io: CommandIO) -> String? {
        guard let out = given.out, out != "-" else { return nil }
        let folder = URL(fileURLWithPath: io.resolve(directory)).standardizedFileURL.resolvingSymlinksInPath().path
        let report = URL(fileURLWithPath: io.resolve(out)).standardizedFileURL.resolvingSymlinksInPath().path
        if report == folder {
            return "--out \(out) is the --telemetry-out directory itself: the report needs a file of its own, outside it"
        }
        let parent = URL(fileURLWithPath: io.resolve(out)).deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath().path
        guard folder == parent else { return nil }
        return "--out \(out) is inside --telemetry-out \(directory), whose files the telemetry writes: put the report elsewhere"
    }

    static func usage(_ message: String, _ io: CommandIO) -> ExitCode {
        RulesCLI.usageError(message, usage: command.usage, helpName: "population", io: io)
    }
}

/// Throttles one run's progress lines to one a second (and the last one).
final class Throttle: @unchecked Sendable {
    private let lock = NSLock()
    private var last = Date.distantPast

    func shouldShow(_ done: Int, of total: Int) -> Bool {
        lock.withLock {
            let now = Date()
            guard done == total || now.timeIntervalSince(last) >= 1 else { return false }
            last = now
            return true
        }
    }
}
