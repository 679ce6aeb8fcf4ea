import Foundation
import RulesExpression
import Ruleset

/// The facts graph: for every fact, the parts of an app run that read it — the risk, route
/// and day tables, routine judgement, the plan and each line (a surface and event's
/// templates) — built once per prepared ruleset from the facts each compiled expression was
/// checked to read. An app run re-evaluates a part only when a fact it reads changed since
/// the part last decided (`KeptMatch` for the tables; the plan and the lines keep samples of
/// the same slots); a fact no part reads changes nothing.
final class FactReaders: Sendable {
    /// A part of an app run that reads facts.
    enum Reader: Hashable, Sendable {
        case risk, route, day, routineJudgement, plan
        /// The line of `RulesetDerived.lines[index]`.
        case line(Int)
    }

    /// What the risk and route tables read (`RulesetDerived.reads`): slots whose value
    /// matters and facts read only against constants, whose side of each constant matters
    /// (`now >= 21:00` changes at 21:00, not every minute).
    let risk: PlanReads
    let route: PlanReads
    /// The slots the day table and routine judgement read (sorted, each once).
    let day: [Int]
    let routineJudgement: [Int]
    /// Per slot (layout order): the parts that read it, in the order above, lines last.
    let readers: [[Reader]]

    init(ruleset: Ruleset, schema: FactSchema, layout: FactLayout, derived: RulesetDerived) {
        func slots(_ names: [String]) -> [Int] {
            Array(Set(names.compactMap { schema.fact(named: $0)?.slot })).sorted()
        }
        risk = RulesetDerived.reads(ruleset.risk.flatMap(\.when.factsRead), in: ruleset.risk.map(\.when.typed), schema: schema)
        route = RulesetDerived.reads(ruleset.route.flatMap(\.when.factsRead), in: ruleset.route.map(\.when.typed), schema: schema)
        day = slots((ruleset.judgement?.day ?? []).flatMap(\.when.factsRead))
        routineJudgement = slots(derived.routineJudgement.flatMap(\.when.factsRead))
        let plan = Array(Set(derived.planReadsWithRoutines.slots + derived.planReadsWithRoutines.bands.map(\.slot))).sorted()
        var readers = [[Reader]](repeating: [], count: layout.count)
        func add(_ reader: Reader, _ slots: [Int]) {
            for slot in slots where slot >= 0 && slot < readers.count { readers[slot].append(reader) }
        }
        add(.risk, risk.slots + risk.bands.map(\.slot))
        add(.route, route.slots + route.bands.map(\.slot))
        add(.day, day)
        add(.routineJudgement, routineJudgement)
        add(.plan, plan)
        for index in derived.lines.indices { add(.line(index), derived.lines[index].reads) }
        self.readers = readers
    }

    /// The parts that read a slot whose value differs between `old` and `new` (each once,
    /// in the order of `readers`): what an app run with `new` must evaluate again.
    func readersOfChanges(from old: FactValues, to new: FactValues) -> [Reader] {
        var found: [Reader] = []
        for slot in readers.indices where !readers[slot].isEmpty {
            let before = FactSample(old, slots: [slot])
            guard !before.matches(new, slots: [slot]) else { continue }
            for reader in readers[slot] where !found.contains(reader) { found.append(reader) }
        }
        return found
    }
}

/// A decision table's first match, kept while the facts the table reads (its slots in
/// `FactReaders`) and the day start are what they were: then the same entry matches. A table
/// that reported a problem is not kept (it is evaluated, and the problem told, again).
struct KeptMatch: Sendable {
    var sample: FactSample
    var sides: [UInt8]
    var dayStart: Int
    var index: Int?

    /// `FirstMatch.index` of `entries`, unless `kept` was made from the same facts (`reads`:
    /// the slots whose values, and the bands whose sides, the table depends on); returns the
    /// index and the match to keep.
    static func index<Entry>(
        _ entries: [Entry], _ condition: (Entry) -> CompiledExpression, _ origin: (Entry) -> Origin, facts: FactValues, dayStart: Int,
        reads: PlanReads, kept: KeptMatch?, problems: inout [String]
    ) -> (index: Int?, kept: KeptMatch?) {
        if let kept, kept.dayStart == dayStart, kept.sample.matches(facts, slots: reads.slots),
            reads.sidesMatch(kept.sides, facts, dayStart: dayStart)
        {
            return (kept.index, kept)
        }
        let before = problems.count
        let index = FirstMatch.index(entries, condition, origin, facts: facts, dayStart: dayStart, problems: &problems)
        guard problems.count == before else { return (index, nil) }
        let made = KeptMatch(
            sample: FactSample(facts, slots: reads.slots), sides: reads.sides(of: facts, dayStart: dayStart), dayStart: dayStart, index: index)
        return (index, made)
    }
}
