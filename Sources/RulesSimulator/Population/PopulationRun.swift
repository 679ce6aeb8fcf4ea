import Dispatch
import Foundation
import RulesDiagnostics
import RulesEngine
import Ruleset

/// Which users a run lives: every `count`-th user from the `index`-th (both 1-based), so
/// shards 1/N … N/N together are the whole population.
public struct Shard: Sendable, Equatable {
    public var index: Int
    public var count: Int

    public static let whole = Shard(index: 1, count: 1)

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `K/N` with 1 ≤ K ≤ N.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, k >= 1, k <= n else { return nil }
        self.init(index: k, count: n)
    }

    public var text: String { "\(index)/\(count)" }

    /// The users of this shard among `users`.
    public func users(of users: Int) -> StrideTo<Int> { stride(from: index, to: users + 1, by: count) }

    /// How many users of `users` this shard lives.
    public func size(of users: Int) -> Int { users >= index ? (users - index) / count + 1 : 0 }
}

/// What a population run lives and how: the population's users and days unless overridden.
public struct PopulationOptions: Sendable {
    public var users: Int
    public var days: Int
    public var seed: UInt64
    public var jobs: Int
    public var shard: Shard

    public init(population: Population, users: Int? = nil, days: Int? = nil, seed: UInt64? = nil, jobs: Int = 1, shard: Shard = .whole) {
        self.users = users ?? population.users
        self.days = days ?? population.days
        self.seed = seed ?? population.seed
        self.jobs = Swift.max(1, jobs)
        self.shard = shard
    }
}

/// Lives every user of a population (SPEC: one engine per user, kept alive across their
/// days, deliveries answered as the user's group answers) and aggregates as it goes.
public enum PopulationRun {
    /// The tally of the users `options` selects, over `options.jobs` threads. Each job lives
    /// every `jobs`-th user of the shard and keeps its own tally; tallies merge exactly, so
    /// the result is the same for any number of jobs.
    ///
    /// `perJob`, when given, makes each job its own copy of the ruleset (decoded anew): jobs
    /// then share no reference-counted objects, whose counts would otherwise bounce between
    /// cores on every retain and release.
    /// `progress`, when given, is called (from any job) with the number of users lived so far.
    public static func run(
        _ population: Population, ruleset: Ruleset, options: PopulationOptions, perJob: (@Sendable () -> Ruleset?)? = nil,
        progress: (@Sendable (Int) -> Void)? = nil
    ) -> PopulationTally {
        var seeded = population
        seeded.seed = options.seed
        let generator = PopulationGenerator(population: seeded, ruleset: ruleset)
        let clock = population.clock
        let users = Array(options.shard.users(of: options.users))
        let jobs = Swift.min(options.jobs, Swift.max(1, users.count))
        let results = Results(count: jobs)
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var tally = PopulationTally()
            let ruleset = (job == 0 ? nil : perJob?()) ?? ruleset
            for index in stride(from: job, to: users.count, by: jobs) {
                live(generator.user(users[index], days: options.days), ruleset: ruleset, clock: clock, into: &tally)
                if let progress { progress(counter.add()) }
            }
            results.set(job, tally)
        }
        var total = PopulationTally()
        for tally in results.all() { total.merge(tally) }
        return total
    }

    /// Lives one user into `tally`; returns their deliveries per day.
    @discardableResult
    static func live(_ user: SyntheticUser, ruleset: Ruleset, clock: LocalClock, into tally: inout PopulationTally) -> [Int] {
        var counter = UserTally(user: user.number, ruleset: ruleset, clock: clock)
        counter.invariants.currentDay = user.scenario.days.first?.date ?? 0
        // The user's own small tally, merged once: copying the job's tally (with its
        // histograms) per user would cost more the more users it holds.
        var mine = PopulationTally()
        let result = Simulation.run(
            user.scenario, ruleset: ruleset, observe: { _, records in counter.count(records, into: &mine) }, responder: user.response,
            retain: false)
        counter.finish(result.engine, into: &mine)
        tally.merge(mine)
        return counter.deliveriesByDay
    }

    /// User `number`'s days as an ordinary simulation (every record kept), for
    /// `rules population … --user N`.
    public static func replay(_ population: Population, ruleset: Ruleset, user number: Int, options: PopulationOptions) -> SimulationResult {
        var population = population
        population.seed = options.seed
        let user = PopulationGenerator(population: population, ruleset: ruleset).user(number, days: options.days)
        return Simulation.run(user.scenario, ruleset: ruleset, responder: user.response)
    }

    /// Users lived so far, over all jobs.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() -> Int {
            lock.withLock {
                count += 1
                return count
            }
        }
    }

    /// Per-job results, written once each from concurrent jobs.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var tallies: [PopulationTally?]
        init(count: Int) { tallies = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ tally: PopulationTally) { lock.withLock { tallies[index] = tally } }
        func all() -> [PopulationTally] { lock.withLock { tallies.compactMap { $0 } } }
    }
}

