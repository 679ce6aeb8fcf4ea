import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

extension OperatorEngine {
    /// Applies an event's effect, then runs the app's decisions if it is an app run.
    mutating func apply(_ event: EngineEvent, at time: Date) {
        switch event {
        case .appOpened(let health):
            note(at: time, .appRun(cause: .open, synced: true))
            act { $0.sync(health, at: time) }
            decide(at: time)
        case .log(let routine, let value, let unit, let source):
            note(at: time, .appRun(cause: .log, synced: false))
            // A check routine already completed logs nothing, but the run still decides.
            guard act({ $0.addLog(routine: routine, value: value, unit: unit, source: source, at: time) }) != .refused else { return }
            decide(at: time)
        case .editLog(let id, let value):
            note(at: time, .appRun(cause: .editLog, synced: false))
            guard act({ $0.editLog(id: id, value: value, at: time) }) else { return }
            decide(at: time)
        case .deleteLog(let id):
            note(at: time, .appRun(cause: .deleteLog, synced: false))
            guard act({ $0.deleteLog(id: id, at: time) }) else { return }
            decide(at: time)
        case .check(let routine, let item), .uncheck(let routine, let item):
            let checked: Bool
            if case .check = event { checked = true } else { checked = false }
            note(at: time, .appRun(cause: checked ? .check : .uncheck, synced: false))
            guard act({ $0.tick(routine: routine, item: item, checked: checked, at: time) }) else { return }
            decide(at: time)
        case .widget(let intent):
            note(at: time, .appRun(cause: .widget(intent), synced: false))
            decide(at: time, routeRequested: act { $0.widget(intent, at: time) })
        case .action(let action):
            note(at: time, .appRun(cause: .action(action), synced: false))
            decide(at: time, routeRequested: act { $0.request(action, at: time) })
        case .toolCall(let text, let health):
            // One app run, whatever the tool does: an accepted `sync_health_data` syncs
            // inside it (with the reading the host got).
            decide(at: time, routeRequested: runTool(text, health: health, at: time))
        case .notificationResponse(let id, let response, let health):
            respond(id: id, response: response, health: health, at: time)
        case .settings(let values):
            note(at: time, .appRun(cause: .settings, synced: false))
            changeSettings(values, at: time)
            decide(at: time)
        case .notificationDelivered, .timeZoneChanged:
            break  // handled before any app run (see `handle`)
        }
    }

    /// The user's actions on the day (`DayActions`), with the day lent to them and their
    /// outcome applied (`apply(_: inout DayActions)`); returns what `body` returns.
    mutating func act<Result>(_ body: (inout DayActions) -> Result) -> Result {
        var actions = dayActions(on: lendDay())
        let result = body(&actions)
        apply(&actions)
        return result
    }

    /// The user's actions as this user's profile and clock stand, on `day`. (Made apart from
    /// `act`: built inside it, with the day lent in the same expression, Swift 6.3.1's
    /// optimiser crashed in release builds, CopyPropagation.) The profile's field is read
    /// in place: `profile` copies all of it.
    func dayActions(on day: DayState?) -> DayActions {
        DayActions(
            prepared: prepared, enabled: storedProfile.enabledRoutines, clock: clock, dayStart: dayStart, explains: explains,
            candidateIDs: memos.planning.candidateIDs, day: day, log: RecordLog(recordsKept))
    }

    /// New setting values (unknown keys and wrong types are problems, not traps), applied.
    mutating func changeSettings(_ values: [String: Value], at time: Date) {
        var log = RecordLog(recordsKept)
        let settings = settingsChanged(by: values, at: time, log: &log)
        apply(log)
        apply(settings: settings)
    }

    /// The user's settings with `values` set: each unknown key and value of the wrong type a
    /// problem, the values taken a `settings.changed` record.
    func settingsChanged(by values: [String: Value], at time: Date, log: inout RecordLog) -> [String: Value] {
        var settings = profile.settings
        var changed: [String: Value] = [:]
        for key in values.keys.sorted() {
            guard let declaration = ruleset.settings.declaration(key), let value = values[key] else {
                log.problem(at: time, .unknownSetting, "no setting '\(key)'")
                continue
            }
            guard OperatorEngine.fits(value, declaration.type, in: ruleset) else {
                log.problem(at: time, .invalidSetting, "setting '\(key)' takes \(declaration.type), not \(value)")
                continue
            }
            settings[key] = value
            changed[key] = value
        }
        if !changed.isEmpty { log.note(at: time, .settingsChanged(changed)) }
        return settings
    }

    /// The values the user set, as `ruleset` can keep them: each keeps a value that fits (a
    /// map the entries that fit: a routine the ruleset dropped loses only its own reminder);
    /// a value that no longer fits, or of a setting that is gone, is dropped, and the
    /// default applies. Settings the user never set stay unset (they read the ruleset's
    /// default). Returns each change, in declaration order and then by key. The one fitting
    /// of stored settings: for the profile an engine is made with, and for a ruleset that
    /// changes under a saved state.
    static func fit(_ settings: inout [String: Value], to ruleset: Ruleset) -> [Reconciliation] {
        // In place: an engine is made per user of a population, and almost always nothing
        // changes here.
        var changes: [Reconciliation] = []
        guard !settings.isEmpty else { return changes }
        for declaration in ruleset.settings {
            guard let value = settings[declaration.key] else { continue }
            if let fitted = fitted(value, declaration.type, in: ruleset) {
                guard fitted != value else { continue }
                changes.append(Reconciliation(subject: .setting, id: declaration.key, action: .entriesDropped))
                settings[declaration.key] = fitted
            } else {
                changes.append(Reconciliation(subject: .setting, id: declaration.key, action: .dropped))
                settings[declaration.key] = nil
            }
        }
        if settings.contains(where: { ruleset.settings.declaration($0.key) == nil }) {
            for key in settings.keys.filter({ ruleset.settings.declaration($0) == nil }).sorted() {
                changes.append(Reconciliation(subject: .setting, id: key, action: .dropped))
                settings[key] = nil
            }
        }
        return changes
    }

