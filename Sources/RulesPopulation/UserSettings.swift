import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression
import Ruleset

/// What a group's users set (`settings:`), drawn once per user: the shape follows the type the
/// ruleset declares the setting with.
///
/// - a `bool`: the share who have it on (the rest off);
/// - an `enum`: shares per value (the rest keep the default);
/// - a `time` or `time?`: `{ p, at, sd }`, the share who set one and when (the rest keep the
///   default: none for `time?`);
/// - a `map<routine_id, time>`: per routine, `{ p, at, sd }` — drawn only for routines the user
///   has enabled (a reminder for a routine the user does not keep is never set).
///
/// What differs from the ruleset's default is sent as one ordinary `settings` event at the
/// user's first app run, so the engine, the report and the telemetry see it as they would a
/// real user's.
package struct SettingDraw: Sendable, Equatable {
    package enum Shape: Sendable, Equatable {
        case bool(share: Double)
        /// Values and their shares, in the file's order.
        case choice(values: [String], shares: [Double])
        case time(TimeDraw)
        /// Routines and when each is set, in the file's order.
        case perRoutine(routines: [String], times: [TimeDraw])
    }

    /// The setting's key (`bedtime`).
    package var key: String
    package var shape: Shape
    /// The ruleset's default.
    package var defaultValue: Value

    package init(key: String, shape: Shape, defaultValue: Value) {
        self.key = key
        self.shape = shape
        self.defaultValue = defaultValue
    }
}

/// `between_users:` — how much a group's users differ from each other beyond their daily
/// draws: each user's own offset on the logit scale for every probability of the group, and
/// own minutes for every time, drawn once.
package struct BetweenUsers: Sendable, Equatable {
    package var logitSD: Double
    package var minutesSD: Double

    package static let maxLogitSD = 10.0
    package static let maxMinutesSD = 720.0

    package init(logitSD: Double, minutesSD: Double) {
        self.logitSD = logitSD
        self.minutesSD = minutesSD
    }
}

extension PopulationLoader {
    /// Settings the population cannot draw per user: the day's start lays out every day of the
    /// population, so one user's own cannot move it.
    package static let fixedSettings = ["day_starts_at"]

    /// `settings:` of a group, checked against the ruleset's declarations.
    mutating func settingDraws(_ node: YAMLNode) -> [SettingDraw] {
        guard let pairs = node.pairs else {
            reader.report(RulesetDiagnostics.wrongType(reader.file, node, expected: "a mapping of the ruleset's settings to what users set"))
            return []
        }
        let declared = ruleset.settings.map(\.key)
        var draws: [SettingDraw] = []
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            guard let declaration = ruleset.settings.declaration(key) else {
                reader.report(RulesetDiagnostics.unknownKey(reader.file, pair.key, in: "settings", allowed: declared))
                continue
            }
            if Self.fixedSettings.contains(key) {
                reader.report(
                    RulesetDiagnostics.outOfRange(
                        reader.file, pair.key, "'\(key)' cannot be drawn per user: the population's days are laid out from the ruleset's",
                        hint: "change its default in the ruleset's settings instead"))
                continue
            }
            if let shape = settingShape(pair.value, key: key, type: declaration.type) {
                draws.append(SettingDraw(key: key, shape: shape, defaultValue: declaration.defaultValue))
            }
        }
        return draws
    }

    private mutating func settingShape(_ node: YAMLNode, key: String, type: ExpressionType) -> SettingDraw.Shape? {
        switch type {
        case .bool:
            return reader.number(node, key: key, minimum: 0, maximum: 1).map { .bool(share: $0) }
        case .enumeration(let values):
            guard let pairs = node.pairs else {
                reader.report(
                    RulesetDiagnostics.wrongType(
                        reader.file, node, expected: "a mapping of '\(key)' values to shares",
                        hint: "e.g. { \(values.cases.last ?? "value"): 0.3 }: the rest keep the default"))
                return nil
            }
            var names: [String] = []
            var shares: [Double] = []
            for pair in pairs {
                guard let name = reader.choice(pair.key, key: key, what: "value of '\(key)'", allowed: values.cases),
                    let share = reader.number(pair.value, key: name, minimum: 0, maximum: 1)
                else { continue }
                names.append(name)
                shares.append(share)
            }
            if shares.reduce(0, +) > 1 + 1e-9 {
                reader.report(
                    RulesetDiagnostics.outOfRange(
                        reader.file, node, "the shares of '\(key)' add up to more than 1", hint: "the rest (1 − their sum) keep the default"))
                return nil
            }
            return .choice(values: names, shares: shares)
        case .time, .optional(.time):
            return timeDraw(node, key: key, withProbability: true).map { .time($0) }
        case .map(.routineID, .time):
            guard let pairs = node.pairs else {
                reader.report(
                    RulesetDiagnostics.wrongType(
                        reader.file, node, expected: "a mapping of routine ids to { p, at, sd }",
                        hint: "e.g. { water: { p: 0.5, at: \"10:00\", sd: 60 } }"))
                return nil
            }
            var routines: [String] = []
            var times: [TimeDraw] = []
            for pair in pairs {
                guard let routine = routineID(pair.key, key: key), let time = timeDraw(pair.value, key: routine, withProbability: true) else {
                    continue
                }
                routines.append(routine)
                times.append(time)
            }
            return .perRoutine(routines: routines, times: times)
        default:
            reader.report(
                RulesetDiagnostics.wrongType(
                    reader.file, node, expected: "a setting a population can draw (bool, enum, time, time?, map<routine_id, time>)",
                    hint: "'\(key)' is a \(type); set it in a scenario instead"))
            return nil
        }
    }

    /// `between_users: { logit_sd, minutes_sd }`.
    mutating func betweenUsers(_ node: YAMLNode) -> BetweenUsers? {
        guard let fields = reader.fields(node, "'between_users'", allowed: ["logit_sd", "minutes_sd"]) else { return nil }
        let logit = fields["logit_sd"].map { reader.number($0, key: "logit_sd", minimum: 0, maximum: BetweenUsers.maxLogitSD) } ?? 0
        let minutes = fields["minutes_sd"].map { reader.number($0, key: "minutes_sd", minimum: 0, maximum: BetweenUsers.maxMinutesSD) } ?? 0
        guard let logit, let minutes else { return nil }
        return BetweenUsers(logitSD: logit, minutesSD: minutes)
    }
}

