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

    /// The mean and spread of pooled moments [n, Σx, Σx²], the mean's error over `users`.
    static func spread(_ moments: [Double], users: Int) -> (mean: Estimate, sd: Double)? {
        guard moments[0] > 0 else { return nil }
        let mean = moments[1] / moments[0]
        let sd = Swift.max(0, moments[2] / moments[0] - mean * mean).squareRoot()
        return (Estimate(value: mean, se: sd / Double(Swift.max(1, users)).squareRoot()), sd)
    }

    static func group(_ sums: GroupSums, of total: Int, ruleset: Ruleset, dayStart: Int) -> PopulationFit.Group {
        let days = Double(Swift.max(1, sums.userDays))
        var notes: [String] = []
        let logs = routineLogs(sums, dayStart: dayStart)
        let checks = checklistTicks(sums, ruleset: ruleset)
        let fatigue = sums.fatigue.estimate
        let (acts, halfLife, actNote) = sums.behaviour.acts(users: sums.users)
        let ignored = fatigue?.base ?? sums.ignored.estimate()
        if let actNote { notes.append(actNote) }
        // Routines: those a tenth of the group keeps, when the telemetry says which routines
        // users keep (`routine` lines); else those a tenth of the group logs or ticks, and the
        // HealthKit ones the ruleset enables by default.
        let active = Set(logs.filter { $0.p.value > 0 }.map(\.routine) + checks.map(\.routine))
        let used = ruleset.routines.filter { routine in
            if sums.keeping > 0 { return sums.kept[routine.id, default: 0] * 10 >= sums.keeping }
            let users = sums.using[routine.id, default: 0]
            return (active.contains(routine.id) && users * 10 >= sums.users) || (routine.defaultEnabled && routine.source == .healthkit)
        }.map(\.id)
        let users = Double(sums.users)
        let group = PopulationFit.Group(
            users: sums.users, userDays: sums.userDays, weight: share(users, of: Double(total)), routines: used,
            steps: share(Double(sums.stepsGranted), of: users), sleep: share(Double(sums.sleepGranted), of: users),
            sleepMinutes: spread(sums.sleep.values, users: sums.sleepUsers),
            wake: spread(sums.wake.values, users: sums.sleepUsers).map { (Estimate(value: $0.mean.value, se: $0.mean.se), $0.sd) },
            stepsPerDay: spread(sums.steps.values, users: sums.stepsUsers),
            slots: sums.slots.slots(days: days, dayStart: dayStart), logs: logs, checks: checks,
            checkAt: spread(sums.ticking.values, users: sums.users).map { (wall($0.mean, dayStart), $0.sd) },
            opened: opened(sums.opened.estimate(), ignored: ignored), ignored: ignored, skipToday: sums.skips.estimate(), acts: acts,
            halfLife: halfLife, optOutType: sums.optOutType.estimate(), optOutAll: sums.noticesOffSums.estimate,
            settings: sums.settings.settings(), noticesOff: share(Double(sums.noticesOff), of: users), between: sums.between.estimate,
            fatigue: fatigue.map { ($0.after, $0.perExtra) }, notes: notes)
        return FitBetweenUsers.unshifted(group)
    }

    /// The chance to open a notice. A notice acted on is opened (or its button pressed) by the
    /// act, which takes an opening or a silence alike; so among the deliveries seen, neither
    /// ignored nor acted on, opened and silent stand as the group's own chances do, which sum
    /// to 1 − ignored: opened = (1 − ignored) · opened / (seen − ignored − acted).
    static func opened(_ share: Estimate, ignored: Estimate) -> Estimate {
        let scale = 1 - ignored.value
        return Estimate(value: share.value * scale, se: share.se.map { $0 * scale })
    }

    /// A logical-day minute estimate as a wall-clock minute (same error).
    static func wall(_ estimate: Estimate, _ dayStart: Int) -> Estimate {
        Estimate(value: (estimate.value + Double(dayStart / 60)).truncatingRemainder(dividingBy: 1_440), se: estimate.se)
    }

    static func routineLogs(_ sums: GroupSums, dayStart: Int) -> [PopulationFit.Logs] {
        sums.logs.keys.sorted().compactMap { routine in
            guard let use = sums.logs[routine] else { return nil }
            let logDays = Double(use.days)
            let count = Double(use.count)
            guard logDays > 0, count > 0 else { return nil }
            let time = spread([count, use.minutes.value, use.minutesSquared.value], users: use.users)
            return PopulationFit.Logs(
                routine: routine, p: sums.shareOfDays(use).estimate(), value: use.value.value / count,
                count: Swift.max(1, Int((count / logDays).rounded())), at: wall(time?.mean ?? Estimate(value: 0, se: nil), dayStart),
                sd: time?.sd ?? 0)
        }
    }

    /// Each checklist's chance that an item is ticked: ticks over items × user-days.
    static func checklistTicks(_ sums: GroupSums, ruleset: Ruleset) -> [(routine: String, p: PopulationFit.Estimate)] {
        sums.ticks.keys.sorted().compactMap { routine in
            let items = ruleset.routines.first { $0.id == routine }?.items.count ?? 0
            guard items > 0, let use = sums.ticks[routine] else { return nil }
            return (routine, sums.shareOfDays(use, scale: Double(items)).estimate())
        }
    }
}

/// App-open slots: a mixture of normals over the minutes of the group's opens (10-minute
/// bins), fitted by EM for 1 … 5 components; the number of slots is the one with the least
/// BIC (`−2 ln L + (3J − 1) ln N`, N the opens). Each component is a slot: its chance a day is
/// its share of the opens over the user-days (at most 1), its time and spread its own.
enum FitSlots {
    /// The group's opens by 10-minute bin of the logical day, and their minutes summed.
    struct Sums: Sendable {
        var counts = [Int](repeating: 0, count: OpenBin.count)
        var minutes = [ExactSum](repeating: ExactSum(), count: OpenBin.count)

        mutating func add(_ user: UserFeatures) {
            for bin in user.openBins where bin.count > 0 {
                counts[bin.bin] += bin.count
                minutes[bin.bin].add(bin.minutes)
            }
        }

        func slots(days: Double, dayStart: Int) -> [PopulationFit.Slot] {
            FitSlots.slots(counts.map(Double.init), minutes.map(\.value), days: days, dayStart: dayStart)
        }
    }

    static func slots(_ counts: [Double], _ minutes: [Double], days: Double, dayStart: Int) -> [PopulationFit.Slot] {
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
