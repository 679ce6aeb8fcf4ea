import Foundation
import RulesExpression
import RulesPopulation
import RulesSimulator
import Ruleset

/// What a fitted group's users set: from the settings lines each user sent before their first
/// delivery (what they set; later switches are opt-outs), over the users who ran the app (a
/// user who never runs it sends nothing, in the telemetry as in a population).
package struct FittedSetting: Sendable, Equatable {
    package enum Shape: Sendable, Equatable {
        /// A bool: the share with it on.
        case share(PopulationFit.Estimate)
        /// An enum: the share per value (values other than the default).
        case choice(values: [String], shares: [PopulationFit.Estimate])
        /// A time: the share who set one, when (wall minutes) and its spread.
        case time(PopulationFit.Slot)
        /// A per-routine time: each routine's share (of the users who keep it), time, spread.
        case perRoutine(routines: [String], times: [PopulationFit.Slot])
    }

    package var key: String
    package var shape: Shape
}

enum FitSettings {
    typealias Estimate = PopulationFit.Estimate

    /// What a group's users who ran the app set, summed a user at a time: for each setting of
    /// the ruleset, who set a bool and who has it on, each enum value's users, and the times
    /// set (a per-routine time among the users who keep the routine).
    struct Sums: Sendable {
        /// Where a time set by name (`key`, or `key.routine`) is summed.
        let times: [String: (key: String, routine: String?)]
        let declarations: [SettingDeclaration]
        let routines: [String]
        let dayStart: Int
        var ran = 0
        /// Users who ran and do not say which routines they keep (they keep every one).
        var ranKeepingAll = 0
        var ranKeeping: [String: Int] = [:]
        var set: [String: Int] = [:]
        var on: [String: Int] = [:]
        var choices: [String: [String: Int]] = [:]
        var at: [String: ExactMoments] = [:]

        init(ruleset: Ruleset, dayStart: Int) {
            declarations = ruleset.settings.filter { !PopulationLoader.fixedSettings.contains($0.key) }
            routines = ruleset.routines.map(\.id)
            self.dayStart = dayStart
            var times: [String: (key: String, routine: String?)] = [:]
            for declaration in declarations {
                switch declaration.type {
                case .time, .optional(.time): times[declaration.key] = (declaration.key, nil)
                case .map(.routineID, .time): for routine in routines { times["\(declaration.key).\(routine)"] = (declaration.key, routine) }
                default: continue
                }
            }
            self.times = times
        }

        mutating func add(_ user: UserFeatures) {
            guard user.ran else { return }
            ran += 1
            if let enabled = user.enabled {
                for routine in enabled { ranKeeping[routine, default: 0] += 1 }
            } else {
                ranKeepingAll += 1
            }
            for (key, value) in user.setOn {
                set[key, default: 0] += 1
                if value { on[key, default: 0] += 1 }
            }
            for (key, value) in user.setChoice { choices[key, default: [:]][value, default: 0] += 1 }
            let start = dayStart / 60
            for (name, wall) in user.setAt {
                guard let time = times[name] else { continue }
                if let routine = time.routine, let enabled = user.enabled, !enabled.contains(routine) { continue }
                at[name, default: ExactMoments()].add(Double(((wall - start) % 1_440 + 1_440) % 1_440))
            }
        }

