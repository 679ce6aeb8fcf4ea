import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// A normal distribution to draw from: `mean` and standard deviation `sd`.
package struct Spread: Sendable, Hashable {
    package var mean: Double
    package var sd: Double
}

/// A time of day to draw: `at` (seconds since midnight) with `sd` minutes of spread.
package struct TimeDraw: Sendable, Hashable {
    /// Probability per day (1 for draws that always happen).
    package var p: Double
    package var at: Int
    package var sdMinutes: Double
}

/// Habit logs a group makes: on a day (with probability `p`) `count` logs of `value`, each
/// at a time drawn around `at`.
package struct LogDraw: Sendable, Hashable {
    package var routine: String
    package var p: Double
    package var value: Double
    package var count: Int
    package var time: TimeDraw
}

/// One group of a population: who its users are and how their days go.
package struct PopulationGroup: Sendable {
    package var name: String
    package var weight: Double
    /// Enabled routines; nil means every `default_enabled` routine.
    package var routines: [String]?
    /// Probability that HealthKit steps / sleep access is granted (else denied).
    package var stepsPermission: Double
    package var sleepPermission: Double
    /// Minutes slept the night before, clipped to 0…900; nil: HealthKit holds no sleep.
    package var sleepMinutes: Spread?
    /// When the night ends (the app reads sleep up to there).
    package var wake: TimeDraw
    /// A day's steps, clipped at 0, walked evenly from 07:00 to 23:00; nil: none.
    package var steps: Spread?
    package var appOpens: [TimeDraw]
    package var logs: [LogDraw]
    /// Probability that each item of a checklist routine is ticked, evenings.
    package var checks: [(routine: String, p: Double)]
    /// When the evening ticks happen.
    package var checkTime: TimeDraw
    /// Responses to each delivered notification: opened, ignored, else none.
    package var opened: Double
    package var ignored: Double
    package var skipToday: Double
    package var origin: Origin
    /// What notices make the group's users do, how that wears off, fatigue and opt-outs.
    package var behaviour = Behaviour()
    /// What the group's users set, drawn once per user.
    package var settings: [SettingDraw] = []
    /// How much the group's users differ from each other; nil: only by their daily draws.
    package var between: BetweenUsers? = nil
}

/// A population file (`populations/*.yaml`): synthetic users the engine lives day by day.
package struct Population: Sendable {
    package var name: String
    package var file: String
    package var seed: UInt64
    package var users: Int
    package var days: Int
    /// The first logical day (days since 1970-01-01).
    package var start: Int
    package var timeZoneName: String
    package var clock: LocalClock
    package var groups: [PopulationGroup]
    /// SHA-256 (hex) of the file's canonical content (comments and layout aside): shards
    /// merge only when they lived the same population, whatever its name says.
    package var sha256: String

    /// Bounds of a population file: a run is users × days user-days.
    package static let maxUsers = 10_000_000
    package static let maxDays = 3_660
    package static let maxGroups = 100
    package static let maxDrawsPerGroup = 100
    package static let maxLogsPerDraw = 100

    /// Whether `days` days from `start` all lie within the days the engine lives and closes.
    package static func livesWithinEngineDays(start: Int, days: Int) -> Bool {
        InputLimits.simulatedDays.contains(start) && InputLimits.simulatedDays.contains(start + Swift.max(days, 1) - 1)
    }

    /// The most events a run may live (users × days × a day's events at most): about an hour
    /// of both cores of a laptop. Past it the run is refused before it starts.
    package static let maxEvents = 2_000_000_000
    /// The most events one user's days may hold: a user is generated whole, so this bounds
    /// a run's memory (about 100 MB), whatever the users.
    package static let maxEventsPerUser = 2_000_000

    /// The most events a user of any group can have in a day: app opens, logs (each
    /// `count`), checklist ticks, a skip, and a response to each delivery (at most the
    /// policy's daily cap) — with acts, each delivery's act too (an opening, a log or every
    /// item of a checklist ticked) and a type switched off.
    package func maxEventsPerDay(ruleset: Ruleset) -> Int {
        let mostItems = ruleset.routines.map(\.items.count).max() ?? 0
        return groups.map { group in
            let ticks = group.checks.reduce(0) { $0 + (ruleset.routine($1.routine)?.items.count ?? 0) }
            let perDelivery = group.behaviour.isEmpty ? 1 : 3 + mostItems
            let settings = group.settings.isEmpty ? 0 : 1
            return group.appOpens.count + group.logs.reduce(0) { $0 + $1.count } + ticks + 1 + settings + ruleset.policy.maxPerDay * perDelivery
        }.max() ?? 0
    }

    /// Why `users` users over `days` days are too much work, or nil. Counted without
    /// overflow: every factor is bounded, and the products are compared by division.
    package func workProblem(users: Int, days: Int, ruleset: Ruleset) -> String? {
        let perDay = Swift.max(1, maxEventsPerDay(ruleset: ruleset))
        if days > Self.maxEventsPerUser / perDay {
            return
                "a user lives up to \(perDay) events a day, \(days) days: past \(Self.maxEventsPerUser) events a user; give fewer days or fewer draws"
        }
        if users > Self.maxEvents / (perDay * days) {
            return
                "\(users) users × \(days) days × up to \(perDay) events a day is past the bound of \(Self.maxEvents) events (hours of work); give fewer users or days, or split the run with --shard"
        }
        return nil
    }
}