/// A user-day whose deliveries differ between two rulesets.
public struct ChangedUserDay: Sendable, Equatable {
    public var user: Int
    public var day: Int
    public var old: Int
    public var new: Int
}

extension PopulationRun {
    /// The same users under two rulesets: both tallies and the `limit` user-days whose
    /// deliveries changed most (ties: first user, first day).
    public static func compare(
        _ population: Population, old: Ruleset, new: Ruleset, options: PopulationOptions, limit: Int = 10
    ) -> (old: PopulationTally, new: PopulationTally, changed: [ChangedUserDay]) {
        var seeded = population
        seeded.seed = options.seed
        let oldGenerator = PopulationGenerator(population: seeded, ruleset: old)
        let newGenerator = PopulationGenerator(population: seeded, ruleset: new)
        let clock = population.clock
        let start = population.start
        let users = Array(options.shard.users(of: options.users))
        let jobs = Swift.min(options.jobs, Swift.max(1, users.count))
        let results = Results(count: jobs * 2)
        let changes = Changes(count: jobs)
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var before = PopulationTally()
            var after = PopulationTally()
            var top: [ChangedUserDay] = []
            for index in stride(from: job, to: users.count, by: jobs) {
                let number = users[index]
                let a = live(oldGenerator.user(number, days: options.days), ruleset: old, clock: clock, into: &before)
                let b = live(newGenerator.user(number, days: options.days), ruleset: new, clock: clock, into: &after)
                for day in 0..<Swift.max(a.count, b.count) {
                    let x = day < a.count ? a[day] : 0
                    let y = day < b.count ? b[day] : 0
                    guard x != y else { continue }
                    top.append(ChangedUserDay(user: number, day: start + day, old: x, new: y))
                }
                if top.count > limit * 4 { top = ranked(top, limit) }
            }
            results.set(job * 2, before)
            results.set(job * 2 + 1, after)
            changes.set(job, ranked(top, limit))
        }
        let all = results.all()
        var before = PopulationTally()
        var after = PopulationTally()
        for (index, tally) in all.enumerated() {
            if index % 2 == 0 { before.merge(tally) } else { after.merge(tally) }
        }
        return (before, after, ranked(changes.all(), limit))
    }

    static func ranked(_ days: [ChangedUserDay], _ limit: Int) -> [ChangedUserDay] {
        Array(
            days.sorted {
                let a = abs($0.new - $0.old)
                let b = abs($1.new - $1.old)
                return a != b ? a > b : ($0.user, $0.day) < ($1.user, $1.day)
            }.prefix(limit))
    }

    final class Changes: @unchecked Sendable {
        private let lock = NSLock()
        private var lists: [[ChangedUserDay]]
        init(count: Int) { lists = Array(repeating: [], count: count) }
        func set(_ index: Int, _ list: [ChangedUserDay]) { lock.withLock { lists[index] = list } }
        func all() -> [ChangedUserDay] { lock.withLock { lists.flatMap { $0 } } }
    }
}
