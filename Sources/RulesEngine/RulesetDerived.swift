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
    /// Per template (ruleset order): the segment at which rendering is refused for privacy
    /// (see `TemplateRenderer.refusedSegment`), nil when none is.
    let refusedSegment: [Int?]
    /// Every surface and event some template answers, with its templates and the slots
    /// they read; found by `lineIndex` (or `homeLines` / `widgetLine` without hashing).
    let lines: [LineSpec]
    let lineIndex: [LineKey: Int]
    /// The home lines of the events an app run answers (`EnumCells.events` order) and the
    /// widget's line: the keys an app run asks for at every run, looked up once.
    let homeLines: [Int?]
    let widgetLine: Int?
    /// `judgement.routine`, empty when the ruleset has no judgement.
    let routineJudgement: [RoutineJudgementEntry]
    /// Whether those entries read only a routine's bindings (`progress`, `value`, `goal`):
    /// then a reading judges its routines before it fills any fact.
    let judgementReadsOnlyBindings: Bool
    /// Which bindings the entries read: with only those read, routines that agree on them
    /// (and on whether anything was done) get the same status.
    let judgementReads: (progress: Bool, value: Bool, goal: Bool)
    /// The routines (indices) behind `steps.*`, `sleep.*` and `water.*`: the first HealthKit
    /// steps routine, the first sleep routine, the first water routine.
    let stepsRoutine, sleepRoutine, waterRoutine: Int?
    /// The fact slots a plan reads from an app run's facts (see `PlanMemo`), without and
    /// with per-routine candidates (only a user with reminders has any).
    let planReads: [Int]
    let planReadsWithRoutines: [Int]

    init(ruleset: Ruleset, schema: FactSchema) {
        plannedRecoveryText = OperatorEngine.itemsText(OperatorEngine.plannedRecoveryItems(ruleset), ruleset: ruleset)
        refusedSegment = ruleset.templates.map { TemplateRenderer.refusedSegment($0, in: ruleset) }
        var lines: [LineSpec] = []
        var lineIndex: [LineKey: Int] = [:]
        for (index, template) in ruleset.templates.enumerated() {
            let key = LineKey(surface: template.surface, event: template.event)
            if let line = lineIndex[key] {
                lines[line].templates.append(index)
            } else {
                lineIndex[key] = lines.count
                lines.append(LineSpec(key: key, templates: [index], reads: [], fallback: ruleset.surface(template.surface)?.fallback ?? ""))
            }
        }
        for index in lines.indices {
            lines[index].reads = Array(
                Set(lines[index].templates.flatMap { ruleset.templates[$0].factsRead }.compactMap { schema.fact(named: $0)?.slot })
            ).sorted()
        }
        self.lines = lines
        self.lineIndex = lineIndex
        homeLines = EnumCells.eventNames.map { lineIndex[LineKey(surface: "home", event: $0)] }
        widgetLine = lineIndex[LineKey(surface: "widget", event: "home")]
        routineJudgement = ruleset.judgement?.routine ?? []
        let bindings: Set<String> = ["progress", "value", "goal"]
        judgementReadsOnlyBindings = routineJudgement.allSatisfy { $0.when.factsRead.allSatisfy(bindings.contains) }
        let read = Set(routineJudgement.flatMap(\.when.factsRead))
        judgementReads = (read.contains("progress"), read.contains("value"), read.contains("goal"))
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

/// The templates (indices, file order) of one surface and event, the slots they read
/// (conditions and placeholders) and the surface's fallback.
struct LineSpec: Sendable {
    let key: LineKey
    var templates: [Int]
    var reads: [Int]
    let fallback: String
}
