import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

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

/// What the user does to the day at an app run before the run decides (SPEC §5.1, §5.3,
/// seed 7.6): logs, their edits and deletions, ticks, the widget's and notifications' quick
/// actions, route requests, a sync, the tool's changes. Its inputs are the ruleset, the
/// user's routines, the clock, the last plan's candidate ids and the day; what it changed is its outcome: the day, the
/// records in order, the permissions a sync learnt and the route request to explain. The
/// engine moves its day in, lets the actions work and applies the result
/// (`OperatorEngine.act`).
struct DayActions {
    let prepared: PreparedRuleset
    /// The routines the user has on (what a requested recovery route starts).
    let enabled: Set<String>
    let clock: LocalClock
    let dayStart: Int
    let explains: Bool
    /// The ids of the last plan's candidates, whose day's date a log's id takes (made when
    /// none is kept).
    let candidateIDs: [CandidateIDs]

    /// The day worked on (nil before any day opened: every action then changes nothing).
    var day: DayState?
    var log: RecordLog
    /// The permissions a sync learnt; nil when none happened.
    var permissions: KnownPermissions?
    /// Why the route in force was kept, when a request started it and explanations are kept.
    var route: PendingExplanation?

    var ruleset: Ruleset { prepared.ruleset }

    // Read-outs of the day for mutating methods: there, reading `day?.x` copied the whole
    // day out first (a retain of every array it holds); through a non-mutating read-out the
    // field is read in place.
    private var currentDay: Int? { day?.day }
    private var nextLogNumber: Int? { day?.nextLogNumber }
    /// Whether `item` (the ruleset's own spelling, as ticks keep it) is ticked: bytes compared,
    /// as counting ticks does (`==` on Korean text takes Unicode's slow path).
    private func hasTick(routine: String, item: String) -> Bool {
        day?.ticks.contains(where: { $0.routine == routine && $0.item.sameBytes(as: item) }) ?? false
    }

    /// A HealthKit sync: the app now knows `health` (nil: the sync failed; the last values stay).
    mutating func sync(_ health: HealthReading?, at time: Date) {
        log.note(at: time, .sync(health))
        guard let health else { return }
        // The day moved out and put back (reading the day's number through the optional while
        // writing it crashed Swift 6.3.1's optimiser: CopyPropagation, release builds only).
        if var current = day.take() {
            current.health = health.bounded
            current.syncedAt = clock.timeOfDay(time, inLogicalDay: current.day, dayStart: dayStart)
            day = current
        }
        permissions = KnownPermissions(steps: health.stepsPermission, sleep: health.sleepPermission)
    }

    /// Adds a habit log: refused (with a problem record) when the routine, value or unit is
    /// wrong; nothing for a check routine already completed today (completing it again logs
    /// nothing, whatever value the log carries).
    @discardableResult
    mutating func addLog(routine id: String, value: Double, unit: RoutineUnit?, source: LogSource, at time: Date) -> LogOutcome {
        // A few routines: found in turn (hashing the id costs more), read through the box.
        guard let box = prepared.routineBoxes.first(where: { $0.value.id == id }) else {
            log.problem(
                at: time, .unknownRoutine,
                "no routine '\(id)'\(Suggestions.nearest(to: id, among: ruleset.routines.map(\.id)).map { "; did you mean '\($0)'?" } ?? "")")
            return .refused
        }
        if let message = Self.logValueProblem(value) {
            log.problem(at: time, .invalidValue, "\(message) (routine '\(id)')")
            return .refused
        }
        let routine = box.value
        if let unit, unit != routine.unit {
            log.problem(at: time, .unitMismatch, "'\(id)' is logged in \(routine.unit.rawValue), not \(unit.rawValue)")
            return .refused
        }
        guard let today = currentDay, let number = nextLogNumber else { return .refused }
        // The day's log numbers end where a saved state's do: past it, the save would not load.
        guard number < OperatorProfile.maxCount else {
            log.problem(at: time, .outOfRange, "the day's log numbers are used up (\(OperatorProfile.maxCount)); the log of '\(id)' is not kept")
            return .refused
        }
        if routine.unit == .check, let current = day, Goals.value(of: box, in: current) >= routine.goal { return .alreadyCompleted }
        let date = candidateIDs.first { $0.day == today }?.date ?? LocalClock.compactDate(today)
        let logID = String.joined("log_" + date, "_", threeDigits(number))
        let habitLog = HabitLog(
            id: logID, day: today, routine: id, category: routine.category, value: value, unit: routine.unit, source: source,
            createdAt: time, updatedAt: time)
        // In place: a copy of the day, changed and put back, copied the day's logs each time.
        day?.nextLogNumber += 1
        day?.appendLog(habitLog)
        log.note(at: time, .log(habitLog))
        return .logged(habitLog)
    }

