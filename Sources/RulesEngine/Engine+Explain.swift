import Foundation
import RulesExpression
import Ruleset

/// The engine's latest decisions, explained on demand.
extension OperatorEngine {
    /// The latest explanation of each decision of a table or tool, by name (`risk`, `route`,
    /// `day`, `tool`).
    package var decisionExplanations: [String: Explanation] {
        var result = decided.other
        for table in DecisionID.tables { result[table.name] = explanation(of: table) }
        return result
    }

    /// The latest explanation of one decision, made now.
    package func explanation(of decision: DecisionID) -> Explanation? {
        switch decision {
        case .risk: decided.risk.map(explain)
        case .route: decided.route.map(explain)
        case .day: decided.day.map(explain)
        case .tool: decided.other[decision.name]
        case .notification, .template: planExplanations[decision.name]
        }
    }
    /// The explanation of each candidate of the last plan (`notification <type>` for today's,
    /// `notification <request id>` for every one).
    package var planExplanations: [String: Explanation] {
        var result: [String: Explanation] = [:]
        for planned in plannedCandidates {
            let candidate = planned.candidate
            let explanation = Explanation(
                decision: "notification \(candidate.box.value.id)", outcome: planned.reason?.rawValue ?? "scheduled", at: planned.at,
                entries: planned.gates.entries(for: candidate.box.value),
                reading: (candidate.box.value.when?.factsRead ?? []) + candidate.box.value.at.factsRead, in: candidate.facts, schema: fullSchema,
                note: "candidate \(candidate.id) at \(TimeFormat.clock(candidate.seconds))")
            result["notification \(candidate.id)"] = explanation
            if planned.today, result["notification \(candidate.box.value.id)"] == nil || candidate.routine == nil {
                result["notification \(candidate.box.value.id)"] = explanation
            }
        }
        for line in lastLines.decisions { result["template \(line.text.surface)"] = templateExplanation(line) }
        return result
    }

    /// Every latest explanation, by decision.
    package var explanations: [String: Explanation] {
        decisionExplanations.merging(planExplanations) { a, _ in a }
    }
}
