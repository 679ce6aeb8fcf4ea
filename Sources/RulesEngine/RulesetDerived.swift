import Foundation
import RulesExpression
import Ruleset

/// What an engine works out from its ruleset before its first step: fact slots, the rules
/// and routines boxed, the derived tables. Made once, shared by every engine of the ruleset.
public final class PreparedRuleset: Sendable {
    /// The ruleset it was prepared from.
    public let ruleset: Ruleset
    let layout: FactLayout
    let fullSchema: FactSchema
    let ruleBoxes: [RuleBox]
    let routineBoxes: [RoutineBox]
    let derived: RulesetDerived
    /// The goals part (the light route's scale).
    let goals: Goals
    /// The facts graph: which parts read each fact (`FactReaders`), worked out when asked
    /// (no app run reads it: preparing a ruleset, once per launch, does not pay for it).
    func factReaders() -> FactReaders { FactReaders(ruleset: ruleset, schema: fullSchema, layout: layout, derived: derived) }

    /// What a memoised part of an app run reads of the facts (`RulesetDerived.reads(of:)`):
    /// what its memo is keyed by (`Memo`), and what the facts graph `FactReaders` lists it under.
    func reads(of reader: FactReaders.Reader) -> FactReads { derived.reads(of: reader) }

    /// The boxed notification type of this id, read in place (`Ruleset.notification` returns a
    /// copy of the rule, a retain of each of its fields). A walk of the few types: comparing a
    /// few short ids costs less than hashing one for the ruleset's index (ids are unique).
    func ruleBox(_ type: String) -> RuleBox? { ruleBoxes.first { $0.value.id == type } }

    /// Prepares `ruleset` (once per ruleset; share the value).
    public init(_ ruleset: Ruleset) {
        self.ruleset = ruleset
        // The schema with every binding, built once for the slots and the derived tables.
        let schema = ruleset.perRoutineSchema
        layout = FactLayout(ruleset: ruleset, schema: schema)
        fullSchema = schema
        ruleBoxes = ruleset.notifications.indices.map { RuleBox(ruleset.notifications[$0], index: $0, in: ruleset) }
        routineBoxes = ruleset.routines.map(RoutineBox.init)
        derived = RulesetDerived(ruleset: ruleset, schema: schema)
        goals = Goals(ruleset)
    }
}

/// What app runs read from the ruleset again and again, worked out once per ruleset.
final class RulesetDerived: Sendable {
    /// `recovery.items_text` before the route starts (the declared items).
    let plannedRecoveryText: String
    /// `recovery.item_count` before the route starts: how many declared items it would offer.
    let plannedRecoveryCount: Int
    /// Each declared recovery item's text (`물 300ml`, `양치`, `300보`), worked out once.
    let recoveryItemTexts: [RecoveryItemText]
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
    /// Whether planning tomorrow reads the time of the run that plans: an `at:` (evaluated
    /// at planning) or a routine judgement entry (tomorrow's fresh statuses) reads `now`.
    /// Then tomorrow's plan is keyed by that time too (see `TomorrowPlan`).
    let tomorrowReadsNow: Bool
    /// Whether planning tomorrow reads no date fact (`today`, `weekday`): no `at:`, `when:`,
    /// notification text, risk or route entry or routine judgement does. Then tomorrow's plan
    /// of one day is yesterday's moved by a day (see `TomorrowPlan.nextDay`).
    let tomorrowReadsNoDate: Bool
    /// Which bindings the entries read: with only those read, routines that agree on them
    /// (and on whether anything was done) get the same status.
    let judgementReads: (progress: Bool, value: Bool, goal: Bool)
    /// The routines (indices) behind `steps.*`, `sleep.*` and `water.*`: the first HealthKit
    /// steps routine, the first sleep routine, the first water routine.
    let stepsRoutine, sleepRoutine, waterRoutine: Int?
    /// The fact slots a plan reads from an app run's facts (see `PlanMemo`), without and
    /// with per-routine candidates (only a user with reminders has any): those whose value
    /// matters, and those that matter only through comparisons with constants.
    let planReads: FactReads
    let planReadsWithRoutines: FactReads