        /// The settings of the ruleset the users set, in the ruleset's order; a setting nobody
        /// was seen to set is left out (every user keeps its default).
        func settings() -> [FittedSetting] {
            guard ran > 0 else { return [] }
            let n = Double(ran)
            var out: [FittedSetting] = []
            for declaration in declarations {
                let key = declaration.key
                switch declaration.type {
                case .bool:
                    guard let set = set[key], set > 0 else { continue }
                    let defaultOn = declaration.defaultValue == .bool(true)
                    let on = self.on[key, default: 0] + (defaultOn ? ran - set : 0)
                    out.append(FittedSetting(key: key, shape: .share(FitEstimates.share(Double(on), of: n))))
                case .enumeration(let values):
                    let counts = choices[key] ?? [:]
                    let chosen = values.cases.filter { Value.string($0) != declaration.defaultValue && counts[$0, default: 0] > 0 }
                    guard !chosen.isEmpty else { continue }
                    let shares = chosen.map { FitEstimates.share(Double(counts[$0, default: 0]), of: n) }
                    out.append(FittedSetting(key: key, shape: .choice(values: chosen, shares: shares)))
                case .time, .optional(.time):
                    guard let slot = at[key].flatMap({ slot($0, of: n, dayStart: dayStart) }) else { continue }
                    out.append(FittedSetting(key: key, shape: .time(slot)))
                case .map(.routineID, .time):
                    var chosen: [String] = []
                    var times: [PopulationFit.Slot] = []
                    for routine in routines {
                        let keeping = Double(ranKeepingAll + ranKeeping[routine, default: 0])
                        guard let slot = at["\(key).\(routine)"].flatMap({ slot($0, of: keeping, dayStart: dayStart) }) else { continue }
                        chosen.append(routine)
                        times.append(slot)
                    }
                    if !chosen.isEmpty { out.append(FittedSetting(key: key, shape: .perRoutine(routines: chosen, times: times))) }
                default: continue
                }
            }
            return out
        }
    }

    /// The share of `of` users who set a time, and when: the mean and spread of the wall times
    /// taken on the logical day (so 23:30 and 00:30 average to midnight, not noon), each time
    /// at its 30-minute bucket's middle and the spread less the bucket's own (Sheppard's
    /// correction, 30²/12).
    static func slot(_ logical: ExactMoments, of users: Double, dayStart: Int) -> PopulationFit.Slot? {
        guard logical.count > 0, users > 0 else { return nil }
        let count = Double(logical.count)
        let (mean, variance) = logical.meanAndVariance
        let sd = Swift.max(0, variance - 75).squareRoot()
        let at = FitEstimates.wall(Estimate(value: mean, se: variance.squareRoot() / count.squareRoot()), dayStart)
        return PopulationFit.Slot(p: FitEstimates.share(count, of: users), at: at, sd: sd)
    }
}

/// How much a group's users differ beyond their daily draws (`between_users`), from the users'
/// own log rates and times: the spread of users' rates less what their days alone would give
/// (a binomial's), taken to the logit scale at the group's rate; the spread of users' mean
/// times less what their logs' own spread gives. Pooled over routines, weighted by users.
enum FitBetweenUsers {
    /// One routine's users (those who keep it, or log it when the telemetry does not say, with
    /// three days or more): their rates of days with a log and what their days alone give, and
    /// among those with two logs or more, their mean minutes and the spread within each.
    struct RoutineSums: Sendable {
        var rates = ExactMoments()
        var binomial = ExactSum()
        var means = ExactMoments()
        var within = ExactSum()

        /// A user of `days` days (three or more) who keeps the routine, with its `use` (nil: no log).
        mutating func add(_ use: RoutineUse?, days: Double) {
            let rate = Double(use?.days ?? 0) / days
            rates.add(rate)
            binomial.add(rate * (1 - rate) / Swift.max(1, days - 1))
            guard let use, use.count >= 2 else { return }
            let count = Double(use.count)
            let m = use.minutes / count
            let variance = Swift.max(0, use.minutesSquared / count - m * m) * count / (count - 1)
            means.add(m)
            within.add(variance / count)
        }
    }

    struct Sums: Sendable {
        /// The routines anybody in the group logs.
        var logged: Set<String> = []
        var routines: [String: RoutineSums] = [:]

        mutating func add(_ user: UserFeatures) {
            for routine in user.logs.keys { logged.insert(routine) }
            guard user.days >= 3 else { return }
            let days = Double(user.days)
            // In place: a copy out and back would copy every partial sum a user.
            for routine in user.enabled ?? Set(user.logs.keys) { routines[routine, default: RoutineSums()].add(user.logs[routine], days: days) }
        }

