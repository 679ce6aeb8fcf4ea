import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// A condition rewritten between two rulesets (not only a constant moved), evaluated both
/// ways on a set of facts a run observed: the change is reached when the old and the new
/// condition answer differently on it. Each ruleset's condition reads the facts by name from
/// the run's facts (the two rulesets' slots differ); a condition bound to a routine (a
/// judgement of each routine, a per-routine notification) is evaluated for each routine.
struct ConditionReach {
    let old: CompiledExpression
    let new: CompiledExpression
    let oldRuleset: Ruleset
    let newRuleset: Ruleset
    /// Whether the condition reads `progress`, `value`, `goal` or `routine.*` of one routine.
    let perRoutine: Bool

    /// The rewritten condition of `entry`, when it has one on both sides.
    init?(_ entry: RuleChanges.Entry, old: Ruleset, new: Ruleset) {
        guard entry.conditionRewritten, let pair = Self.conditions(entry, old: old, new: new) else { return nil }
        self.old = pair.old
        self.new = pair.new
        oldRuleset = old
        newRuleset = new
        let bound: Set<String> = ["progress", "value", "goal"]
        perRoutine = (pair.old.factsRead + pair.new.factsRead).contains { bound.contains($0) || $0.hasPrefix("routine.") }
    }

    /// The old and the new condition of a changed entry.
    static func conditions(_ entry: RuleChanges.Entry, old: Ruleset, new: Ruleset) -> (old: CompiledExpression, new: CompiledExpression)? {
        func at<Row>(_ rows: [Row], _ position: Int?) -> Row? {
            guard let position, position >= 0, position < rows.count else { return nil }
            return rows[position]
        }
        switch entry.kind {
        case "route": return zip(at(old.route, entry.position)?.when, at(new.route, entry.position)?.when)
        case "risk": return zip(at(old.risk, entry.position)?.when, at(new.risk, entry.position)?.when)
        case "judgement" where entry.subject == "day":
            return zip(at(old.judgement?.day ?? [], entry.position)?.when, at(new.judgement?.day ?? [], entry.position)?.when)
        case "judgement":
            return zip(at(old.judgement?.routine ?? [], entry.position)?.when, at(new.judgement?.routine ?? [], entry.position)?.when)
        case "notification": return zip(old.notification(entry.id)?.when, new.notification(entry.id)?.when)
        default: return nil
        }
    }

    private static func zip(_ a: CompiledExpression?, _ b: CompiledExpression?) -> (old: CompiledExpression, new: CompiledExpression)? {
        guard let a, let b else { return nil }
        return (a, b)
    }

    /// Whether the two conditions answer differently on `facts`, observed under `observed`.
    func disagrees(on facts: FactValues, observed: Ruleset) -> Bool {
        let source = observed.perRoutineSchema
        let ids = newRuleset.routines.map(\.id).filter { id in source.fact(named: "routines.\(id).value") != nil }
        let routines: [String?] = perRoutine ? ids.map { Optional($0) } : [nil]
        for routine in routines {
            let a = Self.answer(old, ruleset: oldRuleset, facts: facts, source: source, routine: routine)
            let b = Self.answer(new, ruleset: newRuleset, facts: facts, source: source, routine: routine)
            if let a, let b, a != b { return true }
        }
        return false
    }

    /// `expression` of `ruleset` on the observed facts, read by name; nil when it cannot be
    /// evaluated (a fact it reads was never observed, or an evaluation error).
    static func answer(_ expression: CompiledExpression, ruleset: Ruleset, facts: FactValues, source: FactSchema, routine: String?) -> Bool? {
        let schema = ruleset.perRoutineSchema
        var values = FactValues(schema: schema)
        func observed(_ name: String) -> Value? {
            guard let slot = source.fact(named: name)?.slot, slot < facts.count else { return nil }
            return facts[slot]
        }
        for fact in schema.facts {
            if let value = observed(fact.name) { values.set(fact.name, value, in: schema) }
        }
        if let routine {
            for field in ["value", "goal", "progress"] {
                if let value = observed("routines.\(routine).\(field)") { values.set(field, value, in: schema) }
            }
            for (field, _) in FactSchema.routineFields {
                if let value = observed("routines.\(routine).\(field)") { values.set("routine.\(field)", value, in: schema) }
            }
            values.set("routine.id", .string(routine), in: schema)
        }
        // A fact the run never had (a setting or routine only this ruleset declares): no answer.
        if routine == nil, expression.factsRead.contains(where: { observed($0) == nil }) { return nil }
        var context = EvaluationContext(facts: values, dayStart: ruleset.dayStartsAt)
        do {
            return try expression.isTrue(&context)
        } catch {
            return nil
        }
    }
}