    /// The one check of a log value, for new logs and edits alike: finite, 0 or more, at
    /// most `InputLimits.maxLogValue`. Nil when the value is fine.
    static func logValueProblem(_ value: Double) -> String? {
        guard value.isFinite, value >= 0, value <= InputLimits.maxLogValue else {
            return "log value \(Value.formatNumber(value)) is not a number from 0 to 1,000,000"
        }
        return nil
    }

    /// Edits a log of today; false (with a problem record) when there is none of that id or
    /// the value is refused.
    mutating func editLog(id: String, value: Double, at time: Date) -> Bool {
        guard let index = day?.logs.firstIndex(where: { $0.id == id }) else {
            log.problem(at: time, .unknownLog, "no log '\(id)' today")
            return false
        }
        if let message = Self.logValueProblem(value) {
            log.problem(at: time, .invalidValue, message)
            return false
        }
        day?.updateLogs { logs in
            logs[index].value = value
            logs[index].updatedAt = time
        }
        // The user changed what was done: the routine is judged afresh.
        if let routine = day?.logs[index].routine { day?.forgetEarned(routine) }
        if let changed = day?.logs[index] { log.note(at: time, .logChanged(changed, deleted: false)) }
        return true
    }

    /// Deletes a log of today; false (with a problem record) when there is none of that id.
    mutating func deleteLog(id: String, at time: Date) -> Bool {
        guard let deleted = day?.logs.first(where: { $0.id == id }) else {
            log.problem(at: time, .unknownLog, "no log '\(id)' today")
            return false
        }
        day?.removeLogs { $0.id == id }
        day?.forgetEarned(deleted.routine)
        log.note(at: time, .logChanged(deleted, deleted: true))
        return true
    }

    /// Ticks or unticks a checklist item; false (with a problem record) when it does not exist.
    mutating func tick(routine id: String, item: String, checked: Bool, at time: Date) -> Bool {
        // A few routines: found in turn (hashing the id costs more), read through the box.
        guard let box = prepared.routineBoxes.first(where: { $0.value.id == id }) else {
            log.problem(at: time, .unknownRoutine, "no routine '\(id)'")
            return false
        }
        let routine = box.value
        // The tick keeps the ruleset's own spelling of the item (found by canonical
        // equivalence), so counting ticks can compare bytes (see `value(of:in:)`). Bytes
        // first when no two items are equivalent (the item found is the same): the app sends
        // the ruleset's spelling, and `==` on Korean text walks Unicode's normalization data.
        let byBytes = box.itemsCanonicallyDistinct ? routine.items.first(where: { $0.sameBytes(as: item) }) : nil
        guard let item = byBytes ?? routine.items.first(where: { $0 == item }) else {
            log.problem(
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
        log.note(at: time, .check(routine: id, item: item, checked: checked))
        return true
    }

    /// The quick-log widget's intents (seed 7.6); widget actions do not sync HealthKit.
    /// Returns whether the intent started a route.
    mutating func widget(_ intent: WidgetIntent, at time: Date) -> Bool {
        switch intent {
        case .logWater250: logWater(source: .widget, at: time)
        case .completeSupplement: complete(category: .supplement, source: .widget, at: time)
        case .completeSkincare: complete(category: .skincare, source: .widget, at: time)
        case .startRecovery: return request(.startRecovery, at: time)
        }
        return false
    }

    /// 250 ml of the first water routine.
    mutating func logWater(source: LogSource, at time: Date) {
        if let water = ruleset.routines.first(where: { $0.category == .water }) {
            addLog(routine: water.id, value: 250, unit: nil, source: source, at: time)
        }
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
        guard var current = day.take() else { return false }
        var started = false
        switch action {
        case .skipToday:
            current.skipped = true
        case .reduceRoute where current.skipped, .startRecovery where current.skipped:
            // An ordinary user action on a frozen day, never a problem: it changes nothing.
            log.note(at: time, .routeRequestRefused(action, reason: .daySkipped))
        case .reduceRoute, .startRecovery:
            let route: RouteKind = action == .reduceRoute ? .light : .recovery
            current.route.requestedByUser = true
            if current.route.route != route || !current.routeDecided {
                _ = DayDecider.startRoute(
                    &current, route, reason: "user_request", at: time, requestedByUser: true,
                    recovery: RecoveryRoute(prepared: prepared, enabled: enabled), log: &log)
                if explains { self.route = .routeKept(route, because: .userRequest, at: time) }
                started = true
            }
        }
        day = current
        return started
    }

    /// The tool's `set_goal`: today's goal of a routine.
    mutating func setGoal(routine: String, goal: Double) {
        day?.goalOverrides[routine] = goal
    }

    /// The tool's `adjust_quest_plan`: the walking quest's target and its route item's.
    mutating func adjustQuest(delta: Int) {
        guard var quest = day?.quest else { return }
        quest.targetDelta = delta
        day?.quest = quest
        if let index = day?.route.items.firstIndex(where: { if case .delta = $0.requirement { true } else { false } }) {
            day?.route.items[index].requirement = .delta(delta)
        }
    }
}
