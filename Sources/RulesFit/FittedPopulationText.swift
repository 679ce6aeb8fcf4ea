import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesPopulation
import Ruleset

/// A fit as the loader's own values (`Population`, `PopulationGroup`), each estimate rounded
/// and bounded by the loader's limits, and the notes that say how many users and days each
/// group rests on and each estimate's standard error; `PopulationWriter`, the one writer of
/// population files, turns them into text `rules check` and `rules population` accept.
extension PopulationFit {
    package func yaml(name: String, seed: UInt64, timeZone: String, rulesetKey: String?, ruleset: Ruleset) -> String {
        let (population, writer) = written(name: name, seed: seed, timeZone: timeZone, rulesetKey: rulesetKey, ruleset: ruleset)
        return writer.yaml(population)
    }

    /// The population the fit describes and the writer that adds its notes.
    package func written(name: String, seed: UInt64, timeZone: String, rulesetKey: String?, ruleset: Ruleset) -> (Population, PopulationWriter) {
        var writer = PopulationWriter()
        writer.header =
            [
                "Fitted by rules population fit from \(PopulationReport.grouped(users)) users over \(days) days of telemetry"
                    + (rulesetKey.map { " (ruleset \($0))" } ?? "") + ".",
                "After each estimate, as a comment: its standard error (±).",
            ] + warnings.map { "note: \($0)" }
        var groups: [PopulationGroup] = []
        for (index, group) in self.groups.enumerated() {
            var notes = FitNotes(path: "groups.\(index)")
            groups.append(Self.group(group, number: index + 1, ruleset: ruleset, notes: &notes))
            writer.notes.merge(notes.notes) { first, _ in first }
        }
        let clock = LocalClock(identifier: timeZone) ?? LocalClock(timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        let population = Population(
            name: name, file: "", seed: seed, users: Swift.min(Swift.max(users, 1), Population.maxUsers), days: days, start: start,
            timeZoneName: timeZone, clock: clock, groups: groups, sha256: "")
        return (population, writer)
    }

    /// One group as the loader would hold it, its notes in `notes`.
    static func group(_ g: Group, number: Int, ruleset: Ruleset, notes: inout FitNotes) -> PopulationGroup {
        notes.line("", "\(PopulationReport.grouped(g.users)) users, \(PopulationReport.grouped(g.userDays)) user-days")
        notes.add("weight", g.weight)
        notes.add("permission", g.steps, g.sleep)
        let logs = g.logs.filter { g.routines.contains($0.routine) && $0.value > 0 }
        let checks = g.checks.filter { g.routines.contains($0.routine) }
        var group = PopulationGroup(
            name: "group \(number)", weight: p(g.weight.value), routines: g.routines, stepsPermission: p(g.steps.value),
            sleepPermission: p(g.sleep.value), sleepMinutes: nil, wake: PopulationGroup.defaultWake, steps: nil, appOpens: [], logs: [],
            checks: checks.map { ($0.routine, p($0.p.value)) }, checkTime: PopulationGroup.defaultCheckTime, opened: p(g.opened.value),
            ignored: 0, skipToday: p(g.skipToday.value), origin: .unknown)
        // The rest of a day's deliveries get no response: opened and ignored never add past 1.
        group.ignored = Swift.min(p(g.ignored.value), left(after: group.opened))
        if let sleep = g.sleepMinutes {
            let most = PopulationGroup.maxSleepMinutes
            group.sleepMinutes = Spread(mean: whole(sleep.mean.value, at: most), sd: whole(sleep.sd, at: most))
            notes.add("sleep_minutes", sleep.mean, unit: " min")
        }
        if let wake = g.wake {
            group.wake = time(p: 1, at: wake.at.value, sd: wake.sd)
            notes.add("wake", wake.at, unit: " min")
        }
        if let steps = g.stepsPerDay {
            let most = Double(InputLimits.maxNumber)
            group.steps = Spread(mean: whole(steps.mean.value, at: most), sd: whole(steps.sd, at: most))
            notes.add("steps", steps.mean)
        }
        group.appOpens = g.slots.prefix(Population.maxDrawsPerGroup).enumerated().map { index, slot in
            notes.slot("app_opens.\(index)", slot.p, slot.at)
            return time(p: p(slot.p.value), at: slot.at.value, sd: slot.sd)
        }
        group.logs = logs.prefix(Population.maxDrawsPerGroup).enumerated().map { index, log in
            notes.slot("logs.\(index)", log.p, log.at)
            let value = (Swift.min(InputLimits.maxLogValue, log.value) * 10).rounded() / 10
            let count = Swift.min(Swift.max(log.count, 1), Population.maxLogsPerDraw)
            return LogDraw(routine: log.routine, p: p(log.p.value), value: value, count: count, time: time(p: 1, at: log.at.value, sd: log.sd))
        }
        notes.add("checks", checks.map(\.p))
        if !checks.isEmpty, let at = g.checkAt { group.checkTime = time(p: 1, at: at.at.value, sd: at.sd) }
        notes.add("response", g.opened, g.ignored)
        notes.add("skip_today", g.skipToday)
        group.behaviour = behaviour(g, notes: &notes)
        group.settings = settings(g.settings, ruleset: ruleset, notes: &notes)
        if let between = g.between {
            let logit = Swift.min(BetweenUsers.maxLogitSD, Swift.max(0, (between.logitSD * 100).rounded() / 100))
            group.between = BetweenUsers(logitSD: logit.isFinite ? logit : 0, minutesSD: whole(between.minutesSD, at: BetweenUsers.maxMinutesSD))
            notes.line("between_users", "from the spread of users' own log rates and times")
        }
        return group
    }

    /// Acts, fatigue and opt-outs.
    static func behaviour(_ g: Group, notes: inout FitNotes) -> Behaviour {
        var behaviour = Behaviour()
        let acts = g.acts.filter { $0.p.value >= 0.001 }.prefix(Behaviour.maxActs)
        if !acts.isEmpty {
            notes.line("acts", "the trial: what a delivery got done within 45 minutes that the withheld left undone, over deliveries not ignored")
            for act in acts {
                behaviour.acts[act.type] = Behaviour.Act(p: p(act.p.value), within: 45 * 60, does: nil)
                notes.add("acts.\(act.type)", act.p)
            }
            if let life = g.halfLife, life.isFinite {
                let rounded = Swift.min(Behaviour.maxHalfLife, (life * 10).rounded() / 10)
                if rounded > 0, rounded < Behaviour.maxHalfLife { behaviour.halfLife = rounded }
            }
        }
        if let fatigue = g.fatigue {
            behaviour.fatigueAfter = Swift.min(Swift.max(fatigue.after, 0), 1_000)
            behaviour.fatiguePerExtra = p(fatigue.perExtra.value)
            notes.line("fatigue", "ignoring by a day's deliveries" + (FitNotes.se(fatigue.perExtra).map { " \($0)" } ?? ""))
        }
        var said: [String] = []
        if g.optOutType.value > 0 {
            behaviour.optOutType = p(g.optOutType.value)
            said.append("a type switched off per ignored delivery" + (FitNotes.se(g.optOutType).map { " \($0)" } ?? ""))
        }
        if let all = g.optOutAll, all.all.value > 0 {
            behaviour.optOutAll = p(all.all.value)
            behaviour.optOutAbove = Swift.min(Swift.max(all.above, 0), 1_000)
            let past = all.above == 0 ? "" : all.above == 1 ? " past a day's first" : " past a day's first \(all.above)"
            said.append(
                "every notice off per delivery\(past)\(FitNotes.se(all.all).map { " \($0)" } ?? "") (\(PopulationWriter.number(p(g.noticesOff.value))) of the users did)"
            )
        }
        if !said.isEmpty { notes.line("opt_out", said.joined(separator: "; ")) }
        return behaviour
    }

    /// What the group's users set, as the loader's draws (with the ruleset's defaults).
    static func settings(_ fitted: [FittedSetting], ruleset: Ruleset, notes: inout FitNotes) -> [SettingDraw] {
        var draws: [SettingDraw] = []
        for setting in fitted {
            guard let declaration = ruleset.settings.declaration(setting.key) else { continue }
            let key = "settings.\(setting.key)"
            let shape: SettingDraw.Shape
            switch setting.shape {
            case .share(let share):
                shape = .bool(share: p(share.value))
                notes.add(key, share)
            case .choice(let values, let estimates):
                // Each share rounded, and together never past 1 (the rest keep the default).
                var shares: [Double] = []
                for estimate in estimates { shares.append(Swift.min(p(estimate.value), left(after: shares.reduce(0, +)))) }
                shape = .choice(values: values, shares: shares)
                notes.add(key, estimates)
            case .time(let slot):
                shape = .time(time(p: p(slot.p.value), at: slot.at.value, sd: slot.sd))
                notes.slot(key, slot.p, slot.at)
            case .perRoutine(let routines, let slots):
                shape = .perRoutine(routines: routines, times: slots.map { time(p: p($0.p.value), at: $0.at.value, sd: $0.sd) })
                notes.line(key, "of the users who keep each routine")
                for (routine, slot) in zip(routines, slots) { notes.slot("\(key).\(routine)", slot.p, slot.at) }
            }
            draws.append(SettingDraw(key: setting.key, shape: shape, defaultValue: declaration.defaultValue))
        }
        if !draws.isEmpty { notes.line("settings", "set before their first notice, of the users who ran the app") }
        return draws
    }

    /// A probability to the loader's three decimals.
    static func p(_ x: Double) -> Double { x.isFinite ? (Swift.min(1, Swift.max(0, x)) * 1_000).rounded() / 1_000 : 0 }
    /// What is left of 1 after `used`, to three decimals rounded down: shares that add up to it
    /// never pass 1 (the loader refuses them).
    static func left(after used: Double) -> Double { ((1 - used) * 1_000).rounded(.down) / 1_000 }
    /// A whole number from 0 to `bound` (the loader's own limit for the key).
    static func whole(_ x: Double, at bound: Double) -> Double { x.isFinite ? Swift.min(bound, Swift.max(0, x)).rounded() : 0 }
    /// A time of day from wall minutes (any finite number, taken round the clock).
    static func time(p: Double, at minutes: Double, sd: Double) -> TimeDraw {
        let m = minutes.isFinite && abs(minutes) < 1e9 ? ((Int(minutes.rounded()) % 1_440) + 1_440) % 1_440 : 0
        return TimeDraw(p: p, at: m * 60, sdMinutes: whole(sd, at: PopulationGroup.maxSpreadMinutes))
    }
}

/// The comments a fitted group's keys carry, by the writer's paths.
struct FitNotes {
    let path: String
    var notes: [String: String] = [:]

