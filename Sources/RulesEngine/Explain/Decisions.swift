import Foundation
import RulesExpression
import Ruleset

/// What the engine decided, kept to be explained on demand: the latest decision of each
/// table, the last tool verdict, the last plan's candidates with their gates, the last run's
/// lines. An output of the engine's steps, like its records — the engine writes it and never
/// reads it back — so what a step adds is a function of (state, events, ruleset, now) alone:
/// a restored engine adds what a long-lived one would (`RestoreEachEventTests` compares the
/// explanations). `Explainer` turns it into explanations.
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

    /// These decisions with `later`'s on top (each decision the later steps made replaces
    /// this one's): how a host that restores an engine between steps keeps what was decided.
    package func merging(_ later: Decisions) -> Decisions {
        var merged = self
        if let risk = later.risk { merged.risk = risk }
        if let route = later.route { merged.route = route }
        if let day = later.day { merged.day = day }
        if let tool = later.tool { merged.tool = tool }
        if let planned = later.planned { merged.planned = planned }
        if let lines = later.lines { merged.lines = lines }
        return merged
    }

    /// Today's candidate of a notification type at the last plan.
    func plannedToday(type: String) -> PlannedCandidate? {
        planned?.first { $0.today && $0.candidate.box.value.id == type }
    }
}
