import Dispatch
import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// Which users a run lives: every `count`-th user from the `index`-th (both 1-based), so
/// shards 1/N … N/N together are the whole population.
package struct Shard: Sendable, Equatable {
    package var index: Int
    package var count: Int

    package static let whole = Shard(index: 1, count: 1)

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `K/N` with 1 ≤ K ≤ N.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, k >= 1, k <= n else { return nil }
        self.init(index: k, count: n)
    }

    package var text: String { "\(index)/\(count)" }

    /// The users of this shard among `users`.
    package func users(of users: Int) -> StrideTo<Int> { stride(from: index, to: users + 1, by: count) }

    /// How many users of `users` this shard lives.
    package func size(of users: Int) -> Int { users >= index ? (users - index) / count + 1 : 0 }
}

/// What a population run lives and how: the population's users and days unless overridden.
package struct PopulationOptions: Sendable {
    package var users: Int
    package var days: Int
    package var seed: UInt64
    package var jobs: Int
    package var shard: Shard
    /// The trial (`--randomize P`): the chance each due delivery is withheld at the device.
    package var randomize: Double = 0

    package init(population: Population, users: Int? = nil, days: Int? = nil, seed: UInt64? = nil, jobs: Int = 1, shard: Shard = .whole) {
        self.users = users ?? population.users
        self.days = days ?? population.days
        self.seed = seed ?? population.seed
        self.jobs = Swift.max(1, jobs)
        self.shard = shard
    }

    /// `population` with this run's seed.
    func seeded(_ population: Population) -> Population {
        var seeded = population
        seeded.seed = seed
        return seeded
    }
}

