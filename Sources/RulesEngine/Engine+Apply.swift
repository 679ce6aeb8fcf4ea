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
            sync(health, at: time)
            decide(at: time)
        case .log(let routine, let value, let unit, let source):
            note(at: time, .appRun(cause: .log, synced: false))
            // A check routine already completed logs nothing, but the run still decides.
            guard addLog(routine: routine, value: value, unit: unit, source: source, at: time) != .refused else { return }
            decide(at: time)
        case .editLog(let id, let value):
            note(at: time, .appRun(cause: .editLog, synced: false))
            guard editLog(id: id, value: value, at: time) else { return }
            decide(at: time)
        case .deleteLog(let id):
            note(at: time, .appRun(cause: .deleteLog, synced: false))
            guard let log = day?.logs.first(where: { $0.id == id }) else {
                return problem(at: time, .unknownLog, "no log '\(id)' today")
            }
            day?.removeLogs { $0.id == id }
            day?.forgetEarned(log.routine)
            note(at: time, .logChanged(log, deleted: true))
            decide(at: time)
        case .check(let routine, let item), .uncheck(let routine, let item):
            let checked: Bool
            if case .check = event { checked = true } else { checked = false }
            note(at: time, .appRun(cause: checked ? .check : .uncheck, synced: false))
            guard tick(routine: routine, item: item, checked: checked, at: time) else { return }
            decide(at: time)
        case .widget(let intent):
            note(at: time, .appRun(cause: .widget(intent), synced: false))
            decide(at: time, routeRequested: widget(intent, at: time))
        case .action(let action):
            note(at: time, .appRun(cause: .action(action), synced: false))
            decide(at: time, routeRequested: request(action, at: time))
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

    /// Edits a log of today; false (with a problem record) when there is none of that id or
    /// the value is refused.
    private mutating func editLog(id: String, value: Double, at time: Date) -> Bool {
        guard let index = day?.logs.firstIndex(where: { $0.id == id }) else {
            problem(at: time, .unknownLog, "no log '\(id)' today")
            return false
        }
        if let message = OperatorEngine.logValueProblem(value) {
            problem(at: time, .invalidValue, message)
            return false
        }
        day?.updateLogs { logs in
            logs[index].value = value
            logs[index].updatedAt = time
        }
        // The user changed what was done: the routine is judged afresh.
        if let routine = day?.logs[index].routine { day?.forgetEarned(routine) }
        if let log = day?.logs[index] { note(at: time, .logChanged(log, deleted: false)) }
        return true
    }

    /// A HealthKit sync: the app now knows `health` (nil: the sync failed; the last values stay).
    mutating func sync(_ health: HealthReading?, at time: Date) {
        note(at: time, .sync(health))
        guard let health else { return }
        // The day moved out and put back (reading the day's number through the optional while
        // writing it crashed Swift 6.3.1's optimiser: CopyPropagation, release builds only).
        if var current = day.take() {
            current.health = health.bounded
            current.syncedAt = clock.timeOfDay(time, inLogicalDay: current.day, dayStart: dayStart)
            day = current
        }
        lastPermissions = KnownPermissions(steps: health.stepsPermission, sleep: health.sleepPermission)
    }

    /// What adding a log did.
    enum LogOutcome: Equatable {
        /// The log written.
        case logged(HabitLog)
        /// Nothing written: the routine is a check routine already completed today.
        case alreadyCompleted
        /// Nothing written, with a problem record: the routine, value or unit is wrong.
        case refused

        /// The log written, if one was.
        var log: HabitLog? {
            if case .logged(let log) = self { return log }
            return nil
        }
    }

    /// Adds a habit log: refused (with a problem record) when the routine, value or unit is
    /// wrong; nothing for a check routine already completed today (completing it again logs
    /// nothing, whatever value the log carries).
    @discardableResult
    mutating func addLog(routine id: String, value: Double, unit: RoutineUnit?, source: LogSource, at time: Date) -> LogOutcome {
        // A few routines: found in turn (hashing the id costs more), read through the box.
        guard let box = routineBoxes.first(where: { $0.value.id == id }) else {
            problem(
                at: time, .unknownRoutine,
                "no routine '\(id)'\(Suggestions.nearest(to: id, among: ruleset.routines.map(\.id)).map { "; did you mean '\($0)'?" } ?? "")")
            return .refused
        }
        if let message = OperatorEngine.logValueProblem(value) {
            problem(at: time, .invalidValue, "\(message) (routine '\(id)')")
            return .refused
        }
        let routine = box.value
        if let unit, unit != routine.unit {
            problem(at: time, .unitMismatch, "'\(id)' is logged in \(routine.unit.rawValue), not \(unit.rawValue)")
            return .refused
        }
        guard let today = currentDay, let number = nextLogNumber else { return .refused }
        // The day's log numbers end where a saved state's do: past it, the save would not load.
        guard number < OperatorProfile.maxCount else {
            problem(at: time, .outOfRange, "the day's log numbers are used up (\(OperatorProfile.maxCount)); the log of '\(id)' is not kept")
            return .refused
        }
        if routine.unit == .check, let current = day, Goals.value(of: box, in: current) >= routine.goal { return .alreadyCompleted }
        // The day's date as kept for its candidates' ids (made here when none is kept).
        let date = memos.planning.candidateIDs.first { $0.day == today }?.date ?? LocalClock.compactDate(today)
        let logID = String.joined("log_" + date, "_", threeDigits(number))
        let log = HabitLog(
            id: logID, day: today, routine: id, category: routine.category, value: value, unit: routine.unit, source: source,
            createdAt: time, updatedAt: time)
        // In place: a copy of the day, changed and put back, copied the day's logs each time.
        day?.nextLogNumber += 1
        day?.appendLog(log)
        note(at: time, .log(log))
        return .logged(log)
    }

    /// The one check of a log value, for new logs and edits alike: finite, 0 or more, at
    /// most `InputLimits.maxLogValue`. Nil when the value is fine.
    static func logValueProblem(_ value: Double) -> String? {
        guard value.isFinite, value >= 0, value <= InputLimits.maxLogValue else {
            return "log value \(Value.formatNumber(value)) is not a number from 0 to 1,000,000"
        }
        return nil
    }

    /// Ticks or unticks a checklist item; false (with a problem record) when it does not exist.
    mutating func tick(routine id: String, item: String, checked: Bool, at time: Date) -> Bool {
        // A few routines: found in turn (hashing the id costs more), read through the box.
        guard let box = routineBoxes.first(where: { $0.value.id == id }) else {
            problem(at: time, .unknownRoutine, "no routine '\(id)'")
            return false
        }
        let routine = box.value
        // The tick keeps the ruleset's own spelling of the item (found by canonical
        // equivalence), so counting ticks can compare bytes (see `value(of:in:)`). Bytes
        // first when no two items are equivalent (the item found is the same): the app sends
        // the ruleset's spelling, and `==` on Korean text walks Unicode's normalization data.
        let byBytes = box.itemsCanonicallyDistinct ? routine.items.first(where: { $0.sameBytes(as: item) }) : nil
        guard let item = byBytes ?? routine.items.first(where: { $0 == item }) else {
            problem(
                at: time, .unknownItem,
                "'\(id)' has no item '\(item)'\(Suggestions.nearest(to: item, among: routine.items).map { "; did you mean '\($0)'?" } ?? "")")
            return false
        }
        if checked {
            guard currentDay != nil, !hasTick(routine: id, item: item) else { return true }
            day?.ticks.append(ChecklistTick(routine: id, item: item, at: time))
        } else {
            day?.ticks.removeAll { $0.routine == id && $0.item.sameBytes(as: item) }
            day?.forgetEarned(id)
        }
        note(at: time, .check(routine: id, item: item, checked: checked))
        return true
    }

    /// The quick-log widget's intents (seed 7.6); widget actions do not sync HealthKit.
    /// Returns whether the intent started a route.
    mutating func widget(_ intent: WidgetIntent, at time: Date) -> Bool {
        switch intent {
        case .logWater250:
            if let water = ruleset.routines.first(where: { $0.category == .water }) {
                addLog(routine: water.id, value: 250, unit: nil, source: .widget, at: time)
            }
        case .completeSupplement:
            complete(category: .supplement, source: .widget, at: time)
        case .completeSkincare:
            complete(category: .skincare, source: .widget, at: time)
        case .startRecovery:
            return request(.startRecovery, at: time)
        }
        return false
    }

    /// Marks the first routine of `category` done: every checklist item ticked, or its
    /// remaining amount logged.
    mutating func complete(category: RoutineCategory, source: LogSource, at time: Date) {
        guard let routine = ruleset.routines.first(where: { $0.category == category }), let current = day else { return }
        if !routine.items.isEmpty {
            for item in routine.items where !current.ticked(routine.id).contains(item) {
                _ = tick(routine: routine.id, item: item, checked: true, at: time)
            }
        } else {
            let missing = routine.goal - Goals.value(of: RoutineBox(routine), in: current)
            if missing > 0 { addLog(routine: routine.id, value: missing, unit: nil, source: source, at: time) }
        }
    }

    /// A user route request: beats the table, recorded as `user_request`, sticky for the day.
    /// Returns whether it started a route (the run's `event` is then `route_changed`).
    @discardableResult
    mutating func request(_ action: RouteAction, at time: Date) -> Bool {
        guard var current = day else { return false }
        switch action {
        case .skipToday:
            current.skipped = true
        case .reduceRoute where current.skipped, .startRecovery where current.skipped:
            // An ordinary user action on a frozen day, never a problem: it changes nothing.
            note(at: time, .routeRequestRefused(action, reason: .daySkipped))
        case .reduceRoute, .startRecovery:
            let route: RouteKind = action == .reduceRoute ? .light : .recovery
            current.route.requestedByUser = true
            if current.route.route != route || !current.routeDecided {
                var log = RecordLog(recordsKept)
                _ = dayDecider.startRoute(&current, route, reason: "user_request", at: time, requestedByUser: true, log: &log)
                records += log.records
                day = current
                if explains { decisions.route = .routeKept(route, because: .userRequest, at: time) }
                return true
            }
        }
        day = current
        return false
    }

    /// New setting values (unknown keys and wrong types are problems, not traps).
    mutating func changeSettings(_ values: [String: Value], at time: Date) {
        var changed: [String: Value] = [:]
        for key in values.keys.sorted() {
            guard let declaration = ruleset.settings.declaration(key), let value = values[key] else {
                problem(at: time, .unknownSetting, "no setting '\(key)'")
                continue
            }
            guard OperatorEngine.fits(value, declaration.type, in: ruleset) else {
                problem(at: time, .invalidSetting, "setting '\(key)' takes \(declaration.type), not \(value)")
                continue
            }
            profile.settings[key] = value
            changed[key] = value
        }
        if !changed.isEmpty { note(at: time, .settingsChanged(changed)) }
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
                    log = addLog(routine: routine, value: call.arguments["value"]?.numeric ?? 1, unit: nil, source: .slmTool, at: time).log
                }
            case "set_goal":
                if case .string(let routine)? = call.arguments["routine"], let goal = call.arguments["goal"]?.numeric {
                    day?.goalOverrides[routine] = goal
                }
            case "generate_recovery_route":
                routeRequested = request(.startRecovery, at: time)
            case "adjust_quest_plan":
                if case .int(let delta)? = call.arguments["delta_steps"], var quest = day?.quest {
                    quest.targetDelta = delta
                    day?.quest = quest
                    if let index = day?.route.items.firstIndex(where: { if case .delta = $0.requirement { true } else { false } }) {
                        day?.route.items[index].requirement = .delta(delta)
                    }
                }
            default:
                break  // sync_health_data is the host's to perform (synced below); the rest change nothing
            }
        }
        note(at: time, .toolVerdict(verdict, log: log))
        if syncs { sync(health, at: time) }
        guard explains else { return routeRequested }
        decisions.tool = Explanation(
            decision: "tool", outcome: verdict.outcome.rawValue, at: time,
            entries: [
                Explanation.Entry(
                    label: verdict.reason ?? verdict.outcome.rawValue, condition: verdict.argument,
                    origin: call.flatMap { ruleset.tool($0.tool)?.origin }, result: verdict.outcome == .accepted ? .matched : .notMatched)
            ],
            facts: [], note: nil)
        return routeRequested
    }
}
