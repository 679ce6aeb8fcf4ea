import Foundation
import RulesChangeImpact
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesPopulation
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles

/// `rules diff OLD_DIR NEW_DIR`: what changed in behaviour, not in text.
enum DiffCommand {
    static var command: Command {
        Command(
            name: "diff",
            abstract: "Show how two rulesets behave differently on the same scenarios.",
            discussion: """
                First lists every element that differs between the rulesets (a rule entry, a
                threshold, a time, a policy value, a template, a setting) and whether the
                compared runs reached it where the change matters: a threshold moved from a to b
                only when some value seen lies between a and b. Then simulates the scenarios
                (default: NEW_DIR's scenarios/) against both rulesets and reports notifications
                gained, lost or moved, route and risk changes with the minutes they moved, day
                results and streaks, and rendered texts that changed. For each moved threshold no
                scenario reached, generated boundary days on both sides of the old and new values
                are lived under both rulesets and reported apart. When NEW_DIR has populations/,
                a fixed-seed sample of its first population file (1,000 users × 14 days, 2 jobs)
                is lived under both. The population part leads with a verdict: the headline metrics
                whose paired difference (the same users under both) moved beyond its 95 % interval,
                worse for users first, by standardised effect; a new notice's own counters are not
                news. Then its changed headline metrics.
                Exit status: 0 nothing changed and every change was reached; 1 the scenarios
                behave differently (or, with --population, the population does); 3 the scenarios
                behave the same but some change was never reached by them; 2 usage errors.
                """,
            usageArguments: "OLD_DIR NEW_DIR",
            arguments: [("OLD_DIR", "The ruleset before the edit."), ("NEW_DIR", "The ruleset after it.")],
            options: Options.self,
            run: run)
    }

    /// The report formats: those of every report, and Markdown for pull requests.
    enum Format: String, CaseIterable, ArgumentValue {
        case text, json, html, markdown
    }

    /// The options as given.
    struct Options: CommandOptions {
        typealias Sizes = PopulationCommand.Sizes
        var positional: [String] = []
        /// Absent: NEW_DIR's scenarios/.
        var scenarios: [String]?
        var format = Format.text
        var out: String?
        var population: String?
        var sizes = Sizes()
        var noPopulation = false

