import Foundation
import RulesExpression
import Ruleset

/// A decision table with hit policy FIRST (the risk, route and day tables): the first entry
/// whose condition holds decides. Pure: facts and the day start in, an index out.
enum FirstMatch {
    /// The index of the first entry whose condition holds; an entry whose condition fails to
    /// evaluate does not match and is told in `problems` (file:line, the condition, why).
    /// With `tried` (when the engine explains), each entry tried is traced there, in order:
    /// matched, not matched, or why it failed. Explanations read that trace.
    static func index<Entry>(
        _ entries: [Entry], _ condition: (Entry) -> CompiledExpression, _ origin: (Entry) -> Origin, facts: FactValues, dayStart: Int,
        problems: inout [String], tried: inout [Explanation.Result]?
    ) -> Int? {
        var context = EvaluationContext(facts: facts, dayStart: dayStart)
        for index in entries.indices {
            let when = condition(entries[index])
            do {
                let holds = try when.isTrue(&context)
                tried?.append(holds ? .matched : .notMatched)
                if holds { return index }
            } catch {
                tried?.append(.failed(error.description))
                let place = origin(entries[index])
                problems.append("\(place.file):\(place.location.line): '\(when.source)' could not be evaluated: \(error.description)")
            }
        }
        return nil
    }

    /// The same, untraced.
    static func index<Entry>(
        _ entries: [Entry], _ condition: (Entry) -> CompiledExpression, _ origin: (Entry) -> Origin, facts: FactValues, dayStart: Int,
        problems: inout [String]
    ) -> Int? {
        var untraced: [Explanation.Result]?
        return index(entries, condition, origin, facts: facts, dayStart: dayStart, problems: &problems, tried: &untraced)
    }
}
