import Dispatch
import Foundation
import RulesEngine
import RulesPopulation
import Ruleset

/// One candidate of a search: its knob values, its ruleset, what it lived and how it ended.
package struct TuneCandidate: Sendable {
    package var setting: KnobSetting
    /// The users lived, in order (a prefix of the population's).
    var outcomes: [UserOutcome] = []
    /// Their tally, as `rules population` would count it.
    package var tally = PopulationTally()
    /// The last round it was judged in (0-based), and why it stopped (nil: it lived the last round).
    package var round = 0
    package var stopped: String?
    /// The estimates of the targets and the objective in each round it was judged in.
    package var rounds: [[String: TuneEstimate]] = []
    /// The estimates of every reported metric at its last round.
    package var estimates: [String: TuneEstimate] = [:]

    package var users: Int { outcomes.count }
}

/// What a search found: every candidate, the rounds it ran, and the user-days it lived.
package struct TuneResult: Sendable {
    package var question: TuneQuestion
    package var schedule: TuneSchedule
    package var candidates: [TuneCandidate]
    /// The metrics each candidate reports (targets, objective, then headline metrics).
    package var metrics: [String]
    package var userDays: Int
    /// Rounds that ran (fewer than planned when the budget ended first).
    package var roundsRun: Int
    package var budgetEnded = false
    package var population: Int
    package var days: Int
    package var seed: UInt64
    /// What the population leaves out of its users' behaviour.
    package var unmodelled: Unmodelled?

    /// Candidates that lived the last round and meet every target with confidence, best first.
    package var meeting: [Int] {
        let finals = candidates.indices.filter { candidates[$0].stopped == nil }
        let meets = finals.filter { index in
            question.targets.allSatisfy { target in candidates[index].estimates[target.metric].map(target.met) ?? false }
        }
        return meets.sorted { better($0, $1) }
    }

    /// Whether candidate `a` ranks before `b`: the objective (or the first target's margin),
    /// then the earlier candidate.
    func better(_ a: Int, _ b: Int) -> Bool {
        let x = score(a)
        let y = score(b)
        return x != y ? x > y : a < b
    }

    func score(_ index: Int) -> Double { TuneSearch.score(candidates[index].estimates, question) }

    /// The candidates meeting every target that the objective cannot tell from the best: their
    /// paired difference from it (over the same users) covers 0. Empty without an objective.
    package var tied: [(candidate: Int, difference: TuneEstimate)] {
        guard let objective = question.objective, let best = meeting.first else { return [] }
        return meeting.dropFirst().compactMap { index in
            guard let d = TuneSearch.paired(objective, index, best, candidates, population: population, seed: seed),
                d.differenceLow <= 0, d.differenceHigh >= 0
            else { return nil }
            return (index, d)
        }
    }
}

