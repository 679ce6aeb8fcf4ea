import Foundation
import RulesExpression
import Ruleset

/// Why a decision came out as it did (SPEC §7 `explain`): the entries tried in order, the
/// one that decided, and the values of the facts they read.
public struct Explanation: Sendable {
    public enum Result: Sendable, Hashable {
        case matched
        case notMatched
        /// The condition could not be evaluated (counts as not matched).
        case failed(String)
    }

    public struct Entry: Sendable {
        /// What the entry would decide (`recovery`, `high`, a gate name, a template id).
        public var label: String
        /// The condition as written, nil for gates without one.
        public var condition: String?
        public var origin: Origin?
        public var result: Result
    }

    /// `risk`, `route`, `notification <id>`, `template <surface>`, `tool`.
    public var decision: String
    public var outcome: String
    public var at: Date
    public var entries: [Entry]
    /// Why no table was consulted (a sticky route, a user request), if so.
    public var note: String?
    /// Names of the facts read, resolved against `values` only when asked (explanations are
    /// made at every app run and read rarely).
    var factNames: [String] = []
    var factValues: FactValues?
    var schema: FactSchema?

    public init(decision: String, outcome: String, at: Date, entries: [Entry], facts: [(name: String, value: Value)], note: String? = nil) {
        self.decision = decision
        self.outcome = outcome
        self.at = at
        self.entries = entries
        self.note = note
        self.explicitFacts = facts
    }

    init(
        decision: String, outcome: String, at: Date, entries: [Entry], reading names: [String], in values: FactValues, schema: FactSchema,
        note: String? = nil
    ) {
        self.init(decision: decision, outcome: outcome, at: at, entries: entries, facts: [], note: note)
        factNames = names
        factValues = values
        self.schema = schema
    }

    private var explicitFacts: [(name: String, value: Value)]

    /// Facts read by the entries tried, with their values.
    public var facts: [(name: String, value: Value)] {
        guard let factValues, let schema else { return explicitFacts }
        return factNames.compactMap { name in schema.fact(named: name).map { (name, factValues[$0.slot]) } }
    }
}

extension OperatorEngine {
    /// First match of a decision table, with the explanation of how it was found.
    func firstMatch(
        _ entries: [(label: String, when: CompiledExpression, origin: Origin)], facts: FactValues, decision: String,
        at time: Date, fallback: String
    ) -> (index: Int?, explanation: Explanation) {
        var context = EvaluationContext(facts: facts, dayStart: profile.dayStart(ruleset))
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
        return (decided, Explanation(decision: decision, outcome: outcome, at: time, entries: tried, reading: read, in: facts, schema: fullSchema))
    }

    /// Reports each entry of `explanation` whose condition failed to evaluate.
    mutating func reportFailures(_ explanation: Explanation, at time: Date) {
        for entry in explanation.entries {
            guard case .failed(let error) = entry.result else { continue }
            let place = entry.origin.map { "\($0.file):\($0.location.line): " } ?? ""
            problem(at: time, "expression.evaluation", "\(place)'\(entry.condition ?? entry.label)' could not be evaluated: \(error)")
        }
    }

    /// The index of the first entry whose condition holds (no explanation: the hot path).
    func firstMatchIndex<Entry>(_ entries: [Entry], _ condition: (Entry) -> CompiledExpression, facts: FactValues) -> Int? {
        var context = EvaluationContext(facts: facts, dayStart: profile.dayStart(ruleset))
        return entries.firstIndex { (try? condition($0).isTrue(&context)) == true }
    }
}
