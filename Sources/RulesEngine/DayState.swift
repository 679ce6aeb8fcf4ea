import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// A recovery route item as the day tracks it (seed 8.3).
public struct RouteItemState: Sendable, Hashable, Codable {
    /// `<routine>` or `<routine>.<item>`: unique within the route.
    public var id: String
    /// The routine it is for.
    public var routine: String
    /// What completes it.
    public var requirement: RecoveryItem.Requirement
    /// For `delta` items: the steps known when the route started.
    public var baseline: Int
    /// Where it stands (`completed` once done; never taken back).
    public var status: RoutineStatus
}

/// The walking quest of a `delta` item (seed 5.5).
public struct WalkingQuest: Sendable, Hashable, Codable {
    /// HealthKit steps when the quest started.
    public var startSteps: Int
    /// Steps to walk from there.
    public var targetDelta: Int
    /// Steps at the last sync.
    public var currentSteps: Int
    /// Steps at which the quest clears.
    public var clearSteps: Int { startSteps + targetDelta }
    /// Steps still to walk (0 once cleared).
    public var remainingSteps: Int { Swift.max(0, clearSteps - currentSteps) }
    /// How far the quest is, 0…1.
    public var progress: Double {
        targetDelta <= 0 ? 1 : Swift.min(1, Swift.max(0, Double(currentSteps - startSteps) / Double(targetDelta)))
    }
    /// Whether the quest is done.
    public var isCleared: Bool { currentSteps >= clearSteps }
}

/// The route of the day (seed 8.3).
public struct RouteState: Sendable, Hashable, Codable {
    /// The route in force.
    public var route: RouteKind
    /// Why (the route table's reason, or the user's request).
    public var reason: String
    /// When the route started (the app run where it first became active).
    public var startedAt: Date?
    /// A user request: sticky for the day.
    public var requestedByUser: Bool
    /// Recovery items, when the route is recovery.
    public var items: [RouteItemState]
    /// Logs made up to and including the run that started the route (by log number): they
    /// never count toward its items.
    public var logsBefore = 0
}

/// A delivery the app learned of: its type, category and fire time.
struct Delivery: Sendable, Hashable, Codable {
    var type: String
    var category: String
    var at: Date
}

/// What a day's logs of one routine add up to.
struct RoutineTotal: Sendable, Hashable {
    var routine: String
    var value: Double
}

/// Everything the app knows about one logical day (part of the saved `EngineState`).
struct DayState: Sendable, Hashable, Codable {
    var day: Int
    /// The day's logs in the order they were made. Change them only through `appendLog`,
    /// `updateLogs` and `removeLogs`, which keep `totals` right.
    private(set) var logs: [HabitLog] = []
    /// Total logged per routine: a cache of `logs` (not saved; rebuilt after a restore) so an
    /// app run does not walk every log of the day. A short list searched in order: a day has
    /// a few logged routines, and comparing short ids costs less than hashing one.
    private var totals: [RoutineTotal] = []
    var ticks: [ChecklistTick] = []
    /// Health as of the last sync the app saw (nil: never synced today).
    var health: HealthReading?
    var syncedAt: Int?
    var route = RouteState(route: .regular, reason: "default", startedAt: nil, requestedByUser: false, items: [])
    var routeDecided = false
    var risk: RiskLevel?
    var skipped = false
    var quest: WalkingQuest?
    /// Goal overrides from the `set_goal` tool, by routine.
    var goalOverrides: [String: Double] = [:]
    /// Deliveries made today: type, category, time.
    var deliveries: [Delivery] = []
    var lastRun: Date?
    /// The widget's snapshot of the last run, behind a reference: a day is copied at every
    /// app run, and a snapshot inline made it ~200 bytes larger with four more references.
    var lastSnapshot: DailySnapshot? {
        get { snapshotBox?.value }
        set { snapshotBox = newValue.map(SnapshotBox.init) }
    }
    private var snapshotBox: SnapshotBox?

    /// Forgets the snapshot (an engine that keeps only decisions keeps none), in place.
    mutating func dropSnapshot() {
        if snapshotBox != nil { snapshotBox = nil }
    }

    /// The event the last app run answered (`home`, `completed`, …), for its facts.
    var lastEvent = "home"
    /// Routines completed at the last app run, in ruleset order.
    var completedRoutines: [String] = []
    /// Routines judged `partial` at an app run today (ruleset order): the status stays
    /// earned when the day closes, whatever route followed (a routine completed later is
    /// in `completedRoutines` too).
    var partialRoutines: [String] = []
    var recoveryWasCompleted = false
    var nextLogNumber = 1
    /// The texts of the route items as of the last app run (a cache: not saved, and used
    /// only while the items are the ones they were made from).
    var routeTexts: RouteTexts? {
        get { routeTextsCache.value }
        set { routeTextsCache.value = newValue }
    }
    private var routeTextsCache = KeptRouteTexts()

    init(day: Int) { self.day = day }

