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
            usage:
                "rules diff OLD_DIR NEW_DIR [--scenarios PATH…] [--format text|json|html]\n       rules diff OLD_DIR NEW_DIR --population POP [--users N] [--days N] [--seed S] [--jobs N] [--format text|json]",
            arguments: [("OLD_DIR", "The ruleset before the edit."), ("NEW_DIR", "The ruleset after it.")],
            options: [
                OptionSpec(name: "--scenarios", valueName: "PATH", help: "Scenario files or directories (repeatable).", repeatable: true),
                OptionSpec(name: "--format", valueName: "FORMAT", allowed: ["text", "json", "html"], help: "Output format (default: text)."),
                OptionSpec(name: "--population", valueName: "POP", help: "Live the users of a population file under both rulesets instead."),
                OptionSpec(name: "--users", valueName: "N", help: "With --population: how many users (default: the file's)."),
                OptionSpec(name: "--days", valueName: "N", help: "With --population: how many days (default: the file's)."),
                OptionSpec(name: "--seed", valueName: "S", help: "With --population: the seed (default: the file's)."),
                OptionSpec(name: "--jobs", valueName: "N", help: "With --population: threads (default: every core)."),
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
            let hint = "name two ruleset directories (each with routines/, rules/ and templates/): rules diff OLD_DIR NEW_DIR"
            guard let (ruleset, _) = SimulationSupport.ruleset(parsed, io, hint: hint) else { return .usage }
            rulesets.append(ruleset)
        }
        if let path = arguments.value("--population") { return population(path, rulesets[0], rulesets[1], arguments, io) }
        // NEW_DIR's scenarios, named as the user would (`scenarios/x.yaml`, not `./scenarios/x.yaml`).
        let newDirectory = arguments.positional[1]
        let scenarioPaths =
            arguments.values["--scenarios"] ?? [newDirectory == "." ? "scenarios" : (newDirectory as NSString).appendingPathComponent("scenarios")]
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
        case "html": io.out(diff.html())
        default: io.out(diff.text())
        }
        return diff.isEmpty ? .success : .failure
    }

    /// The same users under both rulesets: each metric's change and the user-days whose
    /// deliveries changed most.
    static func population(_ path: String, _ old: Ruleset, _ new: Ruleset, _ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        let sizes: PopulationCommand.Sizes
        do throws(UsageError) {
            sizes = try PopulationCommand.Sizes(arguments)
        } catch {
            return RulesCLI.usageError(error.message, usage: command.usage, helpName: "diff", io: io)
        }
        // The population is read against the new ruleset (the one being proposed) and must
        // also read against the old one.
        guard let population = PopulationCommand.load(path, ruleset: new, io), PopulationCommand.load(path, ruleset: old, io) != nil else {
            return .failure
        }
        let options: PopulationOptions
        do throws(UsageError) {
            options = try sizes.options(for: population, ruleset: new)
        } catch {
            return RulesCLI.usageError(error.message, usage: command.usage, helpName: "diff", io: io)
        }
        var (before, after, changed) = PopulationRun.compare(population, old: old, new: new, options: options)
        // Each top user-day with why: both replays of that user compared.
        for index in changed.indices {
            changed[index].reason = PopulationRun.reason(changed[index], population: population, old: old, new: new, options: options)
        }
        PopulationReport.complete(&before, ruleset: old)
        PopulationReport.complete(&before, ruleset: new)
        PopulationReport.complete(&after, ruleset: old)
        PopulationReport.complete(&after, ruleset: new)
        let header = PopulationHeader(
            name: population.name, file: path, users: options.users, days: options.days, seed: options.seed, start: population.start,
            rulesetSHA256: "", populationSHA256: population.sha256)
        let diff = PopulationDiff(old: before, new: after, header: header, days: changed, newRuleset: arguments.positional[1])
        switch arguments.value("--format") ?? "text" {
        case "json": io.out(diff.json().prettyRendered() + "\n")
        default: io.out(diff.text())
        }
        return diff.isEmpty ? .success : .failure
    }
}
