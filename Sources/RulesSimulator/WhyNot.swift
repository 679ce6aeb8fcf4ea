import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// "Why not" answers (`rules explain … --why-not route=light`): the smallest change of one
/// fact that would have produced the other outcome, where one exists, and otherwise what
/// stopped it.
package enum WhyNot {
    /// What a question asks: the outcome that did not happen.
    package enum Question: Sendable, Equatable {
        case route(RouteKind)
        case risk(RiskLevel)
        case notification(String)
    }

    /// Why a question cannot be asked.
    package struct Unaskable: Error, Sendable {
        package var message: String
    }

    /// The question `subject=outcome` asks, or why it cannot be asked (not of that form, an
    /// unknown subject, or an outcome the ruleset does not have) — known before any day is lived.
    package static func question(_ text: String, ruleset: Ruleset) -> Result<Question, Unaskable> {
        func refuse(_ message: String) -> Result<Question, Unaskable> { .failure(Unaskable(message: message)) }
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { return refuse("ask as route=KIND, risk=LEVEL or notification=ID, not '\(text)'") }
        switch parts[0] {
        case "route":
            guard let target = RouteKind(rawValue: parts[1]) else {
                return refuse("'\(parts[1])' is not a route (one of \(RouteKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .success(.route(target))
        case "risk":
            guard let target = RiskLevel(rawValue: parts[1]) else {
                return refuse("'\(parts[1])' is not a risk level (one of \(RiskLevel.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .success(.risk(target))
        case "notification":
            guard ruleset.notification(parts[1]) != nil else {
                return refuse("no notification type '\(parts[1])' (the ruleset has \(ruleset.notifications.map(\.id).joined(separator: ", ")))")
            }
            return .success(.notification(parts[1]))
        default:
            return refuse("ask about route=, risk= or notification=, not '\(parts[0])='")
        }
    }

    package static func answer(_ text: String, engine: OperatorEngine, ruleset: Ruleset) -> String {
        let asked: Question
        switch question(text, ruleset: ruleset) {
        case .success(let question): asked = question
        case .failure(let unaskable): return unaskable.message
        }
        guard let facts = engine.currentFacts() else { return "no app run had happened by then" }
        switch asked {
        case .route(let target):
            if engine.routeState?.route == target { return "the route was already \(target.rawValue)" }
            let decided = engine.explanation(of: .route)
            if let note = decided?.note { return "the table was not consulted: \(note)" }
            return table(
                ruleset.route.map { ($0.route.rawValue, $0.when) }, target: target.rawValue, what: "the \(target.rawValue) route", facts: facts,
                ruleset: ruleset, decided: Decided(decided))
        case .risk(let target):
            if engine.snapshot?.risk == target { return "the risk was already \(target.rawValue)" }
            return table(
                ruleset.risk.map { ($0.level.rawValue, $0.when) }, target: target.rawValue, what: "risk \(target.rawValue)", facts: facts,
                ruleset: ruleset, decided: Decided(engine.explanation(of: .risk)))
        case .notification(let type):
            guard let planned = engine.plannedCandidate(type: type) else {
                return "\(type) had no candidate at the last plan (its time had passed, or its time was unknown)"
            }
            guard let reason = planned.reason else { return "\(type) was scheduled for \(TimeFormat.clock(planned.fireSeconds))" }
            guard reason == .conditionFalse, let when = planned.when else {
                return "\(type) was stopped by the gate '\(reason.rawValue)'"
            }
            if let change = smallestChange(
                making: when, hold: true, facts: planned.facts, ruleset: ruleset, check: { facts in holds(when, facts, ruleset) })
            {
                return "\(type) was stopped by the gate 'condition_false' (\(when.source)); it would have passed \(change)"
            }
            // A condition on the derived risk: answer through the risk table at the fire time
            // (the risk the planner derived there is a fact of the fire time).
            let riskAtFire = ruleset.perRoutineSchema.fact(named: "risk").map { planned.facts[$0.slot] }
            if let level = equalityConstant(when, fact: "risk"),
                let answer = Optional(
                    table(
                        ruleset.risk.map { ($0.level.rawValue, $0.when) }, target: level,
                        what: "risk \(level) at \(TimeFormat.clock(planned.fireSeconds))",
                        facts: planned.facts, ruleset: ruleset, decided: Decided(value: riskAtFire))), !answer.hasPrefix("no ")
            {
                return "\(type) was stopped by the gate 'condition_false' (\(when.source)); it \(answer)"
            }
            return "\(type) was stopped by the gate 'condition_false' (\(when.source)); no single fact change makes it hold"
        }
    }

    /// `X` of a condition `fact == "X"`.
    static func equalityConstant(_ expression: CompiledExpression, fact: String) -> String? {
        guard case .binary(.equal, let lhs, let rhs) = expression.typed.kind else { return nil }
        if case .fact(_, let name) = lhs.kind, name == fact, case .constant(.string(let value)) = rhs.kind { return value }
        if case .fact(_, let name) = rhs.kind, name == fact, case .constant(.string(let value)) = lhs.kind { return value }
        return nil
    }

    /// Whether `expression` holds of changed `facts` (a step of the search); one that cannot
    /// be evaluated does not, as in the engine, which falls through it.
    static func holds(_ expression: CompiledExpression, _ facts: FactValues, _ ruleset: Ruleset) -> Bool {
        var context = EvaluationContext(facts: facts, dayStart: ruleset.dayStartsAt)
        do { return try expression.isTrue(&context) } catch { return false }
    }

    /// What a table decided, as the engine recorded it (never worked out again here): the
    /// outcome and the entries it tried that could not be evaluated.
    struct Decided {
        var outcome: String
        /// (position in the table, label, why) of each entry tried that failed, in the table's
        /// order (the trace holds the entries tried, the table's first ones, in order).
        var failed: [(position: Int, label: String, error: String)] = []

        /// From the decision's explanation (the engine's trace); "none" without one.
        init(_ explanation: Explanation?) {
            outcome = explanation?.outcome ?? "none"
            for (position, entry) in (explanation?.entries ?? []).enumerated() {
                if case .failed(let error) = entry.result { failed.append((position, entry.label, error)) }
            }
        }

        /// From a recorded value (the risk the planner derived at a fire time).
        init(value: Value?) {
            if case .string(let text)? = value { outcome = text } else { outcome = "none" }
        }

        /// The failed entries at positions up to `last` (by position: two entries may share a
        /// label), as a clause of an answer ("; entry light could not be evaluated (…) and
        /// counted as not matched"), or "".
        func failures(through last: Int) -> String {
            let told = failed.filter { $0.position <= last }
            let clauses = told.map { "entry \($0.label) could not be evaluated (\($0.error)) and counted as not matched" }
            return clauses.isEmpty ? "" : "; " + clauses.joined(separator: "; ")
        }
    }

    static func firstMatch(_ entries: [(String, CompiledExpression)], _ facts: FactValues, _ ruleset: Ruleset) -> String? {
        entries.first { holds($0.1, facts, ruleset) }?.0
    }

    /// The smallest one-fact change (relative to the fact's value) after which the table's
    /// first match is `target` (a search over changed facts: what the table decided is
    /// `decided`'s, as recorded).
    static func table(
        _ entries: [(String, CompiledExpression)], target: String, what: String, facts: FactValues, ruleset: Ruleset, decided: Decided
    ) -> String {
        guard let targetIndex = entries.firstIndex(where: { $0.0 == target }) else { return "no entry leads to \(what)" }
        let check: (FactValues) -> Bool = { firstMatch(entries, $0, ruleset) == target }
        var best: String?
        for (index, entry) in entries.enumerated() where index <= targetIndex {
            if let change = smallestChange(making: entry.1, hold: index == targetIndex, facts: facts, ruleset: ruleset, check: check) {
                best = best ?? change
                if index == targetIndex { best = change }
                break
            }
        }
        let failed = decided.failures(through: targetIndex)
        if let best { return "would have been \(what) \(best) (it was \(decided.outcome))\(failed)" }
        return "no single fact change leads to \(what); the table chose \(decided.outcome)\(failed)"
    }

    /// Tries each threshold of `expression` at the nearest value on the wanted side and
    /// returns the smallest change after which `check` passes, described in words.
    static func smallestChange(
        making expression: CompiledExpression, hold: Bool, facts: FactValues, ruleset: Ruleset, check: (FactValues) -> Bool
    ) -> String? {
        let schema = ruleset.perRoutineSchema
        var best: (score: Double, text: String)?
        for threshold in Threshold.extract(from: expression.typed) {
            guard let slot = schema.fact(named: threshold.fact)?.slot, let sides = threshold.sides else { continue }
            var current = facts[slot]
            if current.isUnknown, let fallback = threshold.fallback { current = fallback }
            let wanted = hold ? sides.holding : sides.failing
            guard threshold.holds(for: current, dayStart: ruleset.dayStartsAt) != hold else { continue }
            var changed = facts
            changed[slot] = wanted
            guard check(changed) else { continue }
            let score = abs((wanted.numeric ?? 0) - (current.numeric ?? 0)) / max(abs(current.numeric ?? 1), 1)
            let text =
                "if \(threshold.fact) had been \(wanted) (\(threshold.fact) \(threshold.op.rawValue) \(threshold.constant)\(hold ? "" : " not holding")); it was \(current)"
            if best == nil || score < best?.score ?? .infinity { best = (score, text) }
        }
        return best?.text
    }
}
