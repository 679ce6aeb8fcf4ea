import Foundation
import RulesDiagnostics
import RulesExpression
import RulesPopulation
import RulesTune

/// A fit written as a population file `rules check` and `rules population` accept, with
/// comments that say how many users and days each group rests on and each estimate's
/// standard error.
extension PopulationFit {
    package func yaml(name: String, seed: UInt64, timeZone: String, rulesetKey: String?) -> String {
        var out = "# yaml-language-server: $schema=../schemas/population.schema.json\n"
        out += "# Fitted by rules population fit from \(PopulationReport.grouped(users)) users over \(days) days of telemetry"
        out += rulesetKey.map { " (ruleset \($0))" } ?? ""
        out += ".\n# After each estimate, as a comment: its standard error (±).\n"
        for warning in warnings { out += "# note: \(warning)\n" }
        out += "name: \(Self.quoted(name))\nseed: \(seed)\nusers: \(users)\ndays: \(days)\nstart: \(DateFormat.string(start))\n"
        out += "timezone: \(Self.quoted(timeZone))\ngroups:\n"
        for (index, group) in groups.enumerated() { out += Self.group(group, number: index + 1) }
        return out
    }

    static func group(_ g: Group, number: Int) -> String {
        var out = "  - name: \"group \(number)\"\n"
        out += "    # \(PopulationReport.grouped(g.users)) users, \(PopulationReport.grouped(g.userDays)) user-days\n"
        out += "    weight: \(p(g.weight.value))\(se(g.weight))\n"
        out += "    routines: [\(g.routines.joined(separator: ", "))]\n"
        out += "    permission: { steps: \(p(g.steps.value)), sleep: \(p(g.sleep.value)) }   #\(se(g.steps, bare: true)),\(se(g.sleep, bare: true))\n"
        if let sleep = g.sleepMinutes {
            out +=
                "    sleep_minutes: { mean: \(whole(sleep.mean.value, at: 900)), sd: \(whole(sleep.sd, at: 900)) }\(se(sleep.mean, unit: " min"))\n"
        }
        if let wake = g.wake {
            out += "    wake: { at: \"\(clock(wake.at.value))\", sd: \(whole(wake.sd, at: 1_440)) }\(se(wake.at, unit: " min"))\n"
        }
        if let steps = g.stepsPerDay {
            out +=
                "    steps: { mean: \(whole(steps.mean.value, at: Double(InputLimits.maxNumber))), sd: \(whole(steps.sd, at: Double(InputLimits.maxNumber))) }\(se(steps.mean))\n"
        }
        if !g.slots.isEmpty {
            out += "    app_opens:\n"
            for slot in g.slots {
                out +=
                    "      - { p: \(p(slot.p.value)), at: \"\(clock(slot.at.value))\", sd: \(whole(slot.sd, at: 1_440)) }   # p\(se(slot.p, bare: true)), at\(se(slot.at, bare: true, unit: " min"))\n"
            }
        }
        let logs = g.logs.filter { g.routines.contains($0.routine) && $0.value > 0 }
        if !logs.isEmpty {
            out += "    logs:\n"
            for log in logs {
                out +=
                    "      - { routine: \(log.routine), p: \(p(log.p.value)), value: \(Knob.decimal((Swift.min(InputLimits.maxLogValue, log.value) * 10).rounded() / 10)), count: \(Swift.min(log.count, Population.maxLogsPerDraw)), "
                out +=
                    "at: \"\(clock(log.at.value))\", sd: \(whole(log.sd, at: 1_440)) }   # p\(se(log.p, bare: true)), at\(se(log.at, bare: true, unit: " min"))\n"
            }
        }
        let checks = g.checks.filter { g.routines.contains($0.routine) }
        if !checks.isEmpty {
            out +=
                "    checks: { \(checks.map { "\($0.routine): \(p($0.p.value))" }.joined(separator: ", ")) }\(comment(checks.map { se($0.p, bare: true) }))\n"
            if let at = g.checkAt { out += "    check_at: { at: \"\(clock(at.at.value))\", sd: \(whole(at.sd, at: 1_440)) }\n" }
        }
        out +=
            "    response: { opened: \(p(g.opened.value)), ignored: \(p(g.ignored.value)) }\(comment([se(g.opened, bare: true), se(g.ignored, bare: true)]))\n"
        out += "    skip_today: \(p(g.skipToday.value))\(se(g.skipToday))\n"
        return out + behaviour(g)
    }

    /// `   # ± 0.01, ± 0.02` from the errors there are; nothing when none is known (no notice
    /// was seen, say), never an empty `#,`.
    package static func comment(_ parts: [String]) -> String {
        let known = parts.filter { !$0.isEmpty }
        return known.isEmpty ? "" : "   #" + known.joined(separator: ",")
    }

