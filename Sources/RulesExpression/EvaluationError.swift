import RulesDiagnostics

/// Why an evaluation produced no value. Never a trap: every run-time fault of an
/// expression is one of these, thrown as a typed error.
public enum EvaluationError: Error, Hashable, Sendable, CustomStringConvertible {
    case divisionByZero(TextRange)
    case overflow(TextRange)
    /// A result that is not a number (NaN) or not finite where an int was needed.
    case notANumber(TextRange)
    /// A fact that must be known was not set by the engine.
    case missingFact(String)
    /// More than `InputLimits.evaluationBudget` steps.
    case budgetExceeded
    /// A fact held a value of another type than the schema says (an engine bug, reported
    /// instead of trapping).
    case typeFault(String)

    public var description: String {
        switch self {
        case .divisionByZero: "division by zero"
        case .overflow: "arithmetic overflow"
        case .notANumber: "the result is not a number"
        case .missingFact(let name): "fact '\(name)' has no value"
        case .budgetExceeded: "evaluation took more than \(InputLimits.evaluationBudget) steps"
        case .typeFault(let detail): "a fact has a value of the wrong type (\(detail))"
        }
    }
}

/// What one evaluation reads and counts: the facts, the start of the logical day (for
/// comparing times) and the step budget.
public struct EvaluationContext {
    public var facts: FactValues
    /// Seconds after midnight at which the logical day starts (`day_starts_at`).
    public var dayStart: Int
    /// Steps taken so far; reset by the caller between evaluations if it wishes.
    public var steps = 0
    public var budget: Int

    public init(facts: FactValues, dayStart: Int = 4 * 3600, budget: Int = InputLimits.evaluationBudget) {
        self.facts = facts
        self.dayStart = dayStart
        self.budget = budget
    }

    @inline(__always)
    mutating func step() throws(EvaluationError) {
        steps &+= 1
        if steps > budget { throw .budgetExceeded }
    }

    /// Position of a time inside the logical day: 0 at `dayStart`; 24:00 is midnight,
    /// the end of a day that starts at 00:00.
    @inline(__always)
    func logical(_ time: Int) -> Int { EvaluationContext.logical(time, dayStart: dayStart) }

    /// `logical` for a given day start.
    @inlinable
    public static func logical(_ time: Int, dayStart: Int) -> Int {
        if time >= 86_400 { return dayStart == 0 ? 86_400 : 86_400 - dayStart }
        let shifted = time - dayStart
        return shifted < 0 ? shifted + 86_400 : shifted
    }
}
