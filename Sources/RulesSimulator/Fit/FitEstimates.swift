import Foundation
import Ruleset

/// The estimates of one group from its users' counts. Shares are pooled over the group
/// (users' days, deliveries) with standard errors clustered by user — a person's 28 days are
/// not 28 independent draws; shares of users (the group's weight, who granted health data)
/// are binomial over users; means of nightly or daily values pooled over every night or day,
/// their standard errors over users.
enum FitEstimates {
    typealias Estimate = PopulationFit.Estimate

    static func share(_ count: Double, of total: Double) -> Estimate {
        guard total > 0 else { return Estimate(value: 0, se: nil) }
        let p = Swift.min(1, count / total)
        return Estimate(value: p, se: (p * (1 - p) / total).squareRoot())
    }

    /// Σy / Σn over users, with its error clustered by user (CR1: the same person's days are
    /// not independent draws): √(G/(G−1) · Σ(yᵢ − p·nᵢ)²) / Σn, G the users with any n.
    static func clustered(_ members: [UserFeatures], cap: Double = 1, _ yn: (UserFeatures) -> (y: Double, n: Double)) -> Estimate {
        var pairs: [(y: Double, n: Double)] = []
        pairs.reserveCapacity(members.count)
        for user in members {
            let pair = yn(user)
            if pair.n > 0 { pairs.append(pair) }
        }
        let total = pairs.reduce(0) { $0 + $1.n }
        guard total > 0 else { return Estimate(value: 0, se: nil) }
        let p = Swift.min(cap, pairs.reduce(0) { $0 + $1.y } / total)
        let g = Double(pairs.count)
        guard g > 1 else { return Estimate(value: p, se: nil) }
        let sum = pairs.reduce(0) { $0 + pow($1.y - p * $1.n, 2) }
        return Estimate(value: p, se: (g / (g - 1) * sum).squareRoot() / total)
    }

    /// The mean and spread of pooled moments [n, Σx, Σx²], the mean's error over `users`.
    static func spread(_ moments: [Double], users: Int) -> (mean: Estimate, sd: Double)? {
        guard moments[0] > 0 else { return nil }
        let mean = moments[1] / moments[0]
        let sd = Swift.max(0, moments[2] / moments[0] - mean * mean).squareRoot()
        return (Estimate(value: mean, se: sd / Double(Swift.max(1, users)).squareRoot()), sd)
    }

    static func pooled(_ members: [UserFeatures], _ moments: (UserFeatures) -> Moments) -> [Double] {
        var sum = Moments()
        for user in members {
            let add = moments(user)
            (sum.n, sum.sum, sum.squares) = (sum.n + add.n, sum.sum + add.sum, sum.squares + add.squares)
        }
        return sum.values
    }

