import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

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
        let sleepMinutes = fields["sleep_minutes"].flatMap { spread($0, key: "sleep_minutes", maximum: PopulationGroup.maxSleepMinutes) }
        let steps = fields["steps"].flatMap { spread($0, key: "steps", maximum: Double(InputLimits.maxNumber)) }
        let wake = fields["wake"].flatMap { timeDraw($0, key: "wake", withProbability: false) } ?? PopulationGroup.defaultWake
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
            ?? PopulationGroup.defaultCheckTime
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
        let sd = fields["sd"].map { reader.number($0, key: "sd", minimum: 0, maximum: PopulationGroup.maxSpreadMinutes) } ?? 0
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
        let sd = fields["sd"].map { reader.number($0, key: "sd", minimum: 0, maximum: PopulationGroup.maxSpreadMinutes) } ?? 0
        guard let routine, let p, let value, let count, let at, let sd else { return nil }
        return LogDraw(routine: routine, p: p, value: value, count: count, time: TimeDraw(p: 1, at: at % 86_400, sdMinutes: sd))
    }

    mutating func routineID(_ node: YAMLNode, key: String) -> String? {
        ScenarioLoader.routineID(node, key: key, ruleset: ruleset, &reader)
    }
}