    /// A stored value as `ruleset` can keep it: a map loses the entries that no longer fit
    /// and keeps the rest; nil when the value itself does not fit.
    static func fitted(_ value: Value, _ type: ExpressionType, in ruleset: Ruleset) -> Value? {
        switch (value, type) {
        case (.map(let entries), .map(let keyType, let valueType)):
            return .map(entries.filter { entryFits($0, keyType, valueType, in: ruleset) })
        case (.map, .optional(let wrapped)): return fitted(value, wrapped, in: ruleset)
        default: return fits(value, type, in: ruleset) ? value : nil
        }
    }

    /// Whether a setting value may be stored: of the declared type and within what a rule
    /// file may say (numbers within ±10^9, times of day 00:00–24:00, durations within ±10^9 s,
    /// dates within the days the engine lives, known routine ids, every list item and map
    /// entry alike). The one check for settings from events, the host, saved states and
    /// reconciliation: a value past it would reach the engine's arithmetic.
    static func fits(_ value: Value, _ type: ExpressionType, in ruleset: Ruleset) -> Bool {
        let limit = Double(InputLimits.maxNumber)
        switch (value, type) {
        case (.unknown, .optional): return true
        case (_, .optional(let wrapped)): return fits(value, wrapped, in: ruleset)
        case (.bool, .bool), (.string, .string): return true
        case (.int(let number), .int), (.int(let number), .number): return abs(Double(number)) <= limit
        case (.number(let number), .number): return number.isFinite && abs(number) <= limit
        case (.time(let seconds), .time): return (0...86_400).contains(seconds)
        case (.duration(let seconds), .duration): return abs(Double(seconds)) <= Double(InputLimits.maxDurationSeconds)
        case (.date(let day), .date): return InputLimits.engineDays.contains(day)
        case (.string(let id), .routineID): return ruleset.routine(id) != nil
        case (.string(let text), .enumeration(let enumType)): return enumType.cases.contains(text)
        case (.list(let items), .list(let element)): return items.allSatisfy { fits($0, element, in: ruleset) }
        case (.map(let entries), .map(let keyType, let valueType)):
            return entries.allSatisfy { entryFits($0, keyType, valueType, in: ruleset) }
        default: return false
        }
    }

    private static func entryFits(
        _ entry: (key: String, value: Value), _ keyType: ExpressionType, _ valueType: ExpressionType, in ruleset: Ruleset
    ) -> Bool {
        fits(.string(entry.key), keyType, in: ruleset) && fits(entry.value, valueType, in: ruleset)
    }
}

extension OperatorEngine {
    /// A tool call is one app run; only an accepted call changes anything. An accepted
    /// `sync_health_data` syncs `health` (the reading the host got) inside the same run.
    /// Returns whether the call started a route.
    mutating func runTool(_ text: String, health: HealthReading?, at time: Date) -> Bool {
        let (verdict, call) = ToolValidator(ruleset: ruleset).validate(text)
        let syncs = call?.tool == "sync_health_data" && health != nil
        note(at: time, .appRun(cause: .toolCall, synced: syncs))
        var log: HabitLog?
        var routeRequested = false
        if let call {
            switch call.tool {
            case "log_habit_event":
                // Without a value the validator accepted only a check or count routine: 1 (a
                // check routine already completed today is not logged again, with or without).
                if case .string(let routine)? = call.arguments["routine"] {
                    let value = call.arguments["value"]?.numeric ?? 1
                    log = act { $0.addLog(routine: routine, value: value, unit: nil, source: .slmTool, at: time) }.log
                }
            case "set_goal":
                if case .string(let routine)? = call.arguments["routine"], let goal = call.arguments["goal"]?.numeric {
                    act { $0.setGoal(routine: routine, goal: goal) }
                }
            case "generate_recovery_route":
                routeRequested = act { $0.request(.startRecovery, at: time) }
            case "adjust_quest_plan":
                if case .int(let delta)? = call.arguments["delta_steps"] { act { $0.adjustQuest(delta: delta) } }
            default:
                break  // sync_health_data is the host's to perform (synced below); the rest change nothing
            }
        }
        note(at: time, .toolVerdict(verdict, log: log))
        if syncs { act { $0.sync(health, at: time) } }
        guard explains else { return routeRequested }
        explain(
            tool: Explanation(
                decision: "tool", outcome: verdict.outcome.rawValue, at: time,
                entries: [
                    Explanation.Entry(
                        label: verdict.reason ?? verdict.outcome.rawValue, condition: verdict.argument,
                        origin: call.flatMap { ruleset.tool($0.tool)?.origin }, result: verdict.outcome == .accepted ? .matched : .notMatched)
                ],
                facts: [], note: nil))
        return routeRequested
    }
}