        static var fields: [OptionField<Self>] {
            [
                .repeated(\.scenarios, OptionSpec(name: "--scenarios", valueName: "PATH", help: "Scenario files or directories (repeatable).")),
                .option(
                    \.format,
                    OptionSpec(
                        name: "--format", valueName: "FORMAT",
                        help: "Output format (default: text; markdown: short, for a pull-request comment or a job summary).")),
                .option(\.out, OptionSpec(name: "--out", valueName: "FILE", help: "Write to FILE instead of standard output.")),
                .option(
                    \.population,
                    OptionSpec(
                        name: "--population", valueName: "POP",
                        help: "Live the users of this population file under both rulesets (default: NEW_DIR's first, as a sample).")),
                .number(
                    \.sizes.users, in: Sizes.users,
                    OptionSpec(
                        name: "--users", valueName: "N", help: "Population users (default: 1,000 for the sample, else the file's).",
                        within: "--population")),
                .number(
                    \.sizes.days, in: Sizes.days,
                    OptionSpec(
                        name: "--days", valueName: "N", help: "Population days (default: 14 for the sample, else the file's).", within: "--population"
                    )),
                .number(
                    \.sizes.seed, in: Sizes.seeds,
                    OptionSpec(name: "--seed", valueName: "S", help: "Population seed (default: the file's).", within: "--population")),
                .number(
                    \.sizes.jobs, in: Sizes.jobs,
                    OptionSpec(
                        name: "--jobs", valueName: "N", help: "Population threads (default: 2 for the sample, else every core).",
                        within: "--population")),
                .flag(\.noPopulation, OptionSpec(name: "--no-population", help: "Skip the population sample.", instead: "--population")),
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard given.positional.count == 2 else {
            return RulesCLI.usageError("diff takes OLD_DIR and NEW_DIR", usage: command.usage, helpName: "diff", io: io)
        }
        if given.noPopulation, given.population != nil {
            return RulesCLI.usageError("--no-population and --population exclude each other", usage: command.usage, helpName: "diff", io: io)
        }
        var rulesets: [Ruleset] = []
        var documents: [[RuleDocument]] = []
        for path in given.positional {
            let hint = "name two ruleset directories (each with routines/, rules/ and templates/): rules diff OLD_DIR NEW_DIR"
            guard let read = SimulationSupport.loaded(path, io, hint: hint), let ruleset = read.ruleset else { return .usage }
            rulesets.append(ruleset)
            documents.append(read.documents)
        }
        let (old, new) = (rulesets[0], rulesets[1])
        let newDirectory = given.positional[1]
        func inNew(_ name: String) -> String { newDirectory == "." ? name : (newDirectory as NSString).appendingPathComponent(name) }
        // The population first: its usage errors come before any work.
        let explicit = given.population
        var sample: PopulationSample?
        if !given.noPopulation, let path = explicit ?? firstPopulation(in: newDirectory, io) {
            let perJob = copies(documents[0], documents[1])
            switch PopulationSample.live(path, old, new, given.sizes, newRuleset: newDirectory, explicit: explicit != nil, copies: perJob, io) {
            case .success(let lived): sample = lived
            case .failure(let code): return code.exit
            }
        }
        // NEW_DIR's scenarios, named as the user would (`scenarios/x.yaml`, not `./scenarios/x.yaml`);
        // none when it has no scenarios/ and none were named.
        var scenarioPaths = given.scenarios ?? [inNew("scenarios")]
        if given.scenarios == nil, !FileManager.default.fileExists(atPath: io.resolve(scenarioPaths[0])) {
            io.err("note: \(scenarioPaths[0]) does not exist; no scenarios compared\n")
            scenarioPaths = []
        }
        guard let files = scenarioPaths.isEmpty ? [] : SimulationSupport.scenarioFiles(scenarioPaths, io) else { return .usage }
        let diff = BehaviourDiff.compare(pairs(files, old: old, new: new, io), old: old, new: new)
        let boundary = BoundaryDays.compare(diff.elements, old: old, new: new) { name, text in
            YAMLReader.parse(text, file: name).documents.first { !$0.isNull }
        }
        let templates = TemplateChangePreview.make(diff.elements, old: old, new: new)
        let report = ChangeReport(diff: diff, boundary: boundary, templates: templates, sample: sample)
        let inputs =
            given.positional.flatMap { SimulationSupport.inputs(ruleset: $0, io, extra: []) } + files.map(\.path) + (explicit.map { [$0] } ?? [])
        guard write(report, given, inputs: inputs, io) else { return .usage }
        if !diff.isEmpty || (explicit != nil && sample?.changed == true) { return .failure }
        return diff.unreached.isEmpty ? .success : .unreached
    }

    /// The scenarios read against both rulesets; one that does not load against both is said
    /// and skipped.
    static func pairs(_ files: [RulesetDirectory.File], old: Ruleset, new: Ruleset, _ io: CommandIO) -> [(old: Scenario, new: Scenario)] {
        var pairs: [(old: Scenario, new: Scenario)] = []
        for (a, b) in zip(SimulationSupport.scenarios(files, ruleset: old), SimulationSupport.scenarios(files, ruleset: new)) {
            guard let oldScenario = a.scenario, let newScenario = b.scenario else {
                io.err("warning: \(a.file) does not load against both rulesets; skipped\n")
                continue
            }
            pairs.append((oldScenario, newScenario))
        }
        return pairs
    }

    /// The report in the chosen format, to standard output or `--out` (never over an input).
    static func write(_ report: ChangeReport, _ given: Options, inputs: [String], _ io: CommandIO) -> Bool {
        let output: String
        switch given.format {
        case .markdown: output = DiffMarkdown(report: report).render()
        case .text: output = report.rendered(.text) ?? ""
        case .json: output = report.rendered(.json) ?? ""
        case .html: output = report.rendered(.html) ?? ""
        }
        guard let out = given.out else {
            io.out(output)
            return true
        }
        guard io.writeAtomically(output, to: out, inputs: inputs) else { return false }
        io.out("wrote \(out)\n")
        return true
    }

    /// Copies of the two rulesets decoded from the documents read once, for every job of the
    /// population sample but the first (its own objects, not the first job's).
    static func copies(_ old: [RuleDocument], _ new: [RuleDocument]) -> @Sendable () -> (old: Ruleset, new: Ruleset)? {
        {
            guard let old = Ruleset.load(documents: old).ruleset, let new = Ruleset.load(documents: new).ruleset else { return nil }
            return (old, new)
        }
    }

    /// The first population file (by name) under NEW_DIR's populations/, found by the same walk
    /// as the ruleset's files: a link out of the directory is said (`io.outside_root`), never read.
    static func firstPopulation(in directory: String, _ io: CommandIO) -> String? {
        var problems: [Diagnostic] = []
        let prefix = directory == "." ? "" : directory
        let files = RulesetDirectory.files(in: io.resolve(directory), folders: ["populations"], prefix: prefix, problems: &problems)
        if !problems.isEmpty { io.out(TextRenderer(color: io.useColor).render(problems, sources: [:])) }
        return files.map(\.display).sorted().first
    }
}

/// What `rules diff` reports: the scenarios' behaviour diff, the boundary days lived for the
/// changes no scenario reached, and the population sample.
struct ChangeReport: Report {
    var diff: BehaviourDiff
    var boundary: BoundaryDays
    /// The changed templates no scenario showed, rendered on the preview's days.
    var templates = TemplateChangePreview(templates: [])
    var sample: PopulationSample?