/// Lives every user of a population (one engine per user, kept alive across their days,
/// deliveries answered as the user's group answers) and aggregates as it goes.
package enum PopulationRun {
    /// The tally of the users `options` selects, over `options.jobs` threads. Each job lives
    /// every `jobs`-th user of the shard and keeps its own tally; tallies merge exactly, so
    /// the result is the same for any number of jobs.
    ///
    /// Every job prepares its own tables (`PreparedRuleset`); with `perJob`, every job but the
    /// first from its own decoded copy of the ruleset (`rules population` decodes each from the
    /// documents it read once, so every job lives the same ruleset). Readings and plan
    /// candidates hold the ruleset's routine and rule boxes and compiled expressions, retained
    /// and released at every app run; shared by two cores, those reference counts bounce
    /// between the cores' caches. Measured in turns (`Benchmarks population`, five runs each):
    /// a copy per job gave 2 jobs 1.61–2.18x one job's speed, tables per job from one decoded
    /// ruleset 1.57–1.97x, one prepared ruleset for both 1.45–1.72x (`shared`, kept for the
    /// benchmark).
    /// `progress`, when given, is called (from any job) with the number of users lived so far.
    package static func run(
        _ population: Population, ruleset: Ruleset, options: PopulationOptions, perJob: (@Sendable () -> Ruleset?)? = nil,
        shared: PreparedRuleset? = nil, progress: (@Sendable (Int) -> Void)? = nil, telemetry: TelemetryBlocks? = nil
    ) -> PopulationTally {
        let generator = PopulationGenerator(population: options.seeded(population), ruleset: ruleset)
        let clock = population.clock
        let counter = Counter()
        let tallies = inJobs(options) { job, users in
            var tally = PopulationTally()
            // Each job its own prepared tables (from its own copy of the ruleset).
            let prepared = perJob == nil ? (shared ?? PreparedRuleset(ruleset)) : PreparedRuleset((job == 0 ? nil : perJob?()) ?? ruleset)
            for number in users {
                var sink: TelemetrySink?
                if let telemetry {
                    // The user's place among the shard's users (every `count`-th from `index`).
                    let position = (number - options.shard.index) / options.shard.count
                    sink = TelemetrySink(blocks: telemetry, position: position, key: TelemetryBlocks.key(seed: options.seed))
                }
                live(
                    generator.user(number, days: options.days), prepared: prepared, clock: clock, groups: population.groups,
                    randomize: options.randomize, telemetry: sink, into: &tally)
                if let progress { progress(counter.add()) }
            }
            return tally
        }
        var total = PopulationTally()
        for tally in tallies { total.merge(tally) }
        return total
    }

    /// Runs `body` on `options.jobs` threads at once, each with the users of the shard it
    /// lives (every `jobs`-th); the jobs' results in job order.
    static func inJobs<Result: Sendable>(_ options: PopulationOptions, _ body: @Sendable (Int, [Int]) -> Result) -> [Result] {
        let users = Array(options.shard.users(of: options.users))
        let jobs = Swift.min(options.jobs, Swift.max(1, users.count))
        let results = Results<Result>(count: jobs)
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            results.set(job, body(job, stride(from: job, to: users.count, by: jobs).map { users[$0] }))
        }
        return results.all()
    }

    /// Lives one user into `tally`; returns their deliveries per day.
    @discardableResult
    package static func live(
        _ user: SyntheticUser, prepared: PreparedRuleset, clock: LocalClock, groups: [PopulationGroup] = [], randomize: Double = 0,
        telemetry: TelemetrySink? = nil, into tally: inout PopulationTally
    ) -> [Int] {
        let ruleset = prepared.ruleset
        // The user's own small tally (in the counter), merged once: copying the job's tally
        // (with its histograms) per user would cost more the more users it holds.
        var counter = UserTally(user: user.number, ruleset: ruleset, clock: clock)
        counter.invariants.currentDay = user.scenario.days.first?.date ?? 0
        let answering = AnsweringUser(user, behaviour: user.behaviour, randomize: randomize, ruleset: ruleset)
        let answers = !user.behaviour.isEmpty || randomize > 0
        // Telemetry reads what the user did (runs, logs, ticks, syncs): every record then.
        var options = SimulationOptions(
            responder: answering.answer, prepared: prepared, recordsKept: telemetry == nil ? .decisions : .all, explains: false)
        if randomize > 0 {
            // The trial's decision points wait for their routine: routines are done at app
            // runs, so each run is watched at its own time (only while a point waits).
            options.afterRun = { engine in
                guard !answering.seen.pending.isEmpty, let at = engine.lastRunAt else { return }
                answering.seen.observe(statuses: { engine.statuses() }, at: at)
            }
        }
        var kept: [EngineRecord] = []
        let result = Simulation.run(
            user.scenario, ruleset: ruleset, options: options,
            sink: Streaming { _, records in
                counter.count(records)
                if telemetry != nil { kept += records.filter { TelemetryBlocks.keeps($0.kind) } }
                guard answers else { return }
                // By index: a record copied out of the array retains its payload.
                for index in records.indices { if case .dayClosed(let close) = records[index].kind { answering.closed(close) } }
            })
        counter.finish(result.engine, group: user.group >= 0 && user.group < groups.count ? groups[user.group].name : nil)
        var mine = counter.tally
        if answers { mine.answers = answering.tally() }
        if let telemetry {
            let lines = Telemetry(ruleset: ruleset, installID: "synthetic-\(user.number)", key: telemetry.key).lines(
                records: kept, withheld: answering.withheld, routines: result.engine.profile.enabledRoutines.sorted(),
                noticesOff: answering.systemOffAt, clock: clock)
            telemetry.blocks.add(position: telemetry.position, lines: lines)
        }
        mine.product.add(user: mine)
        tally.merge(mine)
        return counter.deliveriesByDay
    }

    /// User `number`'s days as an ordinary simulation (every record kept, or as `simulation`
    /// says; the user answers as the population's users do), for `rules population … --user
    /// N` and for checking the engine's switches on synthetic users.
    package static func replay(
        _ population: Population, ruleset: Ruleset, user number: Int, options: PopulationOptions,
        simulation: SimulationOptions = SimulationOptions()
    ) -> SimulationResult {
        let user = PopulationGenerator(population: options.seeded(population), ruleset: ruleset).user(number, days: options.days)
        let answering = AnsweringUser(user, behaviour: user.behaviour, randomize: options.randomize, ruleset: ruleset)
        var simulation = simulation
        simulation.responder = answering.answer
        return Simulation.run(user.scenario, ruleset: ruleset, options: simulation)
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
    package final class Results<Result: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result?]
        package init(count: Int) { slots = Array(repeating: nil, count: count) }
        package func set(_ index: Int, _ result: Result) { lock.withLock { slots[index] = result } }
        package func all() -> [Result] { lock.withLock { slots.compactMap { $0 } } }
    }
}

/// Where one user's telemetry goes.
package struct TelemetrySink {
    var blocks: TelemetryBlocks
    var position: Int
    var key: [UInt8]
}

/// A user-day whose deliveries differ between two rulesets.
package struct ChangedUserDay: Sendable, Equatable {
    package var user: Int
    package var day: Int
    package var old: Int
    package var new: Int
    /// Why, from both replays of the user's day: what each notification type did before and
    /// after, and how the app runs changed (`PopulationRun.reason`).
    package var reason: String?

    package init(user: Int, day: Int, old: Int, new: Int, reason: String? = nil) {
        self.user = user
        self.day = day
        self.old = old
        self.new = new
        self.reason = reason
    }
}

