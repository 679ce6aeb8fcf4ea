import Foundation
import RulesExpression
import Ruleset

/// A recovery route item as the day tracks it (seed 8.3).
public struct RouteItemState: Sendable, Hashable, Codable {
    public var id: String
    public var routine: String
    public var requirement: RecoveryItem.Requirement
    /// For `delta` items: the steps known when the route started.
    public var baseline: Int
    public var status: RoutineStatus
}

/// The walking quest of a `delta` item (seed 5.5).
public struct WalkingQuest: Sendable, Hashable, Codable {
    public var startSteps: Int
    public var targetDelta: Int
    public var currentSteps: Int
    public var clearSteps: Int { startSteps + targetDelta }
    public var remainingSteps: Int { Swift.max(0, clearSteps - currentSteps) }
    public var progress: Double {
        targetDelta <= 0 ? 1 : Swift.min(1, Swift.max(0, Double(currentSteps - startSteps) / Double(targetDelta)))
    }
    public var isCleared: Bool { currentSteps >= clearSteps }
}

/// The route of the day (seed 8.3).
public struct RouteState: Sendable, Hashable, Codable {
    public var route: RouteKind
    public var reason: String
    /// When the route started (the app run where it first became active).
    public var startedAt: Date?
    /// A user request: sticky for the day.
    public var requestedByUser: Bool
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

/// Everything the app knows about one logical day (part of the saved `EngineState`).
struct DayState: Sendable, Hashable, Codable {
    var day: Int
    var logs: [HabitLog] = []
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
    var lastSnapshot: DailySnapshot?
    /// The event the last app run answered (`home`, `completed`, …), for its facts.
    var lastEvent = "home"
    /// Routines completed at the last app run, in ruleset order.
    var completedRoutines: [String] = []
    var recoveryWasCompleted = false
    var nextLogNumber = 1

    init(day: Int) { self.day = day }

    /// Total logged for `routine` (optionally only logs numbered above `after`).
    func logged(_ routine: String, after: Int? = nil) -> Double {
        logs.reduce(0) { total, log in
            guard log.routine == routine else { return total }
            if let after, log.number <= after { return total }
            return total + log.value
        }
    }

    func ticked(_ routine: String) -> Set<String> {
        Set(ticks.filter { $0.routine == routine }.map(\.item))
    }
}