    /// The first line's word on the population sample: how many headline metrics changed and
    /// the one that moved most, so a sample that moved is never only said at the bottom.
    var sampleHeadline: String? {
        if let sample, sample.changed, let verdict = sample.diff.verdict { return "the population sample: " + verdict.summary }
        guard let sample, sample.changed, let largest = sample.diff.largestHeadline else { return nil }
        let count = sample.lines.count
        return "the population sample changed \(count) headline metric\(count == 1 ? "" : "s") (most: \(largest))"
    }

    func text() -> String {
        var out = diff.text()
        if let headline = sampleHeadline, let end = out.firstIndex(of: "\n") { out.insert(contentsOf: "; " + headline, at: end) }
        if !boundary.days.isEmpty {
            out += "\nboundary days (generated for the changes no scenario reached, not your scenarios):\n"
            out += boundary.lines.map { "  " + $0 + "\n" }.joined()
        }
        if !templates.templates.isEmpty {
            out += "\nchanged templates no scenario showed, on the preview's sample days (old → new):\n"
            out += templates.lines.map { "  " + $0 + "\n" }.joined()
        }
        if let sample { out += "\n" + sample.text() }
        return out
    }

    func json() -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if case .object(let scenario) = diff.json() { fields = scenario }
        fields.append(("boundary_days", boundary.json()))
        fields.append(("unseen_templates", templates.json()))
        fields.append(("population", sample.map { $0.json() } ?? .null))
        return .object(fields)
    }

    func html() -> String? { diff.html(extra: extraHTML) }

    /// The boundary days and the population sample as sections of the HTML page.
    var extraHTML: String {
        let escape = HTMLReport.escape
        var out = ""
        if !boundary.days.isEmpty {
            out += "<div class=\"day\"><h2>Boundary days (generated, not your scenarios)</h2>\n"
            for line in boundary.lines { out += "<div class=\"change\">\(escape(line))</div>\n" }
            out += "</div>\n"
        }
        if !templates.templates.isEmpty {
            out += "<div class=\"day\"><h2>Changed templates no scenario showed</h2>\n"
            for line in templates.lines { out += "<div class=\"change\">\(escape(line))</div>\n" }
            out += "</div>\n"
        }
        if let sample {
            out += "<div class=\"day\"><h2>\(escape(sample.title))</h2>\n"
            if sample.changed, let verdict = sample.diff.verdict {
                for line in verdict.lines() { out += "<div class=\"change\"><strong>\(escape(line))</strong></div>\n" }
            }
            for line in sample.lines { out += "<div class=\"change\">\(escape(line))</div>\n" }
            if sample.lines.isEmpty { out += "<div class=\"change\">no headline metric changed</div>\n" }
            out += "</div>\n"
        }
        return out
    }

}

/// The population part of `rules diff`: the same users under both rulesets.
struct PopulationSample {
    var diff: PopulationDiff
    /// Named with --population (every changed metric and the user-days that changed most)
    /// or the default sample (headline metrics only).
    var explicit: Bool

