import Foundation
import RulesEngine
import RulesSimulator
import Ruleset

/// One synthetic user: the days they live as an ordinary scenario, and how they answer
/// notifications (which depends on what is delivered, so it is drawn as deliveries happen).
package struct SyntheticUser: Sendable {
    /// 1-based: user 1 is the first.
    package var number: Int
    package var group: Int
    package var scenario: Scenario
    /// The key of the response stream.
    var responseKey: UInt64
    var opened: Double
    var ignored: Double
    /// What notices make the user do (the group's).
    var behaviour = Behaviour()
    /// By routine: how much the group logs it (probability × count; a checklist's ticks), the
    /// weights an act's target is drawn by.
    var logWeights: [String: Double] = [:]
    /// By routine: the value the group logs.
    var logValues: [String: Double] = [:]

    /// The user's answer to `request` and how many seconds after its delivery it comes:
    /// opened 1–30 minutes later, ignored (dismissed) after an hour, or none.
    package func response(to request: ScheduledNotification) -> (delay: Int, response: NotificationResponse)? {
        response(key: SplitMix64.fnv1a(request.id))
    }

    /// The same, from the request id's hash (`SplitMix64.fnv1a`).
    func response(key: UInt64) -> (delay: Int, response: NotificationResponse)? {
        var stream = SplitMix64(mixing: responseKey, key)
        let draw = stream.uniform()
        if draw < opened { return (60 * (1 + Int(stream.uniform() * 30)), .opened) }
        if draw < opened + ignored { return (3_600, .ignored) }
        return nil
    }
}