    static func group(_ members: [UserFeatures], of total: Int, ruleset: Ruleset, dayStart: Int) -> PopulationFit.Group {
        let userDays = members.reduce(0) { $0 + $1.days }
        let days = Double(Swift.max(1, userDays))
        var notes: [String] = []
        let logs = routineLogs(members, days: days, dayStart: dayStart)
        let checks = checklistTicks(members, ruleset: ruleset)
        var tickMoments = [0.0, 0.0, 0.0]
        for user in members {
            for use in user.ticks.values {
                tickMoments = [tickMoments[0] + Double(use.count), tickMoments[1] + use.minutes, tickMoments[2] + use.minutesSquared]
            }
        }
        let fatigue = FitFatigue.estimate(members)
        let (acts, halfLife, actNote) = FitBehaviour.acts(members)
        let ignored = fatigue?.base ?? clustered(members) { (Double($0.ignored), Double($0.notices.exposures.reduce(0, +))) }
        if let actNote { notes.append(actNote) }
        // Routines: those a tenth of the group keeps, when the telemetry says which routines
        // users keep (`routine` lines); else those a tenth of the group logs or ticks, and the
        // HealthKit ones the ruleset enables by default.
        let keeping = members.compactMap(\.enabled)
        let active = Set(logs.filter { $0.p.value > 0 }.map(\.routine) + checks.map(\.routine))
        let used = ruleset.routines.filter { routine in
            if !keeping.isEmpty { return keeping.filter { $0.contains(routine.id) }.count * 10 >= keeping.count }
            let users = members.filter { $0.logs[routine.id] != nil || $0.ticks[routine.id] != nil }.count
            return (active.contains(routine.id) && users * 10 >= members.count) || (routine.defaultEnabled && routine.source == .healthkit)
        }.map(\.id)
        let sleepUsers = members.filter { $0.sleep[0] > 0 }.count
        let group = PopulationFit.Group(
            users: members.count, userDays: userDays, weight: share(Double(members.count), of: Double(total)), routines: used,
            steps: share(Double(members.filter { $0.stepsGranted == true }.count), of: Double(members.count)),
            sleep: share(Double(members.filter { $0.sleepGranted == true }.count), of: Double(members.count)),
            sleepMinutes: spread(pooled(members) { $0.sleep }, users: sleepUsers),
            wake: spread(pooled(members) { $0.wake }, users: sleepUsers).map { (Estimate(value: $0.mean.value, se: $0.mean.se), $0.sd) },
            stepsPerDay: spread(pooled(members) { $0.steps }, users: members.filter { $0.steps[0] > 0 }.count),
            slots: FitSlots.slots(members, days: days, dayStart: dayStart), logs: logs, checks: checks,
            checkAt: spread(tickMoments, users: members.count).map { (wall($0.mean, dayStart), $0.sd) },
            opened: opened(members, ignored: ignored), ignored: ignored,
            skipToday: clustered(members) { (Double($0.skips), Double($0.days)) }, acts: acts, halfLife: halfLife,
            optOutType: clustered(members) { (Double($0.switchedOff.count), Double($0.ignoredByType.values.reduce(0, +))) },
            optOutAll: FitNoticesOff.estimate(members), settings: FitSettings.settings(members, ruleset: ruleset, dayStart: dayStart),
            noticesOff: share(Double(members.filter(\.noticesOff).count), of: Double(members.count)),
            between: FitBetweenUsers.estimate(members), fatigue: fatigue.map { ($0.after, $0.perExtra) }, notes: notes)
        return FitBetweenUsers.unshifted(group)
    }

    /// The chance to open a notice. A notice acted on is opened (or its button pressed) by the
    /// act, which takes an opening or a silence alike; so among the deliveries seen, neither
    /// ignored nor acted on, opened and silent stand as the group's own chances do, which sum
    /// to 1 − ignored: opened = (1 − ignored) · opened / (seen − ignored − acted).
    static func opened(_ members: [UserFeatures], ignored: Estimate) -> Estimate {
        let share = clustered(members) { user in
            (Double(user.opened), Double(user.notices.exposures.reduce(0, +) - user.ignored - user.acted))
        }
        let scale = 1 - ignored.value
        return Estimate(value: share.value * scale, se: share.se.map { $0 * scale })
    }

    /// A logical-day minute estimate as a wall-clock minute (same error).
    static func wall(_ estimate: Estimate, _ dayStart: Int) -> Estimate {
        Estimate(value: (estimate.value + Double(dayStart / 60)).truncatingRemainder(dividingBy: 1_440), se: estimate.se)
    }

    static func routineLogs(_ members: [UserFeatures], days: Double, dayStart: Int) -> [PopulationFit.Logs] {
        let routines = Set(members.flatMap { $0.logs.keys }).sorted()
        return routines.compactMap { routine in
            let uses = members.compactMap { $0.logs[routine] }
            let logDays = Double(uses.reduce(0) { $0 + $1.days })
            let count = Double(uses.reduce(0) { $0 + $1.count })
            guard logDays > 0, count > 0 else { return nil }
            let time = spread([count, uses.reduce(0) { $0 + $1.minutes }, uses.reduce(0) { $0 + $1.minutesSquared }], users: uses.count)
            return PopulationFit.Logs(
                routine: routine, p: clustered(members) { (Double($0.logs[routine]?.days ?? 0), Double($0.days)) },
                value: uses.reduce(0) { $0 + $1.value } / count,
                count: Swift.max(1, Int((count / logDays).rounded())), at: wall(time?.mean ?? Estimate(value: 0, se: nil), dayStart),
                sd: time?.sd ?? 0)
        }
    }

