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
        case .table(.risk(let entries), let facts, let time, let dayStart):
            return firstMatch(
                entries.map { ($0.level.rawValue, $0.when, $0.origin) }, facts: facts, dayStart: dayStart, decision: "risk", at: time,
                fallback: RiskLevel.low.rawValue)
        case .table(.route(let entries), let facts, let time, let dayStart):
            return firstMatch(
                entries.map { ($0.route.rawValue, $0.when, $0.origin) }, facts: facts, dayStart: dayStart, decision: "route", at: time,
                fallback: RouteKind.regular.rawValue)
        case .table(.day(let entries), let facts, let time, let dayStart):
            return firstMatch(
                entries.map { ($0.result.rawValue, $0.when, $0.origin) }, facts: facts, dayStart: dayStart, decision: "day", at: time,
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

    /// The first match of a decision table, told entry by entry.
    func firstMatch(
        _ entries: [(label: String, when: CompiledExpression, origin: Origin)], facts: FactValues, dayStart: Int, decision: String,
        at time: Date, fallback: String
    ) -> Explanation {
        var context = EvaluationContext(facts: facts, dayStart: dayStart)
        var tried: [Explanation.Entry] = []
        var read: [String] = []
        var decided: Int?
        for (index, entry) in entries.enumerated() {
            for name in entry.when.factsRead where !read.contains(name) { read.append(name) }
            do {
                let matched = try entry.when.isTrue(&context)
                tried.append(
                    Explanation.Entry(
                        label: entry.label, condition: entry.when.source, origin: entry.origin, result: matched ? .matched : .notMatched))
                if matched {
                    decided = index
                    break
                }
            } catch {
                tried.append(
                    Explanation.Entry(label: entry.label, condition: entry.when.source, origin: entry.origin, result: .failed(error.description)))
            }
        }
        let outcome = decided.map { entries[$0].label } ?? fallback
        return Explanation(decision: decision, outcome: outcome, at: time, entries: tried, reading: read, in: facts, schema: prepared.fullSchema)
    }

    /// How a line was chosen: the surface's templates for the event, each matched or not.
    func template(_ line: LineDecision) -> Explanation {
        var entries: [Explanation.Entry] = []
        var read: [String] = []
        var context = EvaluationContext(facts: line.facts, dayStart: line.dayStart)
        for template in prepared.ruleset.templates where template.surface == line.text.surface && template.event == line.event {
            var result: Explanation.Result = .matched
            if let when = template.when {
                for name in when.factsRead where !read.contains(name) { read.append(name) }
                do { result = try when.isTrue(&context) ? .matched : .notMatched } catch { result = .failed(error.description) }
            }
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
