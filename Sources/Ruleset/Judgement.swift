import RulesExpression

/// A routine's status (seed 8.5).
public enum RoutineStatus: String, Sendable, CaseIterable, Codable {
    case notStarted = "not_started"
    case inProgress = "in_progress"
    case completed, partial, failed, skipped, recovered
}

/// The day's result when it closes.
public enum DayResult: String, Sendable, CaseIterable, Codable {
    case success, partial, recovered, failed, skipped
}

public struct RoutineJudgementEntry: Sendable {
    public var status: RoutineStatus
    public var when: CompiledExpression
    public var origin: Origin
    public var whenOrigin: Origin
}

public struct DayJudgementEntry: Sendable {
    public var result: DayResult
    public var when: CompiledExpression
    public var origin: Origin
    public var whenOrigin: Origin
}

/// XP awarded at day close.
public struct ExperiencePoints: Sendable, Hashable {
    /// Per routine completed.
    public var completed: Int
    /// Per routine partly done.
    public var partial: Int
    /// When every recovery item was done.
    public var recoveryCompleted: Int

    public init(completed: Int = 10, partial: Int = 4, recoveryCompleted: Int = 15) {
        self.completed = completed
        self.partial = partial
        self.recoveryCompleted = recoveryCompleted
    }
}

/// `judgement:`.
public struct Judgement: Sendable {
    public var routine: [RoutineJudgementEntry]
    public var day: [DayJudgementEntry]
    /// Day results that keep the streak going.
    public var streakCounts: [DayResult]
    public var xp: ExperiencePoints
    public var origin: Origin
}