    /// Each checklist's chance that an item is ticked: ticks over items × user-days.
    static func checklistTicks(_ members: [UserFeatures], ruleset: Ruleset) -> [(routine: String, p: PopulationFit.Estimate)] {
        Set(members.flatMap { $0.ticks.keys }).sorted().compactMap { routine in
            let items = ruleset.routines.first { $0.id == routine }?.items.count ?? 0
            guard items > 0 else { return nil }
            return (routine, clustered(members) { (Double($0.ticks[routine]?.count ?? 0), Double($0.days * items)) })
        }
    }
}

/// App-open slots: a mixture of normals over the minutes of the group's opens (10-minute
/// bins), fitted by EM for 1 … 5 components; the number of slots is the one with the least
/// BIC (`−2 ln L + (3J − 1) ln N`, N the opens). Each component is a slot: its chance a day is
/// its share of the opens over the user-days (at most 1), its time and spread its own.
enum FitSlots {
    static func slots(_ members: [UserFeatures], days: Double, dayStart: Int) -> [PopulationFit.Slot] {
        var counts = Array(repeating: 0.0, count: 145)
        var minutes = Array(repeating: 0.0, count: 145)
        for user in members {
            for (bin, count) in user.opens.enumerated() where count > 0 {
                counts[bin] += Double(count)
                minutes[bin] += user.openMinutes[bin]
            }
        }
        let total = counts.reduce(0, +)
        guard total > 0 else { return [] }
        // Each bin at the mean of its opens' own minutes.
        let xs = counts.indices.map { counts[$0] > 0 ? minutes[$0] / counts[$0] : Double($0) * 10 + 5 }
        var best: (components: [(w: Double, mean: Double, sd: Double)], bic: Double)?
        for j in 1...5 {
            let (components, logL) = mixture(xs, counts, total: total, components: j)
            let bic = -2 * logL + Double(3 * j - 1) * log(total)
            if best == nil || bic < best?.bic ?? 0 { best = (components, bic) }
        }
        return (best?.components ?? []).filter { $0.w * total >= 1 }.map { c in
            let sd = Swift.max(5, c.sd)
            let mass = c.w * total
            let at = FitEstimates.wall(PopulationFit.Estimate(value: c.mean, se: sd / mass.squareRoot()), dayStart)
            return PopulationFit.Slot(p: FitEstimates.share(Swift.min(mass, days), of: days), at: at, sd: sd)
        }.sorted { $0.at.value < $1.at.value }
    }

    /// EM for a mixture of `components` normals over binned data; starts at the quantiles.
    static func mixture(_ xs: [Double], _ counts: [Double], total: Double, components j: Int) -> ([(w: Double, mean: Double, sd: Double)], Double) {
        var cumulative = 0.0
        var means: [Double] = []
        for (x, count) in zip(xs, counts) {
            cumulative += count
            while means.count < j, cumulative >= total * (Double(means.count) + 0.5) / Double(j) { means.append(x) }
        }
        while means.count < j { means.append(xs[xs.count / 2]) }
        var c = means.map { (w: 1 / Double(j), mean: $0, sd: 60.0) }
        var logL = -Double.infinity
        for _ in 0..<200 {
            var sums = Array(repeating: (n: 0.0, x: 0.0, xx: 0.0), count: j)
            var next = 0.0
            for (x, count) in zip(xs, counts) where count > 0 {
                let densities = c.map { $0.w * exp(-0.5 * pow((x - $0.mean) / $0.sd, 2)) / ($0.sd * (2 * Double.pi).squareRoot()) * 10 }
                let sum = Swift.max(densities.reduce(0, +), 1e-300)
                next += count * log(sum)
                for index in 0..<j {
                    let r = count * densities[index] / sum
                    sums[index] = (sums[index].n + r, sums[index].x + r * x, sums[index].xx + r * x * x)
                }
            }
            c = (0..<j).map { index in
                let n = Swift.max(sums[index].n, 1e-9)
                let mean = sums[index].x / n
                return (n / total, mean, Swift.max(4, (Swift.max(0, sums[index].xx / n - mean * mean)).squareRoot()))
            }
            if abs(next - logL) < 1e-6 * abs(next) {
                logL = next
                break
            }
            logL = next
        }
        return (c, logL)
    }
}