    init(ruleset: Ruleset, schema: FactSchema) {
        let planned = RecoveryTexts.plannedRecoveryItems(ruleset)
        plannedRecoveryText = RecoveryTexts.itemsText(planned, ruleset: ruleset)
        plannedRecoveryCount = planned.count
        recoveryItemTexts = (ruleset.recovery?.items ?? []).map { item in
            RecoveryItemText(
                routine: item.routine, requirement: item.requirement,
                text: RecoveryTexts.itemText(routine: item.routine, item.requirement, ruleset: ruleset))
        }
        refusedSegment = ruleset.templates.map { TemplateRenderer.refusedSegment($0, in: ruleset) }
        var keys: [LineKey] = []
        var members: [[Int]] = []
        var lineIndex: [LineKey: Int] = [:]
        for (index, template) in ruleset.templates.enumerated() {
            let key = LineKey(surface: template.surface, event: template.event)
            if let line = lineIndex[key] {
                members[line].append(index)
            } else {
                lineIndex[key] = keys.count
                keys.append(key)
                members.append([index])
            }
        }
        lines = keys.indices.map { line in
            let slots = Array(Set(members[line].flatMap { ruleset.templates[$0].factsRead }.compactMap { schema.fact(named: $0)?.slot })).sorted()
            return LineSpec(
                key: keys[line], templates: members[line], reads: FactReads(slots: slots, bands: []),
                fallback: ruleset.surface(keys[line].surface)?.fallback ?? "",
                canReportProblem: members[line].contains { TemplateRenderer.canFailOnValues(ruleset.templates[$0]) })
        }
        self.lineIndex = lineIndex
        homeLines = EnumCells.eventNames.map { lineIndex[LineKey(surface: "home", event: $0)] }
        widgetLine = lineIndex[LineKey(surface: "widget", event: "home")]
        routineJudgement = ruleset.judgement?.routine ?? []
        let bindings: Set<String> = ["progress", "value", "goal"]
        judgementReadsOnlyBindings = routineJudgement.allSatisfy { $0.when.factsRead.allSatisfy(bindings.contains) }
        tomorrowReadsNow =
            ruleset.notifications.contains { $0.at.factsRead.contains("now") } || routineJudgement.contains { $0.when.factsRead.contains("now") }
        tomorrowReadsNoDate = Self.planFacts(ruleset).allSatisfy { $0 != "today" && $0 != "weekday" }
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
    /// What a memoised part of an app run reads of the facts: what its memo is keyed by
    /// (`Memo`) and what the facts graph (`FactReaders`) lists it under. A line's are its
    /// templates' slots (`lines`); the graph's other readers are not memoised (the tables are
    /// evaluated at every run) and read none here; a plan's depend on the profile
    /// (`ProfileDerived.planReads`).
    func reads(of reader: FactReaders.Reader) -> FactReads {
        guard case .line(let index) = reader, index >= 0, index < lines.count else { return .nothing }
        return lines[index].reads
    }

    /// Every fact a plan's expressions name: `at:`, `when:`, the notification texts and
    /// titles, the risk and route tables (evaluated at fire times) and the routine judgement
    /// (tomorrow's statuses).
    static func planFacts(_ ruleset: Ruleset) -> [String] {
        var names: [String] = []
        for rule in ruleset.notifications {
            names += rule.at.factsRead + (rule.when?.factsRead ?? [])
            for id in [rule.template] + (rule.title.map { [$0] } ?? []) { names += ruleset.template(id)?.factsRead ?? [] }
        }
        names += ruleset.risk.flatMap(\.when.factsRead) + ruleset.route.flatMap(\.when.factsRead)
        return names + (ruleset.judgement?.routine ?? []).flatMap(\.when.factsRead)
    }

    /// The slots of every fact a plan reads from the run's facts: what `at:` reads, and
    /// what is read at a candidate's fire time — `when:`, the risk and route tables, the
    /// notification texts — except `now` and `risk`, which are set anew there. With a
    /// per-routine type and `routines`: what its expressions read of each routine through the
    /// binding (`routine.progress` is every routine's `routines.<id>.progress`, read as the
    /// binding is read), and every routine's status when `cancel_when_completed` (the
    /// completed gate reads it: which side of `== "completed"` it is on).
    /// A fact read only through comparisons with constants (in every expression a plan
    /// evaluates) is banded: the plan depends on which side of each constant it is on, so
    /// `completion_rate` going from 0.3 to 0.4 keeps a plan whose conditions compare it with
    /// 0.5 and 0.6, and a log of water that leaves `routine.progress < 1.0` as it was keeps
    /// the reminders. Any other read (a placeholder, arithmetic) makes its value matter.
    static func planReads(_ ruleset: Ruleset, schema: FactSchema, routines: Bool) -> FactReads {
        var names: [String] = []
        var atFire: [String] = []
        var trees: [TypedNode] = []
        var perRoutine: [TypedNode] = []
        var bindingNames: [String] = []
        for rule in ruleset.notifications {
            var ruleTrees = [rule.at.typed]
            var ruleNames = rule.at.factsRead + (rule.when?.factsRead ?? [])
            names += rule.at.factsRead
            atFire += rule.when?.factsRead ?? []
            if let when = rule.when { ruleTrees.append(when.typed) }
            for id in [rule.template] + (rule.title.map { [$0] } ?? []) {
                guard let template = ruleset.template(id) else { continue }
                atFire += template.factsRead
                ruleNames += template.factsRead
                ruleTrees += template.expressions.map(\.typed)
            }
            if rule.perRoutine {
                perRoutine += ruleTrees
                bindingNames += ruleNames
            } else {
                trees += ruleTrees
            }
        }
        for entry in ruleset.risk {
            atFire += entry.when.factsRead
            trees.append(entry.when.typed)
        }
        for entry in ruleset.route {
            atFire += entry.when.factsRead
            trees.append(entry.when.typed)
        }
        names += atFire.filter { $0 != "now" && $0 != "risk" }
        var completed: [String] = []
        var bound: [String: String] = [:]
        if routines, !perRoutine.isEmpty {
            let fields = FactSchema.routineFields.map(\.0).filter { bindingNames.contains("routine." + $0) }
            for routine in ruleset.routines {
                for field in fields { bound["routines.\(routine.id).\(field)"] = "routine." + field }
                if ruleset.policy.cancelWhenCompleted { completed.append("routines.\(routine.id).status") }
            }
        } else {
            // Without reminders no per-routine candidate is made: its expressions read nothing.
            perRoutine = []
        }
        let all = names + completed + bound.keys.sorted()
        return reads(all, in: trees, schema: schema, perRoutine: perRoutine, bound: bound, completed: Set(completed))
    }

    /// What expressions (`trees`) read of the facts `names`: a fact read only through
    /// comparisons with constants (in every one of them) is banded — what matters is which
    /// side of each constant it is on; any other read (a placeholder, arithmetic) makes its
    /// value matter.
    static func reads(
        _ names: [String], in trees: [TypedNode], schema: FactSchema, perRoutine: [TypedNode] = [],
        bound: [String: String] = [:], completed: Set<String> = []
    ) -> FactReads {
        var reads: [Int] = []
        var bands: [PlanBand] = []
        for name in Set(names).sorted() {
            guard let slot = schema.fact(named: name)?.slot else { continue }
            var thresholds: [Threshold] = []
            var banded = true
            // A per-routine expression reads the fact by its own name and through its binding.
            let searches = trees.map { ($0, name) } + perRoutine.map { ($0, name) } + perRoutine.compactMap { tree in bound[name].map { (tree, $0) } }
            for (tree, spelled) in searches where banded {
                guard let found = Threshold.only(spelled, in: tree) else {
                    banded = false
                    break
                }
                for threshold in found
                where !thresholds.contains(where: { $0.op == threshold.op && $0.constant == threshold.constant && $0.fallback == threshold.fallback })
                {
                    thresholds.append(threshold)
                }
            }
            // The completed gate reads a routine's status as `== "completed"` (nothing else).
            if banded, completed.contains(name) {
                let done = Value.string(RoutineStatus.completed.rawValue)
                thresholds.append(Threshold(fact: name, op: .equal, constant: done, fallback: nil, range: TextRange(0, 0)))
            }
            // Durations do not compare through `Threshold.holds`: their values matter.
            let comparable = thresholds.allSatisfy { threshold in
                switch threshold.constant {
                case .int, .number, .time: true
                case .string: threshold.op == .equal && threshold.fallback == nil
                default: false
                }
            }
            if banded, comparable, !thresholds.isEmpty {
                bands.append(PlanBand(slot: slot, thresholds: thresholds))
            } else {
                reads.append(slot)
            }
        }
        return FactReads(slots: reads.sorted(), bands: bands.sorted { $0.slot < $1.slot })
    }
}

/// A recovery item's text, by its routine and requirement.
struct RecoveryItemText: Sendable {
    let routine: String
    let requirement: RecoveryItem.Requirement
    let text: String
}

/// A surface and an event: which templates compete for a line.
struct LineKey: Hashable, Sendable {
    var surface: String
    var event: String?
}

/// The templates (indices, file order) of one surface and event, the slots they read
/// (conditions and placeholders) and the surface's fallback. Behind one reference: a line
/// is looked at twice per app run.
final class LineSpec: Sendable {
    let key: LineKey
    let templates: [Int]
    /// The slots its templates read (every value matters: no bands).
    let reads: FactReads
    let fallback: String
    /// Whether choosing the line can report a problem: a template's `when` or placeholder
    /// that some values make fail (`CompiledExpression.canFailOnValues`). When none can, an
    /// engine that keeps only decisions need not choose it.
    let canReportProblem: Bool

    init(key: LineKey, templates: [Int], reads: FactReads, fallback: String, canReportProblem: Bool) {
        self.key = key
        self.templates = templates
        self.reads = reads
        self.fallback = fallback
        self.canReportProblem = canReportProblem
    }
}