        /// The spread of users' rates less what their days alone would give (a binomial's), taken
        /// to the logit scale at the group's rate; the spread of users' mean times less what their
        /// logs' own spread gives. Pooled over routines, weighted by users.
        var estimate: BetweenUsers? {
            var logit = (sum: 0.0, weight: 0.0)
            var minutes = (sum: 0.0, weight: 0.0)
            for routine in logged.sorted() {
                guard let sums = routines[routine], sums.rates.count >= 10 else { continue }
                let users = Double(sums.rates.count)
                let (mean, spread) = sums.rates.meanAndVariance
                let between = Swift.max(0, spread - sums.binomial.value / users)
                if mean > 0.02, mean < 0.98 {
                    // Weighted by what a routine can tell: users × m(1 − m).
                    let weight = users * mean * (1 - mean)
                    logit.sum += weight * logitSpread(mean: mean, variance: between)
                    logit.weight += weight
                }
                // Times: each user's mean log minute, less the within-user spread over their logs.
                guard sums.means.count >= 10 else { continue }
                let uses = Double(sums.means.count)
                let within = sums.within.value / uses
                minutes.sum += uses * Swift.max(0, sums.means.meanAndVariance.variance - within).squareRoot()
                minutes.weight += uses
            }
            guard logit.weight > 0 || minutes.weight > 0 else { return nil }
            let logitSD = logit.weight > 0 ? Swift.min(BetweenUsers.maxLogitSD, logit.sum / logit.weight) : 0
            let minutesSD = minutes.weight > 0 ? Swift.min(BetweenUsers.maxMinutesSD, minutes.sum / minutes.weight) : 0
            return BetweenUsers(logitSD: logitSD, minutesSD: minutesSD)
        }
    }
}

extension FitBetweenUsers {
    typealias Estimate = PopulationFit.Estimate

    /// The logit spread whose users' chances have this mean and variance (by quadrature; the
    /// delta method's √v / (m(1 − m)) falls short as the spread grows).
    static func logitSpread(mean: Double, variance: Double) -> Double {
        guard variance > 0 else { return 0 }
        var (low, high) = (0.0, BetweenUsers.maxLogitSD)
        for _ in 0..<40 {
            let sd = (low + high) / 2
            let q = median(Estimate(value: mean, se: nil), sd: sd).value
            if moments(q, sd: sd).variance < variance { low = sd } else { high = sd }
        }
        return (low + high) / 2
    }

    /// The mean and variance over users of `p` moved by a normal logit offset of spread `sd`.
    static func moments(_ p: Double, sd: Double) -> (mean: Double, variance: Double) {
        guard p > 0, p < 1 else { return (p, 0) }
        var (sum, squares, weight) = (0.0, 0.0, 0.0)
        for step in -60...60 {
            let z = Double(step) / 10
            let w = exp(-z * z / 2)
            let moved = UserTraits.shifted(p, by: sd * z)
            sum += w * moved
            squares += w * moved * moved
            weight += w
        }
        let mean = sum / weight
        return (mean, Swift.max(0, squares / weight - mean * mean))
    }

    /// A group's chances as the file means them. The simulator moves each user's chances by
    /// their own logit offset, so a pooled share is the mean of the moved chances, not the
    /// chance written; with a spread, each chance the simulator moves is written as the one
    /// whose mean over users is the pooled share (its error through the same map).
    static func unshifted(_ group: PopulationFit.Group) -> PopulationFit.Group {
        guard let sd = group.between?.logitSD, sd > 0 else { return group }
        func q(_ e: Estimate) -> Estimate { median(e, sd: sd) }
        var out = group
        out.slots = group.slots.map { slot in
            var moved = slot
            moved.p = q(slot.p)
            return moved
        }
        out.logs = group.logs.map { log in
            var moved = log
            moved.p = q(log.p)
            return moved
        }
        out.checks = group.checks.map { ($0.routine, q($0.p)) }
        out.opened = q(group.opened)
        out.ignored = q(group.ignored)
        out.acts = group.acts.map { ($0.type, q($0.p)) }
        return out
    }

