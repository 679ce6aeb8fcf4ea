import Foundation
import RulesExpression
import Ruleset

/// Explanations as a pure function of what was decided (`Decisions`), the prepared ruleset
/// and a decision id: nothing here reads a live engine.
package struct Explainer: Sendable {
    let prepared: PreparedRuleset

    /// An explainer of `prepared`'s decisions.
    package init(_ prepared: PreparedRuleset) { self.prepared = prepared }

    /// The latest explanation of one decision, made now.
    package func explanation(of decision: DecisionID, in decisions: Decisions) -> Explanation? {
        switch decision {
        case .risk: decisions.risk.map(explain)
        case .route: decisions.route.map(explain)
        case .day: decisions.day.map(explain)
        case .tool: decisions.tool
        case .notification, .template: planExplanations(decisions)[decision.name]
        }
    }

    /// Every latest explanation, by decision name.
    package func explanations(_ decisions: Decisions) -> [String: Explanation] {
        var result = planExplanations(decisions)
        if let tool = decisions.tool { result[DecisionID.tool.name] = tool }
        for table in DecisionID.tables {
            if let explanation = explanation(of: table, in: decisions) { result[table.name] = explanation }
        }
        return result
    }

    /// The explanation of each candidate of the last plan (`notification <type>` for today's,
    /// `notification <request id>` for every one), and of the last run's lines.
    package func planExplanations(_ decisions: Decisions) -> [String: Explanation] {
        var result: [String: Explanation] = [:]
        for planned in decisions.planned ?? [] {
            let candidate = planned.candidate
            let rule = candidate.box.value
            let explanation = Explanation(
                decision: "notification \(rule.id)", outcome: planned.reason?.rawValue ?? "scheduled", at: planned.at,
                entries: planned.gates.entries(for: rule), reading: (rule.when?.factsRead ?? []) + rule.at.factsRead, in: planned.fireFacts,
                schema: prepared.fullSchema, note: "candidate \(candidate.id) at \(TimeFormat.clock(candidate.seconds))")
            result["notification \(candidate.id)"] = explanation
            if planned.today, result["notification \(rule.id)"] == nil || candidate.routine == nil {
                result["notification \(rule.id)"] = explanation
            }
        }
        for line in decisions.lines?.decisions ?? [] { result["template \(line.text.surface)"] = template(line) }
        return result
    }

    /// The explanation of a kept table decision or kept route.
    func explain(_ pending: PendingExplanation) -> Explanation {
        switch pending {
        case .ready(let explanation):
            return explanation
        case .table(.risk(let entries), let tried, let facts, let time):
            return traced(
                entries.map { ($0.level.rawValue, $0.when, $0.origin) }, tried: tried, facts: facts, decision: "risk", at: time,
                fallback: RiskLevel.low.rawValue)
        case .table(.route(let entries), let tried, let facts, let time):
            return traced(
                entries.map { ($0.route.rawValue, $0.when, $0.origin) }, tried: tried, facts: facts, decision: "route", at: time,
                fallback: RouteKind.regular.rawValue)
        case .table(.day(let entries), let tried, let facts, let time):
            return traced(
                entries.map { ($0.result.rawValue, $0.when, $0.origin) }, tried: tried, facts: facts, decision: "day", at: time,
                fallback: DayResult.failed.rawValue)
        case .routeKept(let route, let reason, let time):
            return Explanation(decision: "route", outcome: route.rawValue, at: time, entries: [], facts: [], note: Self.note(route, reason))
        }
    }

    /// Why a route stays without the table.
    static func note(_ route: RouteKind, _ reason: KeptRouteReason) -> String {
        switch reason {
        case .skippedDay: return "the user skipped today: the route in force stays"
        case .sticky: return "'\(route.rawValue)' is sticky: once entered it stays for the rest of the day"
        case .userRequest:
            let action: RouteAction = route == .recovery ? .startRecovery : .reduceRoute
            return "the user asked for it (\(action.rawValue)); a user request beats the table and sticks for the day"
        }
    }

    /// A decision table's first match, told entry by entry from the trace the engine recorded
    /// as it decided (`tried`: each entry tried, in order); the facts read are those of the
    /// entries tried, with the values they had.
    func traced(
        _ entries: [(label: String, when: CompiledExpression, origin: Origin)], tried: [Explanation.Result], facts: FactValues,
        decision: String, at time: Date, fallback: String
    ) -> Explanation {
        var told: [Explanation.Entry] = []
        var read: [String] = []
        for (entry, result) in zip(entries, tried) {
            for name in entry.when.factsRead where !read.contains(name) { read.append(name) }
            told.append(Explanation.Entry(label: entry.label, condition: entry.when.source, origin: entry.origin, result: result))
        }
        let decided = tried.last == .matched && tried.count <= entries.count ? entries[tried.count - 1].label : fallback
        return Explanation(decision: decision, outcome: decided, at: time, entries: told, reading: read, in: facts, schema: prepared.fullSchema)
    }

    /// How a line was chosen: the surface's templates for the event, each matched or not as
    /// the engine's trace says (a template in another tone than the user's is told as such).
    func template(_ line: LineDecision) -> Explanation {
        var entries: [Explanation.Entry] = []
        var read: [String] = []
        let templates = prepared.ruleset.templates
        // The templates the chooser tried, by the index it chose them with (no second lookup).
        let lines = prepared.derived.lines
        let members = lines.indices.contains(line.spec) ? lines[line.spec].templates : []
        for (index, traced) in zip(members, line.tried) {
            let template = templates[index]
            var result = traced
            for name in template.when?.factsRead ?? [] where !read.contains(name) { read.append(name) }
            if let tone = template.tone, tone != line.tone { result = .failed("tone '\(tone)' is not the user's") }
            entries.append(Explanation.Entry(label: template.id, condition: template.when?.source, origin: template.origin, result: result))
        }
        let refused = line.text.redacted ? "; refused a sensitive value: fallback shown" : ""
        return Explanation(
            decision: "template \(line.text.surface)", outcome: line.text.templateID ?? "none", at: line.at, entries: entries, reading: read,
            in: line.facts, schema: prepared.fullSchema,
            note: "event '\(line.event)'; among matches the one at (day \(line.day)) mod (count) in file order\(refused)")
    }
}
