import Foundation
import RulesExpression
import Ruleset

/// The facts graph: for every fact, the parts of an app run that read it — the risk, route
/// and day tables, routine judgement, the plan and each line (a surface and event's
/// templates) — built once per prepared ruleset from the facts each compiled expression was
/// checked to read. The plan and the lines are made again only when a fact they read changed
/// (their memos keep samples of these slots, and only the sides of the constants a fact is
/// compared with where that is all that is read). The tables are evaluated at every app run:
/// measured, checking whether their facts crossed a constant cost three times what
/// evaluating their few entries does (a kept match was tried and removed).
final class FactReaders: Sendable {
    /// A part of an app run that reads facts.
    enum Reader: Hashable, Sendable {
        case risk, route, day, routineJudgement, plan
        /// The line of `RulesetDerived.lines[index]`.
        case line(Int)
    }

    /// What the risk and route tables read (`RulesetDerived.reads`): slots whose value
    /// matters and facts read only against constants, whose side of each constant matters
    /// (`now >= 21:00` changes the table's answer at 21:00, not every minute).
    let risk: FactReads
    let route: FactReads
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
        add(.risk, risk.allSlots)
        add(.route, route.allSlots)
        add(.day, day)
        add(.routineJudgement, routineJudgement)
        add(.plan, plan)
        // A line's slots as its memo reads them (the same function, `RulesetDerived.reads(of:)`).
        for index in derived.lines.indices { add(.line(index), derived.reads(of: .line(index)).allSlots) }
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
