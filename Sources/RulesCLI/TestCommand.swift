import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset
import RulesetFiles

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
                --update accepts a behaviour change after review: each failing expectation is rewritten
                in place with what the engine now does (only its values; comments and layout kept),
                every change printed as a diff; a `that:` condition is left for you. Refused when CI
                is set: CI checks expectations, it never rewrites them. The updates are then listed by
                what caused them (the notification, route, risk, day result, …), so a change you did
                not mean stands apart. --update --dry-run prints the same and writes nothing.
                """,
            usageArguments: "[PATH…]",
            arguments: [("PATH", "Scenario files or directories (default: scenarios).")],
            options: Options.self,
            run: run)
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var ruleset = "."
        var update = false
        var dryRun = false
        var coverage = false
        var minCoverage: Double?
        var format = ReportFormat.text
        var generateBoundaries: String?

        static var fields: [OptionField<Self>] {
            [
                SimulationSupport.rulesetOption(\.ruleset),
                .flag(\.update, OptionSpec(name: "--update", help: "Rewrite failing expectations with what the engine now does (not under CI).")),
                .flag(\.dryRun, OptionSpec(name: "--dry-run", help: "With --update: print the changes and write nothing.", within: "--update")),
                .flag(
                    \.coverage,
                    OptionSpec(name: "--coverage", help: "Report which entries, gates, templates, tools and thresholds the scenarios exercised.")),
                .option(
                    \.minCoverage,
                    OptionSpec(name: "--min-coverage", valueName: "N", help: "With --coverage: fail below N percent.", within: "--coverage"),
                    as: { text throws(UsageError) in
                        guard let value = Double(text), value >= 0, value <= 100 else {
                            throw UsageError(message: "--min-coverage takes a percentage from 0 to 100")
                        }
                        return value
                    }),
                .option(
                    \.format,
                    OptionSpec(
                        name: "--format", valueName: "FORMAT", allowed: ["text", "json"], help: "Coverage output format (default: text).",
                        within: "--coverage")),
                .option(
                    \.generateBoundaries,
                    OptionSpec(
                        name: "--generate-boundaries", valueName: "OUT_DIR", help: "Write scenarios just below and above every threshold, then stop.")
                ),
            ]
        }
    }

    /// What `rules test` was asked, checked: the options as given, the ruleset and the
    /// coverage to collect (with `--coverage` or `--min-coverage`).
    struct Request {
        var given: Options
        var ruleset: Ruleset
        var coverage: RuleCoverage?
    }

    /// The run so far: expectations passed and failed, updates applied, the report.
    struct Tally {
        var passed = 0
        var failed = 0
        var applied: [Applied] = []
        var out = ""
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard let (ruleset, _) = SimulationSupport.ruleset(given.ruleset, io) else { return .usage }
        if let out = given.generateBoundaries { return BoundaryCommand.generate(ruleset: ruleset, out: out, io: io) }
        let request: Request
        switch read(given, ruleset: ruleset, io) {
        case .success(let read): request = read
        case .failure(let refusal): return refusal.code
        }
        let paths = given.positional.isEmpty ? ["scenarios"] : given.positional
        var walkProblems: [Diagnostic] = []
        guard let files = SimulationSupport.scenarioFiles(paths, io, problems: &walkProblems) else { return .usage }
        guard !files.isEmpty || !walkProblems.isEmpty else {
            io.fail(.noScenarioFiles(paths))
            return .usage
        }
        var tally = Tally(failed: walkProblems.count, out: TextRenderer(color: false).render(walkProblems, sources: [:]))
        for loaded in SimulationSupport.scenarios(files, ruleset: ruleset) {
            test(loaded, files: files, request, io, &tally)
        }
        var belowMinimum = false
        if let coverage = request.coverage {
            var floor = ""
            if let minimum = request.given.minCoverage, coverage.percent < minimum {
                floor = "coverage \(String(format: "%.1f", coverage.percent))% is below the minimum of \(Value.formatNumber(minimum))%\n"
                belowMinimum = true
            }
            if given.format == .json {
                // Standard output holds the JSON alone (valid whatever failed); the results
                // and the summary line go to standard error.
                io.err(tally.out + floor + "\(tally.passed) passed, \(tally.failed) failed\n")
                io.out(coverage.rendered(.json) ?? "")
                return tally.failed == 0 && !belowMinimum ? .success : .failure
            }
            tally.out += (coverage.rendered(.text) ?? "") + floor
        }
        tally.out += Applied.byCause(tally.applied, dryRun: request.given.dryRun)
        tally.out += "\(tally.passed) passed, \(tally.failed) failed\n"
        io.out(tally.out)
        return tally.failed == 0 && !belowMinimum ? .success : .failure
    }

    struct Refusal: Error {
        var code: ExitCode
    }

    /// The request, checked: --dry-run only with --update, and no update where CI is set
    /// (the floor's range is checked as `--min-coverage` is read).
    static func read(_ given: Options, ruleset: Ruleset, _ io: CommandIO) -> Result<Request, Refusal> {
        func usage(_ message: String) -> Result<Request, Refusal> {
            .failure(Refusal(code: RulesCLI.usageError(message, usage: command.usage, helpName: "test", io: io)))
        }
        if given.dryRun, !given.update { return usage("--dry-run goes with --update") }
        if given.update, !given.dryRun, let ci = io.environment["CI"], !ci.isEmpty, ci != "0", ci.lowercased() != "false" {
            return usage("--update is refused when CI is set: review and update expectations on your machine")
        }
        let coverage = given.coverage || given.minCoverage != nil ? RuleCoverage(ruleset: ruleset) : nil
        return .success(Request(given: given, ruleset: ruleset, coverage: coverage))
    }

    /// One scenario file: its diagnostics, its run with each day's expectations checked when
    /// the day has closed (the run then forgets the day: a scenario of thousands of days holds
    /// one at a time), its failures explained and, with --update, rewritten.
    static func test(
        _ loaded: SimulationSupport.LoadedScenario, files: [RulesetDirectory.File], _ request: Request, _ io: CommandIO, _ tally: inout Tally
    ) {
        // Errors fail the scenario; warnings (samples the app may not read, …) fail nothing.
        tally.out += loaded.rendered(color: false)
        guard let scenario = loaded.scenario else {
            tally.failed += 1
            return
        }
        let ruleset = request.ruleset
        var outcomes: [ExpectationResult] = []
        let result = Simulation.run(
            scenario, ruleset: ruleset,
            sink: KeepingForExpectations(
                observe: request.coverage.map { collector in { collector.observe($0, $1) } },
                dayDone: { outcomes += ExpectationChecker.check($0, ruleset: ruleset) }))
        // Problems fail through the day's `problems:` expectation (0 unless given);
        // here they are shown where the scenario caused them.
        for problem in result.problems {
            tally.out += "  problem at \(problem.origin.file):\(problem.origin.location.line):\(problem.origin.location.column): \(problem.message)\n"
        }
        var scenarioFailures = 0
        for outcome in outcomes {
            if outcome.passed {
                tally.passed += 1
                continue
            }
            scenarioFailures += 1
            tally.out += failure(outcome, result)
        }
        // A response that now comes before its notice means the story itself changed (the
        // taps meant for a notice happen before it): rewriting the expectations to what now
        // happens would make the scenario assert a different story. Stop and say where.
        let early = result.problems.filter { $0.message.hasPrefix("scenario.not_delivered:") && $0.message.contains("(delivered at ") }
        if request.given.update, scenarioFailures > 0, !early.isEmpty {
            for problem in early {
                tally.out +=
                    "  not updated: \(problem.origin.file):\(problem.origin.location.line): a response now comes before its notice — \(problem.message.dropFirst("scenario.not_delivered: ".count)); move the response after the notice (or remove it), then update\n"
            }
        } else if request.given.update, scenarioFailures > 0, let path = files.first(where: { $0.display == loaded.file })?.path {
            let (changed, left) = updated(
                outcomes.filter { !$0.passed }, file: loaded.file, path: path, dryRun: request.given.dryRun, io: io, into: &tally.out,
                applied: &tally.applied)
            if !request.given.dryRun {
                scenarioFailures = left
                tally.passed += changed
            }
        }
        tally.failed += scenarioFailures
        tally.out += "\(scenarioFailures == 0 ? "ok  " : "FAIL") \(TextRenderer.oneLine("\(loaded.file) — \(scenario.name)"))\n"
    }

    /// A failed expectation: where, what was expected and what happened, and why.
    static func failure(_ outcome: ExpectationResult, _ result: SimulationResult) -> String {
        let origin = outcome.expectation.origin
        var out =
            TextRenderer.oneLine(
                "FAIL \(origin.file):\(origin.location.line):\(origin.location.column) \(outcome.expectation.text) (\(DateFormat.string(outcome.day)))"
            ) + "\n"
        out += "  expected: \(TextRenderer.oneLine(outcome.expected))\n  actual:   \(TextRenderer.oneLine(outcome.actual))\n"
        if let explanation = outcome.explanation {
            out += ExplainCommand.render(explanation, clock: result.clock(at: explanation.at)).split(
                separator: "\n", omittingEmptySubsequences: false
            )
            .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
        }
        return out
    }

    /// Rewrites `failures` in the scenario at `path` and says what changed; returns how many
    /// were updated and how many are left to fix by hand.
    static func updated(
        _ failures: [ExpectationResult], file: String, path: String, dryRun: Bool, io: CommandIO, into out: inout String, applied: inout [Applied]
    ) -> (Int, Int) {
        guard case .success(let bytes) = FileReader.contents(of: path, limit: InputLimits.maxFileBytes) else {
            out += "  cannot read \(TextRenderer.oneLine(file)) to update it\n"
            return (0, failures.count)
        }
        // A byte-order mark is kept as it was (the text is edited without it).
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let hasBOM = bytes.starts(with: bom)
        let text = String(decoding: hasBOM ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)
        let (new, left) = TestUpdate.apply(failures, to: text, file: file)
        guard new != text else {
            out += "  nothing in \(TextRenderer.oneLine(file)) could be updated: fix \(left.count) by hand\n"
            return (0, failures.count)
        }
        if !dryRun, let failure = TestUpdate.rewriteInPlace(path, bytes: (hasBOM ? bom : []) + Array(new.utf8)) {
            io.fail(.cannotUpdate(file: TextRenderer.oneLine(file), reason: "\(failure)"))
            return (0, failures.count)
        }
        out += TestUpdate.diff(text, new, file: file)
        let changed = failures.count - left.count
        let unfixed = Set(left.map(\.expectation.origin))
        applied += failures.filter { !unfixed.contains($0.expectation.origin) }.map(Applied.init)
        out += "  \(dryRun ? "would update" : "updated") \(changed) expectation\(changed == 1 ? "" : "s") in \(TextRenderer.oneLine(file))"
        out += left.isEmpty ? "\n" : "; \(left.count) left to fix by hand\n"
        return (changed, left.count)
    }

    /// An expectation `--update` rewrote (or would), kept for the list by cause.
    struct Applied {
        var cause: String
        var place: String
        var expected: String
        var actual: String

        init(_ failure: ExpectationResult) {
            let origin = failure.expectation.origin
            place = "\(origin.file):\(origin.location.line)"
            expected = failure.expected
            actual = failure.actual
            cause =
                switch failure.expectation.kind {
                case .delivered(let type, _), .suppressed(let type, _): "notification \(type)"
                case .notificationsDelivered: "notifications delivered (count)"
                case .route: "route"
                case .risk: "risk"
                case .day: "day result"
                case .streak: "streak"
                case .xp: "xp"
                case .snapshot: "snapshot"
                case .verdict: "tool verdict"
                case .problems: "problems"
                case .that: "that"
                }
        }

        /// `updates by cause:` with each cause's expectations, most first (then by name).
        static func byCause(_ applied: [Applied], dryRun: Bool) -> String {
            guard !applied.isEmpty else { return "" }
            let groups = Dictionary(grouping: applied, by: \.cause)
            let causes = groups.keys.sorted { (groups[$0]?.count ?? 0, $1) > (groups[$1]?.count ?? 0, $0) }
            var out = dryRun ? "updates by cause (dry run: nothing was written):\n" : "updates by cause:\n"
            for cause in causes {
                let items = groups[cause] ?? []
                out += "  \(cause) (\(items.count)):\n"
                for item in items {
                    out += TextRenderer.oneLine("    \(item.place)  \(item.expected) → \(item.actual)") + "\n"
                }
            }
            return out
        }
    }
}