    /// The mean over users of `p` moved by a normal logit offset of spread `sd` (by quadrature).
    static func meanShare(_ p: Double, sd: Double) -> Double { moments(p, sd: sd).mean }

    /// The chance whose mean over users is `e` (bisection), its error scaled by the slope.
    static func median(_ e: Estimate, sd: Double) -> Estimate {
        guard e.value > 0.001, e.value < 0.999 else { return e }
        var (low, high) = (1e-6, 1 - 1e-6)
        for _ in 0..<50 {
            let middle = (low + high) / 2
            if meanShare(middle, sd: sd) < e.value { low = middle } else { high = middle }
        }
        let q = (low + high) / 2
        let h = Swift.min(0.001, q / 2, (1 - q) / 2)
        let slope = (meanShare(q + h, sd: sd) - meanShare(q - h, sd: sd)) / (2 * h)
        return Estimate(value: q, se: e.se.map { slope > 0.01 ? $0 / slope : $0 })
    }
}

/// Fatigue (`fatigue: { after, per_extra }`) from the share of a day's 1st, 2nd, 3rd and later
/// deliveries ignored: a tired user ignores with the extra chance f = (n − after) · per_extra,
/// else answers as usual, so the nth share is f + (1 − f) · base. `after` is 2 when the 2nd
/// delivery is ignored no more than the 1st (within two standard errors), else 1; `per_extra`
/// from the later places. Written only when the rise is beyond two standard errors; `base` is
/// then the group's own chance to ignore.
enum FitFatigue {
    typealias Estimate = PopulationFit.Estimate

    /// Deliveries seen (before the device stopped showing notices) and ignored by their place
    /// in the day, the 4th and later together.
    struct Sums: Sendable {
        var delivered = [0, 0, 0, 0]
        var ignored = [0, 0, 0, 0]

        mutating func add(_ user: UserFeatures) {
            for (place, count) in user.notices.exposures.enumerated() { delivered[Swift.min(place, 3)] += count }
            for place in 0..<4 { ignored[place] += user.ignoredByPlace[place] }
        }

        var estimate: (after: Int, perExtra: Estimate, base: Estimate)? {
            FitFatigue.estimate(delivered: delivered.map(Double.init), ignored: ignored.map(Double.init))
        }
    }

    static func estimate(delivered: [Double], ignored: [Double]) -> (after: Int, perExtra: Estimate, base: Estimate)? {
        let shares = (0..<4).map { FitEstimates.share(ignored[$0], of: delivered[$0]) }
        guard delivered[0] > 0, delivered[1] > 0, delivered[2] > 0 else { return nil }
        func se(_ e: Estimate) -> Double { e.se ?? 0 }
        // The rise of the 2nd over the 1st decides whether fatigue starts after one delivery.
        let secondRise = shares[1].value - shares[0].value
        let after = secondRise <= 2 * (se(shares[0]) * se(shares[0]) + se(shares[1]) * se(shares[1])).squareRoot() ? 2 : 1
        let base = after == 2 ? FitEstimates.share(ignored[0] + ignored[1], of: delivered[0] + delivered[1]) : shares[0]
        guard base.value < 1 else { return nil }
        // Each later place's extra chance, as many `per_extra` as places beyond `after`.
        var sum = 0.0
        var weight = 0.0
        for place in after..<4 where delivered[place] > 0 {
            let steps = Double(place + 1 - after)
            let extra = (shares[place].value - base.value) / (1 - base.value) / steps
            let spread = (se(shares[place]) * se(shares[place]) + se(base) * se(base)).squareRoot() / (1 - base.value) / steps
            guard spread > 0 else { continue }
            sum += extra / (spread * spread)
            weight += 1 / (spread * spread)
        }
        guard weight > 0 else { return nil }
        let perExtra = Estimate(value: sum / weight, se: (1 / weight).squareRoot())
        guard perExtra.value > 2 * (perExtra.se ?? 0) else { return nil }
        return (after, Estimate(value: Swift.min(1, perExtra.value), se: perExtra.se), base)
    }
}