extension PopulationRun {
    /// Why a user's day changed: each notification type whose fate differs (delivered at a
    /// time, suppressed by a gate, or no candidate at all) and the app runs that day, old →
    /// new — a user who no longer opens the app on a notice never gets the next plan made.
    package static func reason(
        _ changed: ChangedUserDay, population: Population, old: Ruleset, new: Ruleset, options: PopulationOptions
    ) -> String {
        func fates(_ ruleset: Ruleset) -> (fates: [String: String], runs: Int) {
            let result = replay(population, ruleset: ruleset, user: changed.user, options: options)
            let records = result.recordsByDay()[changed.day] ?? []
            let clock = result.scenario.clock
            var fates: [String: String] = [:]
            var runs = 0
            for record in records {
                switch record.kind {
                case .appRun: runs += 1
                case .notificationDelivered(let n, _):
                    fates[n.type] = "delivered at \(TimeFormat.clock(clock.local(record.at).seconds))"
                case .notificationSuppressed(let s) where fates[s.type] == nil:
                    fates[s.type] = "suppressed (\(s.reason.rawValue))"
                default: break
                }
            }
            return (fates, runs)
        }
        let before = fates(old)
        let after = fates(new)
        var parts: [String] = []
        for type in Set(before.fates.keys).union(after.fates.keys).sorted() where before.fates[type] != after.fates[type] {
            parts.append("\(type): \(before.fates[type] ?? "no candidate") → \(after.fates[type] ?? "no candidate (no app run planned it)")")
        }
        if before.runs != after.runs { parts.append("app runs that day \(before.runs) → \(after.runs)") }
        return parts.isEmpty ? "the same fates; the deliveries of the day before moved" : parts.joined(separator: "; ")
    }

    /// The same users under two rulesets: both tallies and the `limit` user-days whose
    /// deliveries changed most (ties: first user, first day). `perJob`, as in `run`: every
    /// job but the first lives its own decoded copies of the two.
    ///
    /// With `judging`, each user's two tallies are added to the verdict's paired sums too.
    package static func compare(
        _ population: Population, old: Ruleset, new: Ruleset, options: PopulationOptions, limit: Int = 10,
        perJob: (@Sendable () -> (old: Ruleset, new: Ruleset)?)? = nil, judging: PopulationVerdict? = nil
    ) -> (old: PopulationTally, new: PopulationTally, changed: [ChangedUserDay], verdict: PopulationVerdict?) {
        let oldGenerator = PopulationGenerator(population: options.seeded(population), ruleset: old)
        let newGenerator = PopulationGenerator(population: options.seeded(population), ruleset: new)
        let clock = population.clock
        let start = population.start
        let jobs = inJobs(options) { job, users in
            var before = PopulationTally()
            var after = PopulationTally()
            var top: [ChangedUserDay] = []
            var verdict = judging
            let copies = job == 0 ? nil : perJob?()
            let preparedOld = PreparedRuleset(copies?.old ?? old)
            let preparedNew = PreparedRuleset(copies?.new ?? new)
            for number in users {
                // A user's own tallies when judging (merged after), else straight into the job's.
                var mineOld = PopulationTally()
                var mineNew = PopulationTally()
                let judged = verdict != nil
                let userOld = oldGenerator.user(number, days: options.days)
                let userNew = newGenerator.user(number, days: options.days)
                let groups = population.groups
                let a =
                    judged
                    ? live(userOld, prepared: preparedOld, clock: clock, groups: groups, randomize: options.randomize, into: &mineOld)
                    : live(userOld, prepared: preparedOld, clock: clock, groups: groups, randomize: options.randomize, into: &before)
                let b =
                    judged
                    ? live(userNew, prepared: preparedNew, clock: clock, groups: groups, randomize: options.randomize, into: &mineNew)
                    : live(userNew, prepared: preparedNew, clock: clock, groups: groups, randomize: options.randomize, into: &after)
                if judged {
                    verdict?.add(old: mineOld, new: mineNew)
                    before.merge(mineOld)
                    after.merge(mineNew)
                }
                for day in 0..<Swift.max(a.count, b.count) {
                    let x = day < a.count ? a[day] : 0
                    let y = day < b.count ? b[day] : 0
                    guard x != y else { continue }
                    top.append(ChangedUserDay(user: number, day: start + day, old: x, new: y))
                }
                if top.count > limit * 4 { top = ranked(top, limit) }
            }
            return (before: before, after: after, top: ranked(top, limit), verdict: verdict)
        }
        var before = PopulationTally()
        var after = PopulationTally()
        var verdict = judging
        for job in jobs {
            before.merge(job.before)
            after.merge(job.after)
            if let theirs = job.verdict { verdict?.merge(theirs) }
        }
        return (before, after, ranked(jobs.flatMap(\.top), limit), verdict)
    }

    static func ranked(_ days: [ChangedUserDay], _ limit: Int) -> [ChangedUserDay] {
        Array(
            days.sorted {
                let a = abs($0.new - $0.old)
                let b = abs($1.new - $1.old)
                return a != b ? a > b : ($0.user, $0.day) < ($1.user, $1.day)
            }.prefix(limit))
    }
}