/// What makes one user of a group their own: their offsets (`between_users`) and their
/// settings. Drawn from streams of their own, apart from the user's days, so a population
/// without these keys draws exactly the users it always did.
package struct UserTraits {
    /// The stream salts: the user's offsets and settings are keyed apart from their days.
    static let offsetSalt: UInt64 = 0x4245_5457_4545_4e55
    static let settingsSalt: UInt64 = 0x5345_5454_494e_4753

    /// The group as this user lives it: every probability moved by the user's own logit offset
    /// and every time by their own minutes. The offsets are drawn in the file's order (acts by
    /// their sorted keys), one for each, whether or not it is used.
    static func personalised(_ group: PopulationGroup, seed: UInt64, user: Int) -> PopulationGroup {
        guard let between = group.between, between.logitSD > 0 || between.minutesSD > 0 else { return group }
        var random = SplitMix64(mixing: seed &+ offsetSalt, UInt64(user))
        func p(_ value: Double) -> Double { shifted(value, by: between.logitSD * random.normal()) }
        func time(_ draw: TimeDraw) -> TimeDraw {
            var moved = draw
            let minutes = (between.minutesSD * random.normal()).rounded()
            moved.at = ((draw.at + Int(minutes) * 60) % 86_400 + 86_400) % 86_400
            return moved
        }
        var out = group
        out.wake = time(group.wake)
        out.appOpens = group.appOpens.map { open in
            var moved = time(open)
            moved.p = p(open.p)
            return moved
        }
        out.logs = group.logs.map { log in
            var moved = log
            moved.time = time(log.time)
            moved.p = p(log.p)
            return moved
        }
        out.checks = group.checks.map { ($0.routine, p($0.p)) }
        out.checkTime = time(group.checkTime)
        let opened = p(group.opened)
        let ignored = p(group.ignored)
        let answered = opened + ignored
        (out.opened, out.ignored) = answered > 1 ? (opened / answered, ignored / answered) : (opened, ignored)
        if let act = group.behaviour.defaultAct { out.behaviour.defaultAct?.p = p(act.p) }
        for key in group.behaviour.acts.keys.sorted() {
            if let act = group.behaviour.acts[key] { out.behaviour.acts[key]?.p = p(act.p) }
        }
        out.settings = group.settings.map { draw in
            var moved = draw
            switch draw.shape {
            case .time(let at): moved.shape = .time(time(at))
            case .perRoutine(let routines, let times): moved.shape = .perRoutine(routines: routines, times: times.map(time))
            case .bool, .choice: break
            }
            return moved
        }
        return out
    }

    /// `p` moved by `offset` on the logit scale; 0 and 1 stay (nobody, everybody).
    package static func shifted(_ p: Double, by offset: Double) -> Double {
        guard p > 0, p < 1, offset != 0 else { return p }
        let logit = log(p / (1 - p)) + offset
        return 1 / (1 + exp(-logit))
    }

    /// What user `user` sets, as the values that differ from the defaults (empty: nothing).
    /// `enabled`: the user's routines (a per-routine time is set only for those).
    static func settings(_ draws: [SettingDraw], seed: UInt64, user: Int, enabled: Set<String>) -> [String: Value] {
        guard !draws.isEmpty else { return [:] }
        var random = SplitMix64(mixing: seed &+ settingsSalt, UInt64(user))
        func minute(_ draw: TimeDraw) -> Int {
            let minutes = (Double(draw.at) / 60 + draw.sdMinutes * random.normal()).rounded()
            return ((Int(minutes) * 60) % 86_400 + 86_400) % 86_400
        }
        var values: [String: Value] = [:]
        for draw in draws {
            var value = draw.defaultValue
            switch draw.shape {
            case .bool(let share): value = .bool(random.chance(share))
            case .choice(let names, let shares):
                let point = random.uniform()
                var cumulative = 0.0
                for (name, share) in zip(names, shares) {
                    cumulative += share
                    if point < cumulative {
                        value = .string(name)
                        break
                    }
                }
            case .time(let time):
                let set = random.chance(time.p)
                let at = minute(time)
                if set { value = .time(at) }
            case .perRoutine(let routines, let times):
                var entries: [String: Value] = [:]
                if case .map(let defaults) = draw.defaultValue { entries = defaults }
                for (routine, time) in zip(routines, times) {
                    let set = random.chance(time.p)
                    let at = minute(time)
                    if set, enabled.contains(routine) { entries[routine] = .time(at) }
                }
                value = .map(entries)
            }
            if value != draw.defaultValue { values[draw.key] = value }
        }
        return values
    }
}
