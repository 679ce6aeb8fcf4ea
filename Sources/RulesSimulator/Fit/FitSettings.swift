import Foundation
import RulesExpression
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

    /// The settings of the ruleset the members set, in the ruleset's order; a setting nobody
    /// was seen to set is left out (every user keeps its default).
    static func settings(_ members: [UserFeatures], ruleset: Ruleset, dayStart: Int) -> [FittedSetting] {
        let ran = members.filter(\.ran)
        guard !ran.isEmpty else { return [] }
        let n = Double(ran.count)
        var out: [FittedSetting] = []
        for declaration in ruleset.settings where !PopulationLoader.fixedSettings.contains(declaration.key) {
            let key = declaration.key
            switch declaration.type {
            case .bool:
                guard ran.contains(where: { $0.setOn[key] != nil }) else { continue }
                let defaultOn = declaration.defaultValue == .bool(true)
                let on = ran.filter { $0.setOn[key] ?? defaultOn }.count
                out.append(FittedSetting(key: key, shape: .share(FitEstimates.share(Double(on), of: n))))
            case .enumeration(let values):
                let chosen = values.cases.filter { value in
                    Value.string(value) != declaration.defaultValue && ran.contains { $0.setChoice[key] == value }
                }
                guard !chosen.isEmpty else { continue }
                let shares = chosen.map { value in FitEstimates.share(Double(ran.filter { $0.setChoice[key] == value }.count), of: n) }
                out.append(FittedSetting(key: key, shape: .choice(values: chosen, shares: shares)))
            case .time, .optional(.time):
                guard let slot = slot(ran.compactMap { $0.setAt[key] }, of: n, dayStart: dayStart) else { continue }
                out.append(FittedSetting(key: key, shape: .time(slot)))
            case .map(.routineID, .time):
                var routines: [String] = []
                var times: [PopulationFit.Slot] = []
                for routine in ruleset.routines.map(\.id) {
                    let keeping = ran.filter { $0.enabled?.contains(routine) ?? true }
                    guard let slot = slot(keeping.compactMap { $0.setAt["\(key).\(routine)"] }, of: Double(keeping.count), dayStart: dayStart)
                    else { continue }
                    routines.append(routine)
                    times.append(slot)
                }
                if !routines.isEmpty { out.append(FittedSetting(key: key, shape: .perRoutine(routines: routines, times: times))) }
            default: continue
            }
        }
        return out
    }

    /// The share of `of` users who set a time, and when: the mean and spread of the wall times
    /// taken on the logical day (so 23:30 and 00:30 average to midnight, not noon), each time
    /// at its 30-minute bucket's middle and the spread less the bucket's own (Sheppard's
    /// correction, 30²/12).
    static func slot(_ wallMinutes: [Int], of users: Double, dayStart: Int) -> PopulationFit.Slot? {
        guard !wallMinutes.isEmpty, users > 0 else { return nil }
        let start = dayStart / 60
        let logical = wallMinutes.map { Double((($0 - start) % 1_440 + 1_440) % 1_440) }
        let count = Double(logical.count)
        let (mean, variance) = meanAndVariance(logical)
        let sd = Swift.max(0, variance - 75).squareRoot()
        let at = FitEstimates.wall(Estimate(value: mean, se: variance.squareRoot() / count.squareRoot()), dayStart)
        return PopulationFit.Slot(p: FitEstimates.share(count, of: users), at: at, sd: sd)
    }
}

/// The mean of `xs` and their sample variance (over n − 1; 0 for one value).
func meanAndVariance(_ xs: [Double]) -> (mean: Double, variance: Double) {
    let count = Double(xs.count)
    let mean = xs.reduce(0, +) / Swift.max(1, count)
    return (mean, xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Swift.max(1, count - 1))
}

/// How much a group's users differ beyond their daily draws (`between_users`), from the users'
/// own log rates and times: the spread of users' rates less what their days alone would give
/// (a binomial's), taken to the logit scale at the group's rate; the spread of users' mean
/// times less what their logs' own spread gives. Pooled over routines, weighted by users.
enum FitBetweenUsers {
    static func estimate(_ members: [UserFeatures]) -> BetweenUsers? {
        let routines = Set(members.flatMap { $0.logs.keys }).sorted()
        var logit = (sum: 0.0, weight: 0.0)
        var minutes = (sum: 0.0, weight: 0.0)
        for routine in routines {
            // The users who keep it (when the telemetry says which routines users keep; else
            // those who log it at all — a rare routine then loses its never-logging users and
            // its spread looks smaller); their days with a log over their days.
            let users = members.filter { user in
                guard user.days >= 3 else { return false }
                return user.enabled.map { $0.contains(routine) } ?? (user.logs[routine] != nil)
            }
            guard users.count >= 10 else { continue }
            let rates = users.map { Double($0.logs[routine]?.days ?? 0) / Double($0.days) }
            let (mean, spread) = meanAndVariance(rates)
            let days = users.map { Double($0.days) }
            let binomial = zip(rates, days).reduce(0) { $0 + $1.0 * (1 - $1.0) / Swift.max(1, $1.1 - 1) } / Double(users.count)
            let between = Swift.max(0, spread - binomial)
            if mean > 0.02, mean < 0.98 {
                // Weighted by what a routine can tell: users × m(1 − m).
                let weight = Double(users.count) * mean * (1 - mean)
                logit.sum += weight * logitSpread(mean: mean, variance: between)
                logit.weight += weight
            }
            // Times: each user's mean log minute, less the within-user spread over their logs.
            let uses = users.compactMap { $0.logs[routine] }.filter { $0.count >= 2 }
            guard uses.count >= 10 else { continue }
            let spreadOfMeans = meanAndVariance(uses.map { $0.minutes / Double($0.count) }).variance
            let within =
                uses.reduce(0.0) { sum, use in
                    let m = use.minutes / Double(use.count)
                    let variance = Swift.max(0, use.minutesSquared / Double(use.count) - m * m) * Double(use.count) / Double(use.count - 1)
                    return sum + variance / Double(use.count)
                } / Double(uses.count)
            minutes.sum += Double(uses.count) * Swift.max(0, spreadOfMeans - within).squareRoot()
            minutes.weight += Double(uses.count)
        }
        guard logit.weight > 0 || minutes.weight > 0 else { return nil }
        let logitSD = logit.weight > 0 ? Swift.min(BetweenUsers.maxLogitSD, logit.sum / logit.weight) : 0
        let minutesSD = minutes.weight > 0 ? Swift.min(BetweenUsers.maxMinutesSD, minutes.sum / minutes.weight) : 0
        return BetweenUsers(logitSD: logitSD, minutesSD: minutesSD)
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

    static func estimate(_ members: [UserFeatures]) -> (after: Int, perExtra: Estimate, base: Estimate)? {
        // Deliveries seen (before the device stopped showing notices), the 4th and later together.
        var delivered = [0.0, 0.0, 0.0, 0.0]
        for user in members {
            for (place, count) in user.notices.exposures.enumerated() { delivered[Swift.min(place, 3)] += Double(count) }
        }
        let ignored = (0..<4).map { place in Double(members.reduce(0) { $0 + $1.ignoredByPlace[place] }) }
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
