import Foundation
import RulesDocument
import RulesEngine
import RulesPopulation
import RulesYAML
import Ruleset
import RulesetFiles

/// The population's speed: user-days per second per core for the shipped ruleset and the
/// office-worker population (no trace output; goal ≥ 10,000), next to the same run's
/// baseline — only drawing the users' days — and with 1 and 2 jobs (scaling with cores).
/// Peak memory (max RSS) is printed after 10 k and 100 k users when asked for with
/// `population-memory` (it takes minutes).
enum PopulationBenchmark {
    static func load(_ repository: String) -> (Population, Ruleset)? { loadWithDocuments(repository).map { ($0.0, $0.1) } }

    /// The population, the ruleset and the documents it was decoded from (each job of
    /// `rules population` but the first decodes its own copy from them).
    static func loadWithDocuments(_ repository: String) -> (Population, Ruleset, [RuleDocument])? {
        let load = Ruleset.load(directory: repository)
        guard let ruleset = load.ruleset,
            let text = try? String(contentsOfFile: repository + "/populations/office_workers.yaml", encoding: .utf8),
            let node = YAMLReader.parse(text, file: "populations/office_workers.yaml").documents.first,
            let population = PopulationLoader.load(node, file: "populations/office_workers.yaml", source: nil, ruleset: ruleset).population
        else { return nil }
        return (population, ruleset, load.documents)
    }

    /// `rules diff`'s population sample: 1,000 users × 14 days under two rulesets with 2 jobs
    /// (goal: within about 5 s with the scenarios and boundary days, which take well under a
    /// second), next to drawing the same users' days.
    static func diffSample(repository: String) {
        guard let (population, ruleset, documents) = loadWithDocuments(repository) else {
            print("diff-sample: the shipped ruleset or populations/office_workers.yaml does not load")
            return
        }
        let (users, days) = (1000, 14)
        let generator = PopulationGenerator(population: population, ruleset: ruleset)
        let drawing = Measure.best(runs: 3) {
            for number in 1...users { blackHole(generator.user(number, days: days)) }
        }
        let options = PopulationOptions(population: population, users: users, days: days, jobs: 2)
        // As `rules diff` runs: every job but the first decodes its own copies.
        let copies: @Sendable () -> (old: Ruleset, new: Ruleset)? = {
            Ruleset.load(documents: documents).ruleset.flatMap { old in Ruleset.load(documents: documents).ruleset.map { (old, $0) } }
        }
        let seconds = Measure.best(runs: 2) {
            blackHole(PopulationRun.compare(population, old: ruleset, new: ruleset, options: options, perJob: copies))
        }
        print(
            "diff.population_sample: \(Measure.format(seconds, decimals: 2)) s for 1,000 users x 14 days under both rulesets, 2 jobs; "
                + "\(Measure.format(seconds / drawing, decimals: 1))x drawing them once (goal: the whole diff within about 5 s)")
    }