    /// Acts, opt-outs, what users set and how they differ.
    static func behaviour(_ g: Group) -> String {
        var out = ""
        let acts = g.acts.filter { $0.p.value >= 0.001 }
        if !acts.isEmpty {
            out += "    acts:   # the trial: what a delivery got done within 45 minutes that the withheld left undone, over deliveries not ignored\n"
            for act in acts { out += "      \(act.type): { p: \(p(act.p.value)), within: 45m }\(se(act.p))\n" }
            if let life = g.halfLife, life.isFinite, life > 0, life < 1_000_000 {
                out += "      half_life: \(Knob.decimal((life * 10).rounded() / 10))\n"
            }
        }
        if let fatigue = g.fatigue {
            out +=
                "    fatigue: { after: \(fatigue.after), per_extra: \(p(fatigue.perExtra.value)) }   # ignoring by a day's deliveries\(se(fatigue.perExtra, bare: true))\n"
        }
        out += optOut(g)
        out += settings(g.settings)
        if let between = g.between {
            out +=
                "    between_users: { logit_sd: \(Knob.decimal((between.logitSD * 100).rounded() / 100)), minutes_sd: \(whole(between.minutesSD, at: BetweenUsers.maxMinutesSD)) }"
            out += "   # from the spread of users' own log rates and times\n"
        }
        return out
    }

    /// `opt_out:` — a type switched off per ignored delivery, every notice off per delivery past
    /// the day's `above`-th; each estimate's error in the comment.
    static func optOut(_ g: Group) -> String {
        var keys: [String] = []
        var notes: [String] = []
        if g.optOutType.value > 0 {
            keys.append("type: \(p(g.optOutType.value))")
            notes.append("a type switched off per ignored delivery\(se(g.optOutType, bare: true))")
        }
        if let all = g.optOutAll, all.all.value > 0 {
            keys += ["all: \(p(all.all.value))", "above: \(all.above)"]
            let past = all.above == 0 ? "" : all.above == 1 ? " past a day's first" : " past a day's first \(all.above)"
            notes.append("every notice off per delivery\(past)\(se(all.all, bare: true)) (\(p(g.noticesOff.value)) of the users did)")
        }
        guard !keys.isEmpty else { return "" }
        return "    opt_out: { \(keys.joined(separator: ", ")) }   # \(notes.joined(separator: "; "))\n"
    }

    /// `settings:` — what the group's users set, each estimate's error in a comment.
    static func settings(_ fitted: [FittedSetting]) -> String {
        guard !fitted.isEmpty else { return "" }
        func time(_ slot: Slot) -> String {
            "{ p: \(p(slot.p.value)), at: \"\(clock(slot.at.value))\", sd: \(whole(slot.sd, at: 1_440)) }   # p\(se(slot.p, bare: true)), at\(se(slot.at, bare: true, unit: " min"))"
        }
        var out = "    settings:   # set before their first notice, of the users who ran the app\n"
        for setting in fitted {
            switch setting.shape {
            case .share(let share): out += "      \(setting.key): \(p(share.value))\(se(share))\n"
            case .choice(let values, let shares):
                out += "      \(setting.key): { \(zip(values, shares).map { "\($0): \(p($1.value))" }.joined(separator: ", ")) }"
                out += "   #\(shares.map { se($0, bare: true) }.joined(separator: ","))\n"
            case .time(let slot): out += "      \(setting.key): \(time(slot))\n"
            case .perRoutine(let routines, let times):
                out += "      \(setting.key):   # of the users who keep each routine\n"
                for (routine, slot) in zip(routines, times) { out += "        \(routine): \(time(slot))\n" }
            }
        }
        return out
    }

    static func p(_ x: Double) -> String { Knob.decimal((Swift.min(1, Swift.max(0, x)) * 1_000).rounded() / 1_000) }
    /// A whole number from 0 to `bound` (the population file's own limit for the key).
    static func whole(_ x: Double, at bound: Double) -> String {
        guard x.isFinite else { return "0" }
        return String(Int(Swift.min(bound, Swift.max(0, x)).rounded()))
    }
    static func clock(_ minutes: Double) -> String {
        guard minutes.isFinite, abs(minutes) < 1e9 else { return "00:00" }
        let m = ((Int(minutes.rounded()) % 1_440) + 1_440) % 1_440
        return TimeFormat.clock(m * 60)
    }

    /// `   # ± 0.012` (or ` ± 0.012` bare, for a comment that lists several).
    static func se(_ e: Estimate, bare: Bool = false, unit: String = "") -> String {
        guard let se = e.se, se.isFinite else { return "" }
        // Any finite error is written: whole from 10, in powers of ten past what a whole number holds.
        let text = se >= 1e15 ? String(format: "%.3g", se) : se >= 10 ? String(Int(se.rounded())) : String(format: "%.3f", se)
        return bare ? " ± \(text)\(unit)" : "   # ± \(text)\(unit)"
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
