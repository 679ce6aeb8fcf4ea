import Foundation
import RulesDiagnostics
import RulesEngine
import RulesPopulation
import RulesTune
import Ruleset
import RulesetFiles

/// What `rules tune` checks before any user is lived: the knobs and their values, the
/// targets and the objective, the sizes, the budget and every candidate's ruleset. Every
/// problem is a usage error (exit 2) and nothing is lived or written.
enum TuneSetup {
    /// Defaults: the last round of a search lives 1,000 users × 14 days, as the sample of
    /// `rules diff` does.
    static let defaultUsers = 1_000
    static let defaultDays = 14

    static func question(
        _ given: TuneCommand.Options, catalogue: KnobCatalogue, metrics: [String]
    ) -> Result<TuneQuestion, KnobProblem> {
        guard !given.vary.isEmpty else {
            return .failure(
                KnobProblem("tune needs a knob to vary", hint: "e.g. --vary policy.max_per_day=2..4 (rules tune --list-knobs lists them)"))
        }
        var knobs: [Knob] = []
        var values: [[Double]] = []
        for text in given.vary {
            switch KnobRange.parse(text, catalogue: catalogue) {
            case .failure(let problem): return .failure(problem)
            case .success(let (knob, range)):
                guard !knobs.contains(where: { $0.name == knob.name }) else {
                    return .failure(
                        KnobProblem("--vary names \(knob.name) twice", hint: "give each knob once, with every value in one range or list"))
                }
                knobs.append(knob)
                values.append(range)
            }
        }
        var targets: [TuneTarget] = []
        for text in given.targets {
            switch TuneTarget.parse(text, metrics: metrics) {
            case .failure(let problem): return .failure(problem)
            case .success(let target): targets.append(target)
            }
        }
        if given.maximise != nil, given.minimise != nil { return .failure(KnobProblem("--maximise and --minimise exclude each other")) }
        let objective = given.maximise ?? given.minimise
        if let objective, !metrics.contains(objective) {
            let near = Suggestions.nearest(to: objective, among: metrics)
            return .failure(
                KnobProblem(
                    "--\(given.maximise != nil ? "maximise" : "minimise") names an unknown metric '\(TuneQuestion.shown(objective))'",
                    hint: near.map { "did you mean '\($0)'? (rules tune --list-metrics lists them all)" }
                        ?? "rules tune --list-metrics lists them all"))
        }
        guard objective != nil || !targets.isEmpty else {
            return .failure(
                KnobProblem("tune needs something to look for", hint: "give --target 'METRIC OP VALUE', --maximise METRIC or --minimise METRIC"))
        }
        let question = TuneQuestion(knobs: knobs, values: values, targets: targets, objective: objective, maximise: given.minimise == nil)
        if let contradiction = question.contradiction { return .failure(KnobProblem("the targets contradict each other: \(contradiction)")) }
        guard question.gridSize <= TuneQuestion.maxGrid else {
            return .failure(
                KnobProblem(
                    "the knobs' values make \(question.gridSize) combinations, over the limit of \(TuneQuestion.maxGrid)",
                    hint: "take larger steps or fewer knobs (at most \(TuneQuestion.maxCandidates) candidates are lived; a larger grid is sampled)"))
        }
        return .success(question)
    }

    /// The metric names targets and the objective may use, for this ruleset and population.
    static func metrics(ruleset: Ruleset, population: Population) -> [String] {
        PopulationMetric.names(ruleset: ruleset, groups: population.groups.map(\.name), answers: population.groups.contains { !$0.behaviour.isEmpty })
    }