    static func run(repository: String) {
        guard let (population, ruleset, documents) = loadWithDocuments(repository) else {
            print("population: the shipped ruleset or populations/office_workers.yaml does not load")
            return
        }
        let users = 400
        let days = 28
        let userDays = Double(users * days)
        let generator = PopulationGenerator(population: population, ruleset: ruleset)
        // Drawing the users (the baseline) and living them with 1 and 2 jobs, measured in turns
        // (best of 3 rounds each): measured one after the other, the baseline alone moved
        // between 377,000 and 662,000 user-days/s from run to run on a shared host. The
        // drawing is repeated within a round (once took ~18 ms, shorter than the host's own
        // hiccups: the ratio moved between 60x and 82x within an hour).
        let drawings = 10
        var bodies: [() -> Void] = [
            {
                for _ in 1...drawings {
                    for number in 1...users { blackHole(generator.user(number, days: days)) }
                }
            }
        ]
        for jobs in [1, 2] {
            let options = PopulationOptions(population: population, users: users, days: days, jobs: jobs)
            // As `rules population` runs: every job but the first decodes its own copy.
            bodies.append {
                blackHole(PopulationRun.run(population, ruleset: ruleset, options: options, perJob: { Ruleset.load(documents: documents).ruleset }))
            }
        }
        // The host's own ceiling for 2 jobs, in the same turns: work that shares no memory
        // between its threads, on 1 thread and split over 2. On this kind of shared host two
        // busy cores are not twice one: two separate `rules population` processes each ran
        // as slowly as the 2 jobs of one process.
        bodies.append { privateWork(threads: 1) }
        bodies.append { privateWork(threads: 2) }
        let times = Measure.bestInTurns(rounds: 3, bodies)
        let drawing = times[0] / Double(drawings)
        print("population.draw_only: \(Measure.format(userDays / drawing, decimals: 0)) user-days/s (baseline: drawing the users' days)")
        for (index, jobs) in [1, 2].enumerated() {
            let seconds = times[index + 1]
            let rate = userDays / seconds
            print(
                "population.jobs_\(jobs): \(Measure.format(rate, decimals: 0)) user-days/s, \(Measure.format(rate / Double(jobs), decimals: 0)) per core; "
                    + "\(Measure.format(seconds / drawing, decimals: 1))x the drawing baseline (goal ≤ 20x with one job; ≥ 10,000 per core)")
        }
        let (one, two) = (times[1], times[2])
        print("population.scaling: 2 jobs run \(Measure.format(one / two))x as fast as 1 (goal ≥ 1.8x; 2 cores: at most 2x)")
        print(
            "population.host_scaling: work sharing no memory runs \(Measure.format(times[3] / times[4]))x as fast on 2 threads as on 1 "
                + "(this host's ceiling for 2 jobs in the same turns)")
        // 2 jobs three ways, measured in turns: tables prepared per job from one decoded
        // ruleset, the ruleset decoded anew per job from the same documents (as `rules
        // population` runs), and one prepared ruleset shared by both.
        let options = PopulationOptions(population: population, users: users, days: days, jobs: 2)
        let prepared = PreparedRuleset(ruleset)
        let sharing = Measure.bestInTurns(
            rounds: 5,
            [
                { blackHole(PopulationRun.run(population, ruleset: ruleset, options: options)) },
                {
                    blackHole(
                        PopulationRun.run(population, ruleset: ruleset, options: options, perJob: { Ruleset.load(documents: documents).ruleset })
                    )
                },
                { blackHole(PopulationRun.run(population, ruleset: ruleset, options: options, shared: prepared)) },
            ])
        print(
            "population.sharing: 2 jobs, 1 job's time divided by theirs (best of 5, in turns) — one ruleset prepared per job "
                + "\(Measure.format(one / sharing[0]))x, each its own decoded ruleset (as run) \(Measure.format(one / sharing[1]))x, "
                + "one prepared ruleset for both \(Measure.format(one / sharing[2]))x")
    }

    /// Fixed work on `threads` threads, each its share on memory of its own (arithmetic over a
    /// private buffer and small allocations): nothing is shared, so its speed-up from 1 to 2
    /// threads is what the host gives two busy cores.
    static func privateWork(threads: Int) {
        let passes = 2_400
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var buffer = [UInt64](repeating: 1, count: 1 << 15)
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            var kept: [[UInt64]] = []
            for pass in 0..<(passes / threads) {
                for index in buffer.indices {
                    state = state &* 6_364_136_223_846_793_005 &+ buffer[index]
                    buffer[index] = state >> 7
                }
                kept.append(Array(buffer[0..<64]))
                if pass % 64 == 63 { kept.removeAll(keepingCapacity: true) }
            }
            blackHole((buffer, kept))
        }
    }

    /// Peak memory after living 10 k and then 100 k users for 2 days: flat in users when the
    /// tally is aggregated as users are lived.
    static func memory(repository: String) {
        guard let (population, ruleset) = load(repository) else { return }
        for users in [10_000, 100_000] {
            let options = PopulationOptions(population: population, users: users, days: 2, jobs: ProcessInfo.processInfo.activeProcessorCount)
            let start = DispatchTime.now().uptimeNanoseconds
            blackHole(PopulationRun.run(population, ruleset: ruleset, options: options))
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print("population.memory: \(users) users × 2 days in \(Measure.format(seconds, decimals: 1)) s, peak RSS \(peakRSS()) MB")
        }
    }

    /// The process's peak resident set (VmHWM), in MB.
    static func peakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return (Int(digits) ?? 0) / 1024
        }
        return 0
    }
}