    private enum CodingKeys: String, CodingKey {
        case day, logs, ticks, health, syncedAt, route, routeDecided, risk, skipped, quest, goalOverrides, deliveries, lastRun,
            lastSnapshot, lastEvent, completedRoutines, partialRoutines, recoveryWasCompleted, nextLogNumber
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        day = try container.decode(Int.self, forKey: .day)
        logs = try container.decode([HabitLog].self, forKey: .logs)
        ticks = try container.decode([ChecklistTick].self, forKey: .ticks)
        health = try container.decodeIfPresent(HealthReading.self, forKey: .health)
        syncedAt = try container.decodeIfPresent(Int.self, forKey: .syncedAt)
        route = try container.decode(RouteState.self, forKey: .route)
        routeDecided = try container.decode(Bool.self, forKey: .routeDecided)
        risk = try container.decodeIfPresent(RiskLevel.self, forKey: .risk)
        skipped = try container.decode(Bool.self, forKey: .skipped)
        quest = try container.decodeIfPresent(WalkingQuest.self, forKey: .quest)
        goalOverrides = try container.decode([String: Double].self, forKey: .goalOverrides)
        deliveries = try container.decode([Delivery].self, forKey: .deliveries)
        lastRun = try container.decodeIfPresent(Date.self, forKey: .lastRun)
        snapshotBox = try container.decodeIfPresent(DailySnapshot.self, forKey: .lastSnapshot).map(SnapshotBox.init)
        lastEvent = try container.decode(String.self, forKey: .lastEvent)
        completedRoutines = try container.decode([String].self, forKey: .completedRoutines)
        partialRoutines = try container.decodeIfPresent([String].self, forKey: .partialRoutines) ?? []
        recoveryWasCompleted = try container.decode(Bool.self, forKey: .recoveryWasCompleted)
        nextLogNumber = try container.decode(Int.self, forKey: .nextLogNumber)
        rebuildTotals()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(logs, forKey: .logs)
        try container.encode(ticks, forKey: .ticks)
        try container.encodeIfPresent(health, forKey: .health)
        try container.encodeIfPresent(syncedAt, forKey: .syncedAt)
        try container.encode(route, forKey: .route)
        try container.encode(routeDecided, forKey: .routeDecided)
        try container.encodeIfPresent(risk, forKey: .risk)
        try container.encode(skipped, forKey: .skipped)
        try container.encodeIfPresent(quest, forKey: .quest)
        try container.encode(goalOverrides, forKey: .goalOverrides)
        try container.encode(deliveries, forKey: .deliveries)
        try container.encodeIfPresent(lastRun, forKey: .lastRun)
        try container.encodeIfPresent(lastSnapshot, forKey: .lastSnapshot)
        try container.encode(lastEvent, forKey: .lastEvent)
        try container.encode(completedRoutines, forKey: .completedRoutines)
        if !partialRoutines.isEmpty { try container.encode(partialRoutines, forKey: .partialRoutines) }
        try container.encode(recoveryWasCompleted, forKey: .recoveryWasCompleted)
        try container.encode(nextLogNumber, forKey: .nextLogNumber)
    }

    /// Total logged for `routine` today.
    func logged(_ routine: String) -> Double {
        for total in totals where total.routine == routine { return total.value }
        return 0
    }

    /// Total logged for `routine` by logs numbered above `after` (the newest are last).
    func logged(_ routine: String, after: Int) -> Double {
        var total = 0.0
        for log in logs.reversed() {
            guard log.number > after else { break }
            if log.routine == routine { total += log.value }
        }
        return total
    }

    mutating func appendLog(_ log: HabitLog) {
        logs.append(log)
        addToTotals(log)
        if logs.count > InputLimits.maxLogsPerDay { mergeOldestLogs() }
    }

    /// The largest value a merged log holds (every number of a saved state is within 10^9):
    /// past it, a group's next logs start another merged log.
    static let maxMergedLogValue = Double(InputLimits.maxNumber)

    /// Merges the older half of the day's logs, per routine and source, into one log each
    /// (the sum of their values, the first's creation and the last's id, number and update),
    /// never across `route.logsBefore` (the start of a recovery route, whose items count only
    /// later logs) and never past `maxMergedLogValue` (a group that would pass it goes on in a
    /// new log, so every save loads again). Totals stay exact; an edit or deletion of a
    /// merged-away id finds no log. Amortised: a merge halves the logs it touches, so a day of
    /// n taps costs O(n) (until more than half the day's logs are full, which takes 32 × 10^9
    /// of one routine: then each log costs a pass over the 64).
    private mutating func mergeOldestLogs() {
        let cut = logs.count / 2
        struct Key: Hashable {
            var routine: String
            var source: LogSource
            var afterRouteStart: Bool
        }
        // Each key's group still open for more, by its place in `groups`.
        var open: [Key: Int] = [:]
        var groups: [HabitLog] = []
        for log in logs[..<cut] {
            let key = Key(routine: log.routine, source: log.source, afterRouteStart: log.number > route.logsBefore)
            if let index = open[key], groups[index].value + log.value <= Self.maxMergedLogValue {
                groups[index].value += log.value
                groups[index].id = log.id
                groups[index].updatedAt = Swift.max(groups[index].updatedAt, log.updatedAt)
            } else {
                open[key] = groups.count
                groups.append(log)
            }
        }
        // In the order of their numbers (each group's last): `logged(_:after:)` walks them so.
        groups.sort { $0.number < $1.number }
        logs.replaceSubrange(..<cut, with: groups)
        rebuildTotals()
    }

