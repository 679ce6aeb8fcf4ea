import Foundation
import RulesExpression
import Ruleset

/// What an engine works out from its ruleset before its first step: fact slots, the rules
/// and routines boxed, the derived tables. Made once, shared by every engine of the ruleset.
public final class PreparedRuleset: Sendable {
    public let ruleset: Ruleset
    let layout: FactLayout
    let fullSchema: FactSchema
    let ruleBoxes: [RuleBox]
    let routineBoxes: [RoutineBox]
    let derived: RulesetDerived

    public init(_ ruleset: Ruleset) {
        self.ruleset = ruleset
        // The schema with every binding, built once for the slots and the derived tables.
        let schema = ruleset.perRoutineSchema
        layout = FactLayout(ruleset: ruleset, schema: schema)
        fullSchema = schema
        ruleBoxes = ruleset.notifications.indices.map { RuleBox(ruleset.notifications[$0], index: $0, in: ruleset) }
        routineBoxes = ruleset.routines.map(RoutineBox.init)
        derived = RulesetDerived(ruleset: ruleset, schema: schema)
    }
}

/// What app runs read from the ruleset again and again, worked out once per ruleset.
final class RulesetDerived: Sendable {
    /// `recovery.items_text` before the route starts (the declared items).
    let plannedRecoveryText: String
    /// Per template id: the segment at which rendering is refused for privacy (see
    /// `TemplateRenderer.refusedSegment`); absent when none is.
    let refusedSegment: [String: Int]
    /// Templates (indices, file order) by surface and event: the lines an app run chooses from.
    let templatesByLine: [LineKey: [Int]]
    /// The slots those templates read (conditions and placeholders), by surface and event.
    let lineReads: [LineKey: [Int]]
    /// `judgement.routine`, empty when the ruleset has no judgement.
    let routineJudgement: [RoutineJudgementEntry]
    /// Whether those entries read only a routine's bindings (`progress`, `value`, `goal`):
    /// then a reading judges its routines before it fills any fact.
    let judgementReadsOnlyBindings: Bool
    /// The routines (indices) behind `steps.*`, `sleep.*` and `water.*`: the first HealthKit
    /// steps routine, the first sleep routine, the first water routine.
    let stepsRoutine, sleepRoutine, waterRoutine: Int?
    /// The fact slots a plan reads from an app run's facts (see `PlanMemo`), without and
    /// with per-routine candidates (only a user with reminders has any).
    let planReads: [Int]
    let planReadsWithRoutines: [Int]

    init(ruleset: Ruleset, schema: FactSchema) {
        plannedRecoveryText = OperatorEngine.itemsText(OperatorEngine.plannedRecoveryItems(ruleset), ruleset: ruleset)
        var refused: [String: Int] = [:]
        var byLine: [LineKey: [Int]] = [:]
        for (index, template) in ruleset.templates.enumerated() {
            if refused[template.id] == nil, let segment = TemplateRenderer.refusedSegment(template, in: ruleset) { refused[template.id] = segment }
            byLine[LineKey(surface: template.surface, event: template.event), default: []].append(index)
        }
        refusedSegment = refused
        templatesByLine = byLine
        lineReads = byLine.mapValues { indices in
            Array(Set(indices.flatMap { ruleset.templates[$0].factsRead }.compactMap { schema.fact(named: $0)?.slot })).sorted()
        }
        routineJudgement = ruleset.judgement?.routine ?? []
        let bindings: Set<String> = ["progress", "value", "goal"]
        judgementReadsOnlyBindings = routineJudgement.allSatisfy { $0.when.factsRead.allSatisfy(bindings.contains) }
        stepsRoutine = ruleset.routines.firstIndex { $0.unit == .steps && $0.source == .healthkit }
        sleepRoutine = ruleset.routines.firstIndex { $0.category == .sleep }
        waterRoutine = ruleset.routines.firstIndex { $0.category == .water }
        planReads = RulesetDerived.planReads(ruleset, schema: schema, routines: false)
        planReadsWithRoutines = RulesetDerived.planReads(ruleset, schema: schema, routines: true)
    }
}

extension RulesetDerived {
    /// The slots of every fact a plan reads from the run's facts: what `at:` reads, and
    /// what is read at a candidate's fire time — `when:`, the risk and route tables, the
    /// notification texts — except `now` and `risk`, which are set anew there; with a
    /// per-routine type and `routines`, every `routines.*` fact (its bindings and the
    /// completed gate).
    static func planReads(_ ruleset: Ruleset, schema: FactSchema, routines: Bool) -> [Int] {
        var names: [String] = []
        var atFire: [String] = []
        for rule in ruleset.notifications {
            names += rule.at.factsRead
            atFire += rule.when?.factsRead ?? []
            for id in [rule.template] + (rule.title.map { [$0] } ?? []) { atFire += ruleset.template(id)?.factsRead ?? [] }
        }
        for entry in ruleset.risk { atFire += entry.when.factsRead }
        for entry in ruleset.route { atFire += entry.when.factsRead }
        names += atFire.filter { $0 != "now" && $0 != "risk" }
        if routines, ruleset.notifications.contains(where: \.perRoutine) {
            names += schema.facts.map(\.name).filter { $0.hasPrefix("routines.") }
        }
        return Array(Set(names.compactMap { schema.fact(named: $0)?.slot })).sorted()
    }
}

/// A surface and an event: which templates compete for a line.
struct LineKey: Hashable, Sendable {
    var surface: String
    var event: String?
}