/// Reads population documents with the rule files' diagnostics: positions, did-you-mean for
/// keys and routine ids, numbers in range.
package struct PopulationLoader {
    let ruleset: Ruleset
    var reader: NodeReader
    /// The routines the acts of the group being read do (`does:`), with their nodes.
    var actedRoutines: [(id: String, node: YAMLNode)] = []

    package static let topKeys = ["name", "description", "seed", "users", "days", "start", "timezone", "groups", "version"]
    package static let groupKeys =
        [
            "name", "weight", "routines", "permission", "sleep_minutes", "wake", "steps", "app_opens", "logs", "checks", "check_at",
            "response", "skip_today", "description", "settings", "between_users",
        ] + behaviourKeys

    /// The population of a parsed document; nil with diagnostics when it has errors.
    package static func load(
        _ node: YAMLNode, file: String, source: SourceFile?, ruleset: Ruleset
    ) -> (
        population: Population?, diagnostics: [Diagnostic]
    ) {
        var loader = PopulationLoader(ruleset: ruleset, reader: NodeReader(file: file, source: source))
        let population = loader.population(node)
        let failed = loader.reader.diagnostics.contains { $0.severity == .error }
        return (failed ? nil : population, loader.reader.diagnostics)
    }

    /// A parsed population file: its YAML's diagnostics, then the population of its first
    /// document (a file with none is said to hold no population). `rules check`, `rules
    /// population` and the language server read population files through this.
    package static func load(
        parsed: ParsedDocuments, file: String, source: SourceFile?, ruleset: Ruleset
    ) -> (
        population: Population?, diagnostics: [Diagnostic]
    ) {
        guard parsed.isClean else { return (nil, parsed.diagnostics) }
        guard let document = parsed.documents.first(where: { !$0.isNull }) else {
            let none = Diagnostic(
                code: "ruleset.not_a_document", severity: .error, file: file, location: .fileStart, message: "the file holds no population")
            return (nil, parsed.diagnostics + [none])
        }
        let loaded = load(document, file: file, source: source, ruleset: ruleset)
        return (loaded.population, parsed.diagnostics + loaded.diagnostics)
    }

    mutating func population(_ node: YAMLNode) -> Population? {
        guard let fields = reader.fields(node, "a population", allowed: Self.topKeys, required: ["seed", "users", "days", "start", "groups"])
        else { return nil }
        if let version = fields["version"], version.scalar != "1" {
            reader.report(
                RulesetDiagnostics.error(
                    "ruleset.unsupported_version", reader.file, version, "version '\(version.scalar ?? "")' is not supported",
                    hint: "write version: 1"))
        }
        _ = fields["description"].flatMap { reader.string($0, key: "description") }
        let name = fields["name"].flatMap { reader.string($0, key: "name") } ?? (reader.file as NSString).lastPathComponent
        let seed = fields["seed"].flatMap { reader.int($0, key: "seed", minimum: 0, maximum: InputLimits.maxNumber) }
        let users = fields["users"].flatMap { reader.int($0, key: "users", minimum: 1, maximum: Population.maxUsers) }
        let days = fields["days"].flatMap { reader.int($0, key: "days", minimum: 1, maximum: Population.maxDays) }
        var start: Int?
        if let startNode = fields["start"], let text = reader.string(startNode, key: "start") {
            start = DateFormat.days(text)
            if start == nil {
                reader.report(
                    ScenarioDiagnostics.error(
                        "scenario.invalid_date", reader.file, startNode, "'\(text)' is not a date", hint: "write YYYY-MM-DD, e.g. 2026-07-06"))
            } else if let first = start, let days, !Population.livesWithinEngineDays(start: first, days: days) {
                let outside = InputLimits.simulatedDays.contains(first) ? "the last day, \(DateFormat.string(first + days - 1))," : text
                reader.report(ScenarioDiagnostics.error("scenario.invalid_date", reader.file, startNode, ScenarioLoader.outsideEngineDays(outside)))
                start = nil
            }
        }
        let (zoneName, clock) = ScenarioLoader.timeZone(fields["timezone"], &reader)
        var groups: [PopulationGroup] = []
        if let groupsNode = fields["groups"], let items = reader.list(groupsNode, key: "groups") {
            if items.isEmpty {
                reader.report(RulesetDiagnostics.outOfRange(reader.file, groupsNode, "a population needs at least one group"))
            } else if items.count > Population.maxGroups {
                reader.report(RulesetDiagnostics.outOfRange(reader.file, groupsNode, "more than \(Population.maxGroups) groups"))
            } else {
                groups = items.compactMap { group($0) }
                if groups.count == items.count, !groups.contains(where: { $0.weight > 0 }) {
                    reader.report(
                        RulesetDiagnostics.outOfRange(
                            reader.file, groupsNode, "every group has weight 0, so no user can be drawn from any",
                            hint: "give at least one group a weight above 0 (weights are relative shares; the default is 1)"))
                    groups = []
                }
            }
        }
        guard let seed, let users, let days, let start, let clock, !groups.isEmpty else { return nil }
        return Population(
            name: name, file: reader.file, seed: UInt64(seed), users: users, days: days, start: start, timeZoneName: zoneName, clock: clock,
            groups: groups, sha256: SHA256.hex(Array(RulesetBundle.canonical(node).rendered().utf8)))
    }

    mutating func group(_ node: YAMLNode) -> PopulationGroup? {
        guard let fields = reader.fields(node, "a population group", allowed: Self.groupKeys, required: ["name"]) else { return nil }
        _ = fields["description"].flatMap { reader.string($0, key: "description") }
        let name = fields["name"].flatMap { reader.string($0, key: "name") }
        let weight = fields["weight"].map { reader.number($0, key: "weight", minimum: 0, maximum: Double(InputLimits.maxNumber)) } ?? 1
        var routines: [String]?
        if let routinesNode = fields["routines"], let items = reader.list(routinesNode, key: "routines") {
            routines = items.compactMap { routineID($0, key: "routines") }
        }
        var stepsPermission = 1.0
        var sleepPermission = 1.0
        if let permission = fields["permission"], let pair = reader.fields(permission, "permissions", allowed: ["steps", "sleep"]) {
            stepsPermission = pair["steps"].flatMap { probability($0, key: "steps") } ?? 1
            sleepPermission = pair["sleep"].flatMap { probability($0, key: "sleep") } ?? 1
        }
        let sleepMinutes = fields["sleep_minutes"].flatMap { spread($0, key: "sleep_minutes", maximum: 900) }
        let steps = fields["steps"].flatMap { spread($0, key: "steps", maximum: Double(InputLimits.maxNumber)) }
        let wake = fields["wake"].flatMap { timeDraw($0, key: "wake", withProbability: false) } ?? TimeDraw(p: 1, at: 7 * 3600, sdMinutes: 0)
        var appOpens: [TimeDraw] = []
        if let opens = fields["app_opens"], let items = bounded(opens, key: "app_opens") {
            appOpens = items.compactMap { timeDraw($0, key: "app_opens", withProbability: true) }
        }
        var logs: [LogDraw] = []
        if let logsNode = fields["logs"], let items = bounded(logsNode, key: "logs") {
            logs = items.compactMap { logDraw($0) }
        }
        let checks = fields["checks"].map { self.checks($0) } ?? []
        let checkTime =
            fields["check_at"].flatMap { timeDraw($0, key: "check_at", withProbability: false) }
            ?? TimeDraw(p: 1, at: 21 * 3600 + 1800, sdMinutes: 45)
        let (opened, ignored) = fields["response"].map { responses($0) } ?? (0, 0)
        let skipToday = fields["skip_today"].flatMap { probability($0, key: "skip_today") } ?? 0
        actedRoutines = []
        let behaviour = self.behaviour(fields)
        warnActsOnRoutinesNotEnabled(routines)
        let settings = fields["settings"].map { settingDraws($0) } ?? []
        let between = fields["between_users"].flatMap { betweenUsers($0) }
        guard let name, let weight else { return nil }
        return PopulationGroup(
            name: name, weight: weight, routines: routines, stepsPermission: stepsPermission, sleepPermission: sleepPermission,
            sleepMinutes: sleepMinutes, wake: wake, steps: steps, appOpens: appOpens, logs: logs, checks: checks, checkTime: checkTime,
            opened: opened, ignored: ignored, skipToday: skipToday, origin: reader.origin(node), behaviour: behaviour, settings: settings,
            between: between)
    }

    /// An act that does a routine the group has not enabled does nothing: said, not dropped.
    mutating func warnActsOnRoutinesNotEnabled(_ routines: [String]?) {
        let enabled = Set(routines ?? ruleset.routines.filter(\.defaultEnabled).map(\.id))
        for (id, node) in actedRoutines where !enabled.contains(id) {
            reader.report(
                Diagnostic(
                    code: "scenario.routine_not_enabled", severity: .warning, file: reader.file, range: node.range,
                    message: "the group has not enabled '\(id)': an act that does it changes nothing on its users' days",
                    hint: routines == nil
                        ? "'\(id)' is off by default: list the group's routines (routines: [..., \(id)]) or drop it from does"
                        : "add '\(id)' to the group's routines, or drop it from does"))
        }
    }

    /// `checks:` — checklist routines and the chance each of their items is ticked.
    private mutating func checks(_ checksNode: YAMLNode) -> [(String, Double)] {
        guard let pairs = checksNode.pairs else {
            reader.report(RulesetDiagnostics.wrongType(reader.file, checksNode, expected: "a mapping of routine ids to probabilities"))
            return []
        }
        var checks: [(String, Double)] = []
        for pair in pairs {
            guard let id = routineID(pair.key, key: "checks"), let p = probability(pair.value, key: id) else { continue }
            if ruleset.routine(id)?.items.isEmpty == true {
                reader.report(
                    ScenarioDiagnostics.error(
                        "scenario.unknown_routine", reader.file, pair.key, "routine '\(id)' has no checklist items to tick",
                        hint: "checks: name checklist routines (\(ruleset.routines.filter { !$0.items.isEmpty }.map(\.id).joined(separator: ", ")))"
                    ))
                continue
            }
            checks.append((id, p))
        }
        return checks
    }

    /// `response:` — the chances a delivery is opened and ignored (the rest: no response).
    private mutating func responses(_ response: YAMLNode) -> (opened: Double, ignored: Double) {
        guard let pair = reader.fields(response, "responses", allowed: ["opened", "ignored"]) else { return (0, 0) }
        let opened = pair["opened"].flatMap { probability($0, key: "opened") } ?? 0
        let ignored = pair["ignored"].flatMap { probability($0, key: "ignored") } ?? 0
        if opened + ignored > 1 {
            reader.report(
                RulesetDiagnostics.outOfRange(
                    reader.file, response, "opened and ignored add up to more than 1", hint: "the rest (1 − opened − ignored) is no response"))
        }
        return (opened, ignored)
    }

    private mutating func bounded(_ node: YAMLNode, key: String) -> [YAMLNode]? {
        guard let items = reader.list(node, key: key) else { return nil }
        guard items.count <= Population.maxDrawsPerGroup else {
            reader.report(RulesetDiagnostics.outOfRange(reader.file, node, "more than \(Population.maxDrawsPerGroup) entries in '\(key)'"))
            return nil
        }
        return items
    }

    private mutating func probability(_ node: YAMLNode, key: String) -> Double? {
        reader.number(node, key: key, minimum: 0, maximum: 1)
    }

    private mutating func spread(_ node: YAMLNode, key: String, maximum: Double) -> Spread? {
        guard let fields = reader.fields(node, "'\(key)'", allowed: ["mean", "sd"], required: ["mean"]),
            let mean = fields["mean"].flatMap({ reader.number($0, key: "mean", minimum: 0, maximum: maximum) })
        else { return nil }
        let sd = fields["sd"].map { reader.number($0, key: "sd", minimum: 0, maximum: maximum) } ?? 0
        guard let sd else { return nil }
        return Spread(mean: mean, sd: sd)
    }

    mutating func timeDraw(_ node: YAMLNode, key: String, withProbability: Bool) -> TimeDraw? {
        let allowed = withProbability ? ["p", "at", "sd"] : ["at", "sd"]
        guard let fields = reader.fields(node, "'\(key)'", allowed: allowed, required: ["at"]) else { return nil }
        let p = withProbability ? (fields["p"].map { probability($0, key: "p") } ?? 1) : 1
        let at = fields["at"].flatMap { reader.time($0, key: "at") }
        let sd = fields["sd"].map { reader.number($0, key: "sd", minimum: 0, maximum: 24 * 60) } ?? 0
        guard let p, let at, let sd else { return nil }
        return TimeDraw(p: p, at: at % 86_400, sdMinutes: sd)
    }

    private mutating func logDraw(_ node: YAMLNode) -> LogDraw? {
        guard
            let fields = reader.fields(
                node, "a log draw", allowed: ["routine", "p", "value", "count", "at", "sd"], required: ["routine", "value", "at"])
        else { return nil }
        let routine = fields["routine"].flatMap { routineID($0, key: "routine") }
        let p = fields["p"].map { probability($0, key: "p") } ?? 1
        let value = fields["value"].flatMap { reader.number($0, key: "value", minimum: 0, maximum: InputLimits.maxLogValue) }
        let count = fields["count"].map { reader.int($0, key: "count", minimum: 1, maximum: Population.maxLogsPerDraw) } ?? 1
        let at = fields["at"].flatMap { reader.time($0, key: "at") }
        let sd = fields["sd"].map { reader.number($0, key: "sd", minimum: 0, maximum: 24 * 60) } ?? 0
        guard let routine, let p, let value, let count, let at, let sd else { return nil }
        return LogDraw(routine: routine, p: p, value: value, count: count, time: TimeDraw(p: 1, at: at % 86_400, sdMinutes: sd))
    }

    mutating func routineID(_ node: YAMLNode, key: String) -> String? {
        ScenarioLoader.routineID(node, key: key, ruleset: ruleset, &reader)
    }
}