    /// Changes logs in place (edits); the totals are summed again.
    mutating func updateLogs(_ change: (inout [HabitLog]) -> Void) {
        change(&logs)
        rebuildTotals()
    }

    mutating func removeLogs(where shouldRemove: (HabitLog) -> Bool) {
        logs.removeAll(where: shouldRemove)
        rebuildTotals()
    }

    /// Sums every routine's logs in log order (the same sums `appendLog` makes).
    private mutating func rebuildTotals() {
        totals = []
        for log in logs { addToTotals(log) }
    }

    private mutating func addToTotals(_ log: HabitLog) {
        if let index = totals.firstIndex(where: { $0.routine == log.routine }) {
            totals[index].value += log.value
        } else {
            totals.append(RoutineTotal(routine: log.routine, value: log.value))
        }
    }

    func ticked(_ routine: String) -> Set<String> {
        Set(ticks.filter { $0.routine == routine }.map(\.item))
    }
}

/// Route item texts kept to save work, taking no part in equality or hashing: a day with
/// them and the same day restored without them are equal. (Not generic: a generic field
/// made every copy of a day go through the runtime's generic witnesses.)
struct KeptRouteTexts: Sendable, Hashable {
    var value: RouteTexts?
    static func == (lhs: KeptRouteTexts, rhs: KeptRouteTexts) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// A snapshot behind one immutable reference, equal and hashed by its value.
final class SnapshotBox: Sendable, Hashable {
    let value: DailySnapshot
    init(_ value: DailySnapshot) { self.value = value }
    static func == (lhs: SnapshotBox, rhs: SnapshotBox) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }
}

extension DayState {
    /// The user changed what was done for `routine` (an edit, a deletion, an unticked
    /// item): it is judged afresh, with nothing earned kept.
    mutating func forgetEarned(_ routine: String) {
        completedRoutines.removeAll { $0 == routine }
        partialRoutines.removeAll { $0 == routine }
    }

    /// Keeps what `routines` (a reading in ruleset order) earned: completions join
    /// `completedRoutines`, partial statuses `partialRoutines`, both in ruleset order. The
    /// arrays change only when something new was earned.
    mutating func earn(_ routines: [RoutineReading], _ prepared: PreparedRuleset) {
        var newCompletion = false
        var newPartial = false
        // The id read only for a completed or partial routine (each id read retains its
        // string). Both lists are in
        // ruleset order, as the readings are: each id is looked for first where the last one
        // found left off (one comparison, of equal strings), and only then in the whole list
        // (comparing unequal ids is what cost: a search per routine made it quadratic).
        var completedAt = 0
        var partialAt = 0
        for index in routines.indices {
            switch routines[index].status {
            case .completed:
                if !newCompletion, !Self.find(prepared.routine(of: routines[index]).value.id, in: completedRoutines, from: &completedAt) {
                    newCompletion = true
                }
            case .partial:
                if !newPartial, routines[index].enabled,
                    !Self.find(prepared.routine(of: routines[index]).value.id, in: partialRoutines, from: &partialAt)
                {
                    newPartial = true
                }
            default:
                break
            }
        }
        // Made again in ruleset order (a loaded ruleset's routine ids are unique: a routine
        // is earned by its own reading).
        if newCompletion { completedRoutines = Self.earned(routines, prepared, kept: completedRoutines) { $0.status == .completed } }
        if newPartial { partialRoutines = Self.earned(routines, prepared, kept: partialRoutines) { $0.status == .partial && $0.enabled } }
    }

    /// The ids of `routines` (in their order) that were `kept` or earn now.
    private static func earned(
        _ routines: [RoutineReading], _ prepared: PreparedRuleset, kept: [String], _ earns: (RoutineReading) -> Bool
    )
        -> [String]
    {
        var result: [String] = []
        result.reserveCapacity(routines.count)
        var position = 0
        for index in routines.indices {
            let id = prepared.routine(of: routines[index]).value.id
            if find(id, in: kept, from: &position) || earns(routines[index]) { result.append(id) }
        }
        return result
    }

    /// Whether `id` is in `list`: at `position` first (then the position moves past it), else
    /// anywhere.
    private static func find(_ id: String, in list: [String], from position: inout Int) -> Bool {
        if position < list.count, list[position] == id {
            position += 1
            return true
        }
        return list.contains(id)
    }
}
