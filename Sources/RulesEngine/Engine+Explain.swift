import Foundation
import RulesExpression
import Ruleset

extension OperatorEngine {
    /// What this engine decided so far, explained by `Explainer` (a host that restores the
    /// engine between steps merges each step's into its own).
    var explainer: Explainer { Explainer(prepared) }

    /// The latest explanation of one decision (`Explainer` over `decisions`).
    package func explanation(of decision: DecisionID) -> Explanation? {
        explainer.explanation(of: decision, in: decisions)
    }

    /// Every latest explanation, by decision.
    package var explanations: [String: Explanation] { explainer.explanations(decisions) }

    /// Every latest explanation in one text (to compare what two engines explain).
    var explanationsTranscript: String { Explanation.transcript(of: explanations) }
}

extension OperatorEngine {
    /// One decision of one app run, explained as a pure function of the saved state, the run
    /// and the ruleset: an engine goes on from `state` under `prepared`, takes `events` at
    /// `now` through `run` (as the app does) and the run's decision is explained. Nil when
    /// the run did not make that decision (the day table decides only when a day closes),
    /// or when the state's time zone is unknown here.
    static func explain(
        _ decision: DecisionID, state: EngineState, events: [EngineEvent], prepared: PreparedRuleset, now: Date
    ) -> Explanation? {
        guard var engine = OperatorEngine(prepared: prepared, state: state) else { return nil }
        engine.explains = true
        _ = engine.run(events, now: now)
        return engine.explanation(of: decision)
    }
}

extension OperatorEngine {
    /// Today's candidate of a notification type at the last plan: the refusing gate (nil when
    /// scheduled) and the facts at its fire time, for "why not" answers.
    public func plannedCandidate(type: String) -> (reason: GateReason?, facts: FactValues, when: CompiledExpression?, fireSeconds: Int)? {
        guard let planned = decisions.plannedToday(type: type) else { return nil }
        let candidate = planned.candidate
        return (
            planned.reason, planner.explainedFactsAtFire(candidate.facts, fireSeconds: candidate.seconds), candidate.box.value.when, candidate.seconds
        )
    }
}