/// Successive halving over candidates that live the same users with the same streams.
package enum TuneSearch {
    /// What the search needs besides the question.
    package struct Setup: Sendable {
        package var population: Population
        package var rulesets: [Ruleset]
        package var settings: [KnobSetting]
        package var users: Int
        package var days: Int
        package var seed: UInt64
        package var jobs: Int
        package var metrics: [String]

        package init(
            population: Population, rulesets: [Ruleset], settings: [KnobSetting], users: Int, days: Int, seed: UInt64, jobs: Int, metrics: [String]
        ) {
            self.population = population
            self.rulesets = rulesets
            self.settings = settings
            self.users = users
            self.days = days
            self.seed = seed
            self.jobs = jobs
            self.metrics = metrics
        }
    }

    /// Progress after each batch: round (1-based), rounds, candidates alive, user-days lived.
    package typealias Progress = @Sendable (_ round: Int, _ rounds: Int, _ alive: Int, _ userDays: Int) -> Void

    package static func run(_ question: TuneQuestion, _ setup: Setup, budget: Int?, progress: Progress? = nil) -> TuneResult {
        let schedule = TuneSchedule(candidates: setup.settings.count, users: setup.users, days: setup.days)
        var population = setup.population
        population.seed = setup.seed
        var candidates = setup.settings.map { TuneCandidate(setting: $0) }
        let judged = Array(Set(question.targets.map(\.metric) + [question.objective].compactMap { $0 })).sorted()
        var result = TuneResult(
            question: question, schedule: schedule, candidates: [], metrics: [], userDays: 0, roundsRun: 0, population: setup.users, days: setup.days,
            seed: setup.seed)
        result.unmodelled = Unmodelled(setup.population)
        var alive = Array(candidates.indices)
        for (round, users) in schedule.users.enumerated() {
            if let budget, round > 0 {
                let next = (alive.count + (alive.contains(0) ? 0 : 1)) * (users - candidates[0].users) * setup.days
                if result.userDays + next > budget {
                    result.budgetEnded = true
                    break
                }
            }
            let living = alive.contains(0) ? alive : [0] + alive
            result.userDays += live(living, upTo: users, &candidates, population: population, setup: setup)
            result.roundsRun = round + 1
            progress?(round + 1, schedule.users.count, alive.count, result.userDays)
            for index in alive {
                candidates[index].round = round
                candidates[index].rounds.append(estimates(judged, index, candidates, setup, question))
            }
            guard round < schedule.users.count - 1 else { break }
            alive = prune(alive, round: round, keep: schedule.alive[round + 1], &candidates, question, population: setup.users, seed: setup.seed)
        }
        let reported = reportedMetrics(question, names: setup.metrics)
        // Each candidate's estimates alone (a quantile's resamples are the costly part), over the jobs.
        let finals = PopulationRun.Results<[String: TuneEstimate]>(count: candidates.count)
        let lived = candidates
        let jobs = Swift.max(1, Swift.min(setup.jobs, lived.count))
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            for index in stride(from: job, to: lived.count, by: jobs) { finals.set(index, estimates(reported, index, lived, setup, question)) }
        }
        for (index, found) in finals.all().enumerated() { candidates[index].estimates = found }
        result.candidates = candidates
        result.metrics = reported
        return result
    }

    /// Lives users `candidates[i].users + 1 … upTo` for every candidate of `indices`, over the
    /// jobs; returns the user-days lived. Each result lands at its own (candidate, user) place,
    /// so the outcome is the same for any number of jobs.
    static func live(_ indices: [Int], upTo users: Int, _ candidates: inout [TuneCandidate], population: Population, setup: Setup) -> Int {
        var work: [(candidate: Int, user: Int)] = []
        for index in indices where candidates[index].users < users {
            for user in (candidates[index].users + 1)...users { work.append((index, user)) }
        }
        guard !work.isEmpty else { return 0 }
        let jobs = Swift.max(1, Swift.min(setup.jobs, work.count))
        let results = PopulationRun.Results<[(Int, Int, UserOutcome, PopulationTally)]>(count: jobs)
        let generators = Dictionary(
            uniqueKeysWithValues: indices.map { ($0, PopulationGenerator(population: population, ruleset: setup.rulesets[$0])) })
        let items = work
        let categories = Dictionary(setup.rulesets[0].routines.map { ($0.id, $0.category.rawValue) }, uniquingKeysWith: { a, _ in a })
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var prepared: [Int: PreparedRuleset] = [:]
            var done: [(Int, Int, UserOutcome, PopulationTally)] = []
            for item in stride(from: job, to: items.count, by: jobs).map({ items[$0] }) {
                guard let generator = generators[item.candidate] else { continue }
                let tables = prepared[item.candidate] ?? PreparedRuleset(setup.rulesets[item.candidate])
                prepared[item.candidate] = tables
                var mine = PopulationTally()
                PopulationRun.live(
                    generator.user(item.user, days: setup.days), prepared: tables, clock: population.clock, groups: population.groups, into: &mine)
                done.append((item.candidate, item.user, UserOutcome(mine, categories: categories), mine))
            }
            results.set(job, done)
        }
        var byPlace: [Int: [(Int, UserOutcome, PopulationTally)]] = [:]
        for (candidate, user, outcome, tally) in results.all().flatMap({ $0 }) { byPlace[candidate, default: []].append((user, outcome, tally)) }
        for (candidate, lived) in byPlace {
            for (_, outcome, tally) in lived.sorted(by: { $0.0 < $1.0 }) {
                candidates[candidate].outcomes.append(outcome)
                candidates[candidate].tally.merge(tally)
            }
        }
        return work.count * setup.days
    }

    /// The estimates of `metrics` for candidate `index` over the users it lived, paired with
    /// the baseline's same users; a target's at the question's level for targets.
    static func estimates(
        _ metrics: [String], _ index: Int, _ candidates: [TuneCandidate], _ setup: Setup, _ question: TuneQuestion
    ) -> [String: TuneEstimate] {
        let n = candidates[index].users
        let mine = candidates[index].outcomes[0..<n]
        let base = candidates[0].outcomes[0..<Swift.min(n, candidates[0].users)]
        guard base.count == n else { return [:] }
        var out: [String: TuneEstimate] = [:]
        for metric in metrics {
            guard let form = PopulationMetric.form(metric) else { continue }
            let level = question.targets.contains { $0.metric == metric } ? question.targetLevel : 0.95
            out[metric] = TuneEstimate.of(form, users: mine, baseline: base, population: setup.users, seed: setup.seed, level: level)
        }
        return out
    }

    /// Stops the candidates a target rules out with confidence, then — down to `keep`, worst
    /// first — those the objective ranks below the best candidate that meets every target with
    /// confidence; says why each stopped. More than `keep` may live on.
    static func prune(
        _ alive: [Int], round: Int, keep: Int, _ candidates: inout [TuneCandidate], _ question: TuneQuestion, population: Int = 1, seed: UInt64 = 0
    ) -> [Int] {
        var left: [Int] = []
        for index in alive {
            let now = candidates[index].rounds.last ?? [:]
            if let target = question.targets.first(where: { now[$0.metric].map($0.ruledOut) ?? false }), let e = now[target.metric] {
                candidates[index].stopped =
                    "round \(round + 1): ruled out by '\(target.text)' (\(MetricWords.number(e.value, target.metric)), \(question.levelText(target.metric)) \(MetricWords.number(e.low, target.metric)) … \(MetricWords.number(e.high, target.metric)))"
                continue
            }
            left.append(index)
        }
        guard left.count > keep else { return left }
        let ranked = left.sorted { a, b in
            let x = score(candidates[a].rounds.last ?? [:], question)
            let y = score(candidates[b].rounds.last ?? [:], question)
            return x != y ? x > y : a < b
        }
        // Feasibility before the objective: only a candidate beaten on the objective by one that
        // meets every target with confidence may stop for it; while nothing is sure to meet the
        // targets, a candidate that might be the only one that does lives on.
        guard let leader = ranked.first(where: { question.meetsAll(candidates[$0].rounds.last ?? [:]) }),
            let position = ranked.firstIndex(of: leader)
        else { return left }
        // Only those whose paired difference from the leader is worse with confidence: a
        // candidate the objective cannot tell from the leader lives on (a tie is reported as
        // one, not settled by the draw). Without paired figures the rank decides.
        var differences: [Int: TuneEstimate] = [:]
        let beaten = ranked[(position + 1)...].filter { index in
            guard let objective = question.objective else { return true }
            guard let d = paired(objective, index, leader, candidates, population: population, seed: seed) else { return true }
            differences[index] = d
            return question.maximise ? d.differenceHigh < 0 : d.differenceLow > 0
        }
        let dropping = Array(beaten.suffix(Swift.max(0, Swift.min(beaten.count, left.count - keep))))
        guard !dropping.isEmpty else { return left }
        let what = question.objective ?? question.targets.first.map { "the margin of '\($0.text)'" } ?? "the objective"
        for index in dropping {
            let metric = question.objective ?? ""
            let value = question.objective.flatMap { candidates[index].rounds.last?[$0]?.value }.map { " (\(MetricWords.number($0, metric)))" } ?? ""
            let difference =
                differences[index].map {
                    ", paired difference \(MetricWords.signed($0.difference, metric)) (95 % \(MetricWords.signed($0.differenceLow, metric)) … \(MetricWords.signed($0.differenceHigh, metric)))"
                } ?? ""
            candidates[index].stopped =
                "round \(round + 1): ranked below candidate \(leader), which meets every target with confidence, by \(what)\(value)\(difference)"
        }
        return left.filter { !dropping.contains($0) }
    }

    /// The paired difference `a` − `b` on `metric` over the users both lived (nil: none).
    package static func paired(_ metric: String, _ a: Int, _ b: Int, _ candidates: [TuneCandidate], population: Int, seed: UInt64) -> TuneEstimate? {
        guard let form = PopulationMetric.form(metric) else { return nil }
        let n = Swift.min(candidates[a].outcomes.count, candidates[b].outcomes.count)
        guard n > 0 else { return nil }
        return TuneEstimate.of(
            form, users: candidates[a].outcomes[0..<n], baseline: candidates[b].outcomes[0..<n], population: population, seed: seed)
    }

    /// A candidate's score: the objective (negated to minimise), else the first target's margin.
    static func score(_ estimates: [String: TuneEstimate], _ question: TuneQuestion) -> Double {
        if let objective = question.objective {
            let value = estimates[objective]?.value ?? 0
            return question.maximise ? value : -value
        }
        guard let first = question.targets.first, let e = estimates[first.metric] else { return 0 }
        return first.margin(e.value)
    }

    /// Targets, the objective, then the headline metrics a population diff shows first.
    static func reportedMetrics(_ question: TuneQuestion, names: [String]) -> [String] {
        var out: [String] = []
        for name in question.targets.map(\.metric) + [question.objective].compactMap({ $0 }) where !out.contains(name) { out.append(name) }
        for name in names where PopulationDiff.isHeadline(name) && !name.hasPrefix("groups.") && !out.contains(name) { out.append(name) }
        return out
    }
}