    init(path: String) { self.path = path }

    mutating func line(_ key: String, _ text: String) { notes[key.isEmpty ? path : path + "." + key] = text }

    /// `± 0.012, ± 0.02` from the errors there are; nothing when none is known.
    mutating func add(_ key: String, _ estimates: PopulationFit.Estimate..., unit: String = "") { add(key, estimates, unit: unit) }

    mutating func add(_ key: String, _ estimates: [PopulationFit.Estimate], unit: String = "") {
        let known = estimates.compactMap { Self.se($0, unit: unit) }
        if !known.isEmpty { line(key, known.joined(separator: ", ")) }
    }

    /// `p ± 0.01, at ± 3 min` for a time drawn with a chance.
    mutating func slot(_ key: String, _ p: PopulationFit.Estimate, _ at: PopulationFit.Estimate) {
        let parts = [Self.se(p).map { "p \($0)" }, Self.se(at, unit: " min").map { "at \($0)" }].compactMap { $0 }
        if !parts.isEmpty { line(key, parts.joined(separator: ", ")) }
    }

    /// `± 0.012`: any finite error, whole from 10, in powers of ten past what a whole number holds.
    static func se(_ e: PopulationFit.Estimate, unit: String = "") -> String? {
        guard let se = e.se, se.isFinite else { return nil }
        let text = se >= 1e15 ? String(format: "%.3g", se) : se >= 10 ? String(Int(se.rounded())) : String(format: "%.3f", se)
        return "± \(text)\(unit)"
    }
}