    var changed: Bool { !diff.changes.isEmpty }

    /// The title, the population file named inside the compared directory it came from.
    var title: String {
        var shown = diff
        let new = diff.newRuleset
        if new != ".", shown.header.file.hasPrefix(new + "/") { shown.header.file = String(shown.header.file.dropFirst(new.count + 1)) }
        return shown.title(sample: !explicit)
    }

    var lines: [String] { diff.lines(headlineOnly: !explicit) }

    func text() -> String {
        if explicit { return diff.text() }
        var out =
            title + ": " + (lines.isEmpty ? "no headline metric changed\n" : "\(lines.count) headline metric\(lines.count == 1 ? "" : "s") changed\n")
        if changed, let verdict = diff.verdict {
            out += verdict.lines().map { "  " + $0 + "\n" }.joined()
            out += "  every changed headline metric:\n"
        }
        out += lines.map { "  " + $0 + "\n" }.joined()
        return out
    }

    func json() -> JSONValue {
        guard case .object(var fields) = diff.json() else { return diff.json() }
        fields.append(("sample", .bool(!explicit)))
        return .object(fields)
    }

    enum Refusal: Error {
        case usage, failure
        var exit: ExitCode { self == .usage ? .usage : .failure }
    }

    /// Lives the population under both rulesets. The sample's defaults: 1,000 users, 14
    /// days, 2 jobs (each no more than the file has).
    static func live(
        _ path: String, _ old: Ruleset, _ new: Ruleset, _ sizes: PopulationCommand.Sizes, newRuleset: String, explicit: Bool,
        copies: (@Sendable () -> (old: Ruleset, new: Ruleset)?)? = nil, _ io: CommandIO
    ) -> Result<PopulationSample, Refusal> {
        var sizes = sizes
        // The population is read against the new ruleset (the one being proposed) and must
        // also read against the old one.
        guard let population = PopulationCommand.load(path, ruleset: new, io), PopulationCommand.load(path, ruleset: old, io) != nil else {
            return .failure(.failure)
        }
        if !explicit {
            sizes.users = sizes.users ?? Swift.min(1000, population.users)
            sizes.days = sizes.days ?? Swift.min(14, population.days)
            if sizes.jobs == nil { sizes.jobs = 2 }
        }
        let options: PopulationOptions
        do throws(UsageError) {
            options = try sizes.options(for: population, ruleset: new)
        } catch {
            _ = RulesCLI.usageError(error.message, usage: DiffCommand.command.usage, helpName: "diff", io: io)
            return .failure(.usage)
        }
        let judging = PopulationVerdict(old: old, new: new, answers: population.groups.contains { !$0.behaviour.isEmpty })
        var (before, after, changed, verdict) = PopulationRun.compare(
            population, old: old, new: new, options: options, perJob: copies, judging: judging)
        // Each top user-day with why: both replays of that user compared.
        if explicit {
            for index in changed.indices {
                changed[index].reason = PopulationRun.reason(changed[index], population: population, old: old, new: new, options: options)
            }
        }
        PopulationReport.complete(&before, ruleset: old)
        PopulationReport.complete(&before, ruleset: new)
        PopulationReport.complete(&after, ruleset: old)
        PopulationReport.complete(&after, ruleset: new)
        let header = PopulationHeader(
            name: population.name, file: path, users: options.users, days: options.days, seed: options.seed, start: population.start,
            rulesetSHA256: "", populationSHA256: population.sha256)
        var diff = PopulationDiff(
            old: before, new: after, header: header, days: explicit ? changed : [], newRuleset: newRuleset)
        diff.unmodelled = Unmodelled(population)
        diff.verdict = verdict
        return .success(PopulationSample(diff: diff, explicit: explicit))
    }
}