/// Draws the users of a population: user `n` is the same whichever other users are drawn,
/// in whatever order, on whatever machine (see `SplitMix64`).
package struct PopulationGenerator: Sendable {
    package let population: Population
    let dayStart: Int
    let defaultRoutines: [String]
    let checklistItems: [String: [String]]
    let totalWeight: Double

    package init(population: Population, ruleset: Ruleset) {
        self.population = population
        dayStart = OperatorProfile(ruleset: ruleset).dayStart(ruleset)
        defaultRoutines = ruleset.routines.filter(\.defaultEnabled).map(\.id)
        checklistItems = Dictionary(ruleset.routines.map { ($0.id, $0.items) }, uniquingKeysWith: { first, _ in first })
        totalWeight = population.groups.reduce(0) { $0 + $1.weight }
    }

    /// User `number` (1-based) over `days` days (default: the population's).
    package func user(_ number: Int, days: Int? = nil) -> SyntheticUser {
        var random = SplitMix64(mixing: population.seed, UInt64(number))
        let group = pickGroup(random.uniform())
        let spec = UserTraits.personalised(population.groups[group], seed: population.seed, user: number)
        let routines = spec.routines ?? defaultRoutines
        let enabled = Set(routines)
        // What the user sets goes to the engine at their first app run, as a real user's would.
        let chosen = UserTraits.settings(spec.settings, seed: population.seed, user: number, enabled: enabled)
        var settingsSent = chosen.isEmpty
        var health = TrueHealth()
        health.stepsPermission = random.chance(spec.stepsPermission) ? .granted : .denied
        health.sleepPermission = random.chance(spec.sleepPermission) ? .granted : .denied
        let origin = Origin(file: population.file, location: spec.origin.location)
        var scenarioDays: [ScenarioDay] = []
        var totals: [Int] = []
        let doing = Doing(spec, enabled: enabled, items: checklistItems)
        // One buffer for every day's events (each day's are copied into its scenario day).
        var events: [DrawnEvent] = []
        for index in 0..<(days ?? population.days) {
            events.removeAll(keepingCapacity: true)
            // The night before and the day's walking.
            if let sleep = spec.sleepMinutes {
                let minutes = Int(min(max(sleep.mean + sleep.sd * random.normal(), 0), PopulationGroup.maxSleepMinutes).rounded())
                let end = wallTime(draw(spec.wake, &random))
                health.sleepEnd = end
                health.sleepStart = ((end - minutes * 60) % 86_400 + 86_400) % 86_400
            }
            var total = 0
            if let steps = spec.steps { total = Int(max(steps.mean + steps.sd * random.normal(), 0).rounded()) }
            health.steps = [(7 * 3_600, 0), (23 * 3_600, total)]
            health.yesterday = totals.last
            let recent = totals.suffix(7)
            health.average7 = recent.isEmpty ? nil : recent.reduce(0, +) / recent.count
            totals.append(total)
            // App opens, logs, evening ticks, a skipped day.
            doings(spec, doing, &random, into: &events)
            events.sort { ($0.position, $0.order) < ($1.position, $1.order) }
            // Every event a user makes (an open, a log, a tick, a skip) is an app run: the
            // settings go right after the first.
            if !settingsSent, let first = events.first {
                events.insert((first.position, events.count, .settings(chosen)), at: 1)
                settingsSent = true
            }
            scenarioDays.append(
                ScenarioDay(
                    date: population.start + index, health: health, settings: [:],
                    events: events.map { ScenarioEvent(seconds: wallTime($0.position), kind: $0.kind, origin: origin) }, expectations: [],
                    origin: origin))
        }
        let scenario = Scenario(
            name: "\(population.name) — user \(number) (\(spec.name))", file: population.file, clock: population.clock,
            timeZoneName: population.timeZoneName, routines: spec.routines, days: scenarioDays)
        let (weights, values) = doing.weightsAndValues()
        return SyntheticUser(
            number: number, group: group, scenario: scenario, responseKey: random.next(), opened: spec.opened, ignored: spec.ignored,
            behaviour: spec.behaviour, logWeights: weights, logValues: values)
    }

    /// An event of a day as drawn: its place in the logical day and in the drawing (which
    /// orders events at the same place).
    private typealias DrawnEvent = (position: Int, order: Int, kind: ScenarioEvent.Kind)

    /// What a user logs and ticks: the group's logs and checks of routines the user has on,
    /// each check with its checklist's items. Looked up once a user, not every day (the draws
    /// are the same: a routine that is off draws nothing).
    private struct Doing {
        var logs: [LogDraw]
        var checks: [(check: (routine: String, p: Double), items: [String])]

        init(_ spec: PopulationGroup, enabled: Set<String>, items: [String: [String]]) {
            logs = spec.logs.filter { enabled.contains($0.routine) }
            checks = spec.checks.filter { enabled.contains($0.routine) }.map { ($0, items[$0.routine] ?? []) }
        }

        /// By routine: how much the user logs it (probability × count, a checklist's ticks)
        /// and the value they log — what an act's target is drawn by and what it logs.
        func weightsAndValues() -> (weights: [String: Double], values: [String: Double]) {
            var weights: [String: Double] = [:]
            var values: [String: Double] = [:]
            for log in logs {
                weights[log.routine, default: 0] += log.p * Double(log.count)
                if values[log.routine] == nil { values[log.routine] = log.value }
            }
            for (check, items) in checks { weights[check.routine, default: 0] += check.p * Double(items.count) }
            return (weights, values)
        }
    }

    /// A day's app opens, logs, evening ticks and skip, appended to `events` (each in the
    /// order it is drawn: the order every user's stream has always had).
    private func doings(_ spec: PopulationGroup, _ doing: Doing, _ random: inout SplitMix64, into events: inout [DrawnEvent]) {
        func add(_ position: Int, _ kind: ScenarioEvent.Kind) { events.append((position, events.count, kind)) }
        var firstOpen: Int?
        for open in spec.appOpens where random.chance(open.p) {
            let position = draw(open, &random)
            firstOpen = min(firstOpen ?? position, position)
            add(position, .app(refresh: false))
        }
        for log in doing.logs where random.chance(log.p) {
            for _ in 0..<log.count {
                add(draw(log.time, &random), .log(routine: log.routine, value: log.value, unit: nil, source: .manual))
            }
        }
        for (check, items) in doing.checks {
            for item in items where random.chance(check.p) {
                add(draw(spec.checkTime, &random), .check(routine: check.routine, item: item))
            }
        }
        if random.chance(spec.skipToday), let firstOpen { add(min(firstOpen + 60, 86_340), .action(.skipToday)) }
    }

    private func pickGroup(_ draw: Double) -> Int {
        guard totalWeight > 0 else { return 0 }
        var cumulative = 0.0
        for (index, group) in population.groups.enumerated() {
            cumulative += group.weight
            if draw * totalWeight < cumulative { return index }
        }
        return population.groups.count - 1
    }

    /// A position in the logical day (seconds after its start, whole minutes, within the day)
    /// drawn around a wall time.
    private func draw(_ time: TimeDraw, _ random: inout SplitMix64) -> Int {
        let center = Double(logical(of: time.at, dayStart: dayStart))
        let position = center + time.sdMinutes * 60 * random.normal()
        let minute = Int((min(max(position, 0), 86_340) / 60).rounded(.down))
        return minute * 60
    }

    private func wallTime(_ position: Int) -> Int { (position + dayStart) % 86_400 }
}
