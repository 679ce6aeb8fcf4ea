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

/// One row of `judgement.routine`: the status a routine gets when `when` holds (first match wins).
public struct RoutineJudgementEntry: Sendable {
    /// The status it gives.
    public var status: RoutineStatus
    /// Its condition (`progress`, `value`, `goal` bound to the routine).
    public var when: CompiledExpression
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
    /// Where its `when:` value starts.
    public var whenOrigin: Origin
}

/// One row of `judgement.day`: the day's result when `when` holds (first match wins).
public struct DayJudgementEntry: Sendable {
    /// The result it gives.
    public var result: DayResult
    /// Its condition.
    public var when: CompiledExpression
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
    /// Where its `when:` value starts.
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

    /// XP per completed and partial routine and per recovery completed.
    public init(completed: Int = 10, partial: Int = 4, recoveryCompleted: Int = 15) {
        self.completed = completed
        self.partial = partial
        self.recoveryCompleted = recoveryCompleted
    }
}

/// `judgement:`.
public struct Judgement: Sendable {
    /// The routine table.
    public var routine: [RoutineJudgementEntry]
    /// The day table.
    public var day: [DayJudgementEntry]
    /// Day results that keep the streak going.
    public var streakCounts: [DayResult]
    /// XP gained at a day's close.
    public var xp: ExperiencePoints
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
}
