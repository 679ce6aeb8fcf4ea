import Foundation
import RulesExpression
import Ruleset

/// What the engine decided, kept to be explained on demand: the latest decision of each
/// table, the last tool verdict, the last plan's candidates with their gates, the last run's
/// lines. An output of the engine's steps, like its records — the engine writes it and never
/// reads it back to decide — so what a step adds is a function of (state, events, ruleset,
/// now) alone: a restored engine adds what a long-lived one would (`SimulatedDaysTests`,
/// `MemoDifferentialTests` and FuzzEngine compare the explanations). `Explainer` turns it into explanations. A host that restores the engine
/// between steps carries it over (the simulator does; the app keeps none).
package struct Decisions: Sendable {
    var risk: PendingExplanation?
    var route: PendingExplanation?
    var day: PendingExplanation?
    var tool: Explanation?
    /// The last plan's candidates (today's and tomorrow's), nil before any plan.
    var planned: [PlannedCandidate]?
    /// The last app run's lines, nil before any.
    var lines: LastLines?

    /// Nothing decided yet.
    package init() {}

    /// Today's candidate of a notification type at the last plan.
    func plannedToday(type: String) -> PlannedCandidate? {
        planned?.first { $0.today && $0.candidate.box.value.id == type }
    }
}
