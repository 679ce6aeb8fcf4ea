import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import Ruleset

/// A decision point of the trial: a due delivery, delivered or withheld, and the routine it
/// asks for; its outcome is whether that routine is done within the window after it.
struct DecisionPoint: Sendable {
    var type: String
    var target: String
    var deadline: Date
    var delivered: Bool
    /// Deliveries of the type the user had seen before it.
    var deliveriesBefore: Int
}

/// What one user's run showed of their answers.
struct AnswersSeen: Sendable {
    /// Deliveries the user saw, and those they acted on, by type.
    var delivered: [String: Int] = [:]
    var acted: [String: Int] = [:]
    var withheld: [String: Int] = [:]
    /// Deliveries after every notice was switched off: the device showed nothing.
    var unshown: [String: Int] = [:]
    var optedOutTypes: Set<String> = []
    var optedOutAll = false
    /// The routines an act was for, by day.
    var nudged: Set<DayRoutine> = []
    /// Decision points whose window is still open.
    var pending: [DecisionPoint] = []
    /// Per type and bin of deliveries so far: (delivered, done, withheld, done).
    var outcomes: [String: [Int: (n1: Int, y1: Int, n0: Int, y0: Int)]] = [:]

    mutating func decision(_ request: ScheduledNotification, target: String?, delivered: Bool, deliveriesBefore: Int, within: Int?) {
        if !delivered { withheld[request.type, default: 0] += 1 }
        guard let target else { return }
        pending.append(
            DecisionPoint(
                type: request.type, target: target, deadline: request.scheduledAt.addingTimeInterval(TimeInterval(within ?? 1_800)),
                delivered: delivered, deliveriesBefore: deliveriesBefore))
    }

    /// Resolves the points whose routine is done now (`statuses` at `time`) or whose window
    /// has passed.
    mutating func observe(statuses: () -> [String: RoutineStatus], at time: Date) {
        guard !pending.isEmpty else { return }
        let now = statuses()
        var open: [DecisionPoint] = []
        for point in pending {
            if time <= point.deadline, now[point.target] == .completed {
                resolve(point, done: true)
            } else if time > point.deadline {
                resolve(point, done: false)
            } else {
                open.append(point)
            }
        }
        pending = open
    }

    /// Points still open when the run ends: not done.
    mutating func finish() {
        for point in pending { resolve(point, done: false) }
        pending = []
    }

    private mutating func resolve(_ point: DecisionPoint, done: Bool) {
        let bin = AnswersTally.bin(point.deliveriesBefore)
        var cell = outcomes[point.type, default: [:]][bin] ?? (0, 0, 0, 0)
        if point.delivered {
            cell.n1 += 1
            cell.y1 += done ? 1 : 0
        } else {
            cell.n0 += 1
            cell.y0 += done ? 1 : 0
        }
        outcomes[point.type, default: [:]][bin] = cell
    }
}

/// What users who answer the operator did, over a population: per type the deliveries seen
/// and acted on, users who switched the type off, users who switched every notice off,
/// completions per routine and how many an act was behind, and the trial's effects.
package struct AnswersTally: Sendable, Equatable {
    package var delivered: [String: Int] = [:]
    package var acted: [String: Int] = [:]
    package var withheld: [String: Int] = [:]
    /// Deliveries the engine made to devices that show nothing (every notice switched off).
    package var unshown: [String: Int] = [:]
    /// Users who switched a type off in the app's settings.
    package var optedOut: [String: Int] = [:]
    /// Users who switched every notice off at the system level.
    package var optedOutAll = 0
    package var completions: [String: Int] = [:]
    package var nudgedCompletions: [String: Int] = [:]
    /// The trial: per type, all decision points and by bin of deliveries so far.
    package var effects: [String: ClusteredDifference] = [:]
    package var effectsByDeliveries: [String: [Int: ClusteredDifference]] = [:]

    package init() {}

    /// The bins of deliveries so far: 0–6, 7–13, 14–27, 28 and more (by their first value).
    package static let bins = [0, 7, 14, 28]
    static func bin(_ k: Int) -> Int { bins.last { k >= $0 } ?? 0 }
    static func binLabel(_ start: Int) -> String {
        guard let index = bins.firstIndex(of: start) else { return "\(start)" }
        return index + 1 < bins.count ? "\(start)–\(bins[index + 1] - 1)" : "\(start)+"
    }

    /// Adds one user's answers.
    mutating func add(_ seen: AnswersSeen) {
        for (type, count) in seen.delivered { delivered[type, default: 0] += count }
        for (type, count) in seen.acted { acted[type, default: 0] += count }
        for (type, count) in seen.withheld { withheld[type, default: 0] += count }
        for (type, count) in seen.unshown { unshown[type, default: 0] += count }
        for type in seen.optedOutTypes { optedOut[type, default: 0] += 1 }
        if seen.optedOutAll { optedOutAll += 1 }
        for (type, cells) in seen.outcomes {
            var all = (n1: 0, y1: 0, n0: 0, y0: 0)
            for (bin, cell) in cells {
                effectsByDeliveries[type, default: [:]][bin, default: ClusteredDifference()].add(n1: cell.n1, y1: cell.y1, n0: cell.n0, y0: cell.y0)
                all = (all.n1 + cell.n1, all.y1 + cell.y1, all.n0 + cell.n0, all.y0 + cell.y0)
            }
            effects[type, default: ClusteredDifference()].add(n1: all.n1, y1: all.y1, n0: all.n0, y0: all.y0)
        }
    }

    /// Counts the completions of a closed day, and those an act of that day was for.
    mutating func count(_ close: DayClose, nudged: Set<DayRoutine>) {
        // The close's own lists (its `statuses` dictionary is made at every read).
        for (routine, status) in zip(close.routineIDs, close.routineStatuses) where status == .completed {
            completions[routine, default: 0] += 1
            if !nudged.isEmpty, nudged.contains(DayRoutine(day: close.day, routine: routine)) { nudgedCompletions[routine, default: 0] += 1 }
        }
    }

    package mutating func merge(_ other: AnswersTally) {
        for (key, value) in other.delivered { delivered[key, default: 0] += value }
        for (key, value) in other.acted { acted[key, default: 0] += value }
        for (key, value) in other.withheld { withheld[key, default: 0] += value }
        for (key, value) in other.unshown { unshown[key, default: 0] += value }
        for (key, value) in other.optedOut { optedOut[key, default: 0] += value }
        optedOutAll += other.optedOutAll
        for (key, value) in other.completions { completions[key, default: 0] += value }
        for (key, value) in other.nudgedCompletions { nudgedCompletions[key, default: 0] += value }
        for (type, effect) in other.effects { effects[type, default: ClusteredDifference()].merge(effect) }
        for (type, bins) in other.effectsByDeliveries {
            for (bin, effect) in bins { effectsByDeliveries[type, default: [:]][bin, default: ClusteredDifference()].merge(effect) }
        }
    }
}