    /// The sizes, the candidates within the budget and each candidate's ruleset.
    static func setup(
        _ given: TuneCommand.Options, question: TuneQuestion, metrics: [String], population: Population, read: RulesetLoad, prefix: String,
        _ io: CommandIO
    )
        -> Result<TuneSearch.Setup, KnobProblem>
    {
        let users = given.users ?? defaultUsers
        let days = given.days ?? defaultDays
        guard Population.livesWithinEngineDays(start: population.start, days: days) else {
            return .failure(KnobProblem("--days \(days) runs past the last day the engine can close"))
        }
        guard let ruleset = read.ruleset else { return .failure(KnobProblem("the ruleset has errors")) }
        if let problem = population.workProblem(users: users, days: days, ruleset: ruleset) { return .failure(KnobProblem(problem)) }
        var limit = Swift.min(question.gridSize + 1, TuneQuestion.maxCandidates)
        if let budget = given.budget {
            guard let fits = TuneSchedule.candidatesWithin(budget, candidates: limit, users: users, days: days) else {
                let least = TuneSchedule(candidates: 2, users: users, days: days).cost
                return .failure(
                    KnobProblem(
                        "--budget \(budget) user-days is too small for one round",
                        hint:
                            "the least that works at \(users) users × \(days) days is \(least) (the current ruleset and one candidate); or lower --users"
                    ))
            }
            limit = fits
        } else if let problem = wholeSearchProblem(candidates: limit, users: users, days: days, population: population, ruleset: ruleset) {
            return .failure(problem)
        }
        let seed = given.seed.map(UInt64.init) ?? population.seed
        let settings = TuneCandidates.make(question, limit: limit, seed: seed)
        var rulesets: [Ruleset] = []
        let directory = io.resolve(given.ruleset)
        for setting in settings {
            let texts = TuneCommand.inside(KnobEdit.texts(setting, knobs: question.knobs, sources: read.sources), prefix)
            guard !texts.isEmpty else {
                // Only the current values write nothing: a candidate whose edit was lost must
                // not live as the current ruleset under another name.
                guard zip(question.knobs, setting.values).allSatisfy({ $0.current == $1 }) else {
                    return .failure(KnobProblem("the candidate \(setting.text(question.knobs)) could not be written into the ruleset's files"))
                }
                rulesets.append(ruleset)
                continue
            }
            var overlay: [String: String] = [:]
            for (file, text) in texts { overlay[(directory as NSString).appendingPathComponent(file)] = text }
            let load = Ruleset.load(directory: directory, displayPrefix: prefix, overlay: overlay)
            guard let candidate = load.ruleset else {
                let first = load.diagnostics.first { $0.severity == .error }
                return .failure(
                    KnobProblem(
                        "the candidate \(setting.text(question.knobs)) does not load: \(first.map { "\($0.file):\($0.location.line): \($0.message)" } ?? "errors")",
                        hint: "narrow the range to values the ruleset accepts"))
            }
            rulesets.append(candidate)
        }
        let jobs = given.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        return .success(
            TuneSearch.Setup(
                population: population, rulesets: rulesets, settings: settings, users: users, days: days, seed: seed, jobs: jobs, metrics: metrics))
    }

    /// The whole search bounded before it starts. Without `--budget`, candidates the objective
    /// cannot tell apart all live to full size, so the most a search can live is every
    /// candidate at `--users` × `--days`; past the bound on events (hours of work) it is refused
    /// with what it would cost. (With `--budget` the search stops at the budget.)
    static func wholeSearchProblem(candidates: Int, users: Int, days: Int, population: Population, ruleset: Ruleset) -> KnobProblem? {
        let perDay = Swift.max(1, population.maxEventsPerDay(ruleset: ruleset))
        let (userDays, over1) = candidates.multipliedReportingOverflow(by: users)
        let (total, over2) = userDays.multipliedReportingOverflow(by: days)
        let (events, over3) = total.multipliedReportingOverflow(by: perDay)
        guard over1 || over2 || over3 || events > Population.maxEvents else { return nil }
        let cost = over1 || over2 ? "more than \(Int.max) user-days" : "up to \(PopulationReport.grouped(total)) user-days"
        return KnobProblem(
            "\(candidates) candidates × \(users) users × \(days) days could live \(cost) (every candidate at full size, when they tie), past the bound of \(Population.maxEvents) events (hours of work)",
            hint: "give --budget USER_DAYS to bound the search, or fewer users, days or knob values")
    }

    /// One progress line on standard error, on a terminal only and never under CI: round,
    /// candidates left, user-days lived and the time left.
    static func progress(_ io: CommandIO, setup: TuneSearch.Setup) -> TuneSearch.Progress? {
        guard isatty(2) == 1, (io.environment["CI"] ?? "").isEmpty else { return nil }
        let started = Date()
        let planned = TuneSchedule(candidates: setup.settings.count, users: setup.users, days: setup.days).cost
        return { round, rounds, alive, lived in
            let elapsed = Date().timeIntervalSince(started)
            let left = lived > 0 ? elapsed / Double(lived) * Double(Swift.max(0, planned - lived)) : 0
            let done = round == rounds
            StandardStream.error.write(
                done
                    ? "\r\u{1B}[K"
                    : "\rround \(round)/\(rounds): \(alive) candidates, \(lived) user-days lived, about \(Int(left.rounded())) s left\u{1B}[K")
        }
    }
}
