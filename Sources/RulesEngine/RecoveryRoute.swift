import Foundation
import RulesExpression
import Ruleset

/// The recovery route (its items, counted only after the route started, and the walking
/// quest of a `delta` item) and the light route's goals.
extension OperatorEngine {

    /// Recovery items at the route's start (SPEC §5.3): items of routines not enabled,
    /// `delta` items without steps permission, and checklist items already ticked are left
    /// out; at most `max_items`.
    func startRecoveryItems(_ day: DayState, at time: Date) -> [RouteItemState] {
        var leftOut: [RouteItemLeftOut] = []
        return startRecoveryItems(day, leftOut: &leftOut)
    }

    /// The same, with the items left out and why (each becomes a `route.item_left_out`
    /// record where the route starts).
    func startRecoveryItems(_ day: DayState, leftOut: inout [RouteItemLeftOut]) -> [RouteItemState] {
        guard let recovery = ruleset.recovery else { return [] }
        var items: [RouteItemState] = []
        for item in recovery.items where items.count < recovery.maxItems {
            guard profile.enabledRoutines.contains(item.routine) else {
                leftOut.append(RouteItemLeftOut(routine: item.routine, reason: .routineNotEnabled))
                continue
            }
            var baseline = 0
            switch item.requirement {
            case .delta:
                guard day.health?.stepsPermission == .granted else {
                    leftOut.append(RouteItemLeftOut(routine: item.routine, reason: .noStepsPermission))
                    continue
                }
                baseline = day.health?.stepsToday ?? 0
            case .item(let name):
                if day.ticked(item.routine).contains(name) {
                    leftOut.append(RouteItemLeftOut(routine: item.routine, reason: .alreadyDone))
                    continue
                }
            case .target:
                break
            }
            items.append(
                RouteItemState(
                    id: "route_item_\(threeDigits(items.count + 1))", routine: item.routine, requirement: item.requirement,
                    baseline: baseline, status: .notStarted))
        }
        return items
    }

    /// The walking quest of the route's first `delta` item (seed 5.5).
    func startQuest(_ day: DayState) -> WalkingQuest? {
        guard let steps = day.health?.stepsToday, day.health?.stepsPermission == .granted else { return nil }
        for item in day.route.items {
            if case .delta(let delta) = item.requirement {
                return WalkingQuest(startSteps: item.baseline, targetDelta: delta, currentSteps: steps)
            }
        }
        return startRecoveryItems(day, at: .distantPast).compactMap { item -> WalkingQuest? in
            if case .delta(let delta) = item.requirement { return WalkingQuest(startSteps: steps, targetDelta: delta, currentSteps: steps) }
            return nil
        }.first
    }

    /// Route items count only what happens after the route started.
    mutating func updateRouteItems(_ day: inout DayState, at time: Date) {
        guard let start = day.route.startedAt else { return }
        if var quest = day.quest, let steps = day.health?.stepsToday {
            quest.currentSteps = steps
            day.quest = quest
        }
        for index in day.route.items.indices {
            let item = day.route.items[index]
            let status: RoutineStatus
            switch item.requirement {
            case .target(let amount):
                let logged = day.logged(item.routine, after: day.route.logsBefore)
                status = logged >= amount ? .completed : logged > 0 ? .inProgress : .notStarted
            case .item(let name):
                status = day.ticks.contains { $0.routine == item.routine && $0.item == name && $0.at > start } ? .completed : .notStarted
            case .delta(let delta):
                let steps = day.health?.stepsToday ?? item.baseline
                status = steps - item.baseline >= delta ? .completed : steps > item.baseline ? .inProgress : .notStarted
            }
            if status != item.status {
                day.route.items[index].status = status
                if status == .completed { records.append(EngineRecord(at: time, kind: .routeItemDone(day.route.items[index]))) }
            }
        }
    }

    /// Whether every recovery item is done (false without items).
    func recoveryCompleted(_ day: DayState) -> Bool {
        !day.route.items.isEmpty && day.route.items.allSatisfy { $0.status == .completed }
    }

    /// The recovery items in Korean: `물 300ml, 양치, 300보`.
    func recoveryItemsText(_ day: DayState) -> String {
        day.route.items.isEmpty && day.route.route != .recovery ? derived.plannedRecoveryText : itemsText(day.route.items)
    }

    /// The recovery items not done yet (empty before the route starts or when all are done).
    func recoveryRemainingText(_ day: DayState) -> String {
        itemsText(day.route.items.filter { $0.status != .completed })
    }

    func itemsText(_ items: [RouteItemState]) -> String {
        OperatorEngine.itemsText(items, ruleset: ruleset)
    }

    static func itemsText(_ items: [RouteItemState], ruleset: Ruleset) -> String {
        items.map { item in
            let routine = ruleset.routine(item.routine)
            switch item.requirement {
            case .target(let amount):
                return "\(routine?.name ?? item.routine) \(Value.formatNumber(amount))\(OperatorEngine.unitSuffix(routine?.unit))"
            case .item(let name):
                return name
            case .delta(let steps):
                return "\(steps)보"
            }
        }.joined(separator: ", ")
    }

    /// The recovery items the ruleset declares (before the route starts).
    static func plannedRecoveryItems(_ ruleset: Ruleset) -> [RouteItemState] {
        (ruleset.recovery?.items ?? []).prefix(ruleset.recovery?.maxItems ?? 3).enumerated().map { index, item in
            RouteItemState(id: "route_item_\(index + 1)", routine: item.routine, requirement: item.requirement, baseline: 0, status: .notStarted)
        }
    }

    static func unitSuffix(_ unit: RoutineUnit?) -> String {
        switch unit {
        case .ml?: "ml"
        case .minutes?: "분"
        case .steps?: "보"
        case .count?: "개"
        case .check?, nil: ""
        }
    }
}

/// `7` → `007`, `1234` → `1234` (what `%03d` writes, without Foundation's formatter).
func threeDigits(_ value: Int) -> String {
    let text = String(value)
    return text.count >= 3 ? text : String(repeating: "0", count: 3 - text.count) + text
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
    /// The routines (indices) behind `steps.*`, `sleep.*` and `water.*`: the first HealthKit
    /// steps routine, the first sleep routine, the first water routine.
    let stepsRoutine, sleepRoutine, waterRoutine: Int?
    /// The fact slots a plan reads from an app run's facts (see `PlanMemo`), without and
    /// with per-routine candidates (only a user with reminders has any).
    let planReads: [Int]
    let planReadsWithRoutines: [Int]

    init(ruleset: Ruleset) {
        plannedRecoveryText = OperatorEngine.itemsText(OperatorEngine.plannedRecoveryItems(ruleset), ruleset: ruleset)
        var refused: [String: Int] = [:]
        var byLine: [LineKey: [Int]] = [:]
        for (index, template) in ruleset.templates.enumerated() {
            if refused[template.id] == nil, let segment = TemplateRenderer.refusedSegment(template, in: ruleset) { refused[template.id] = segment }
            byLine[LineKey(surface: template.surface, event: template.event), default: []].append(index)
        }
        refusedSegment = refused
        templatesByLine = byLine
        let schema = ruleset.perRoutineSchema
        lineReads = byLine.mapValues { indices in
            Array(Set(indices.flatMap { ruleset.templates[$0].factsRead }.compactMap { schema.fact(named: $0)?.slot })).sorted()
        }
        routineJudgement = ruleset.judgement?.routine ?? []
        stepsRoutine = ruleset.routines.firstIndex { $0.unit == .steps && $0.source == .healthkit }
        sleepRoutine = ruleset.routines.firstIndex { $0.category == .sleep }
        waterRoutine = ruleset.routines.firstIndex { $0.category == .water }
        planReads = RulesetDerived.planReads(ruleset, routines: false)
        planReadsWithRoutines = RulesetDerived.planReads(ruleset, routines: true)
    }
}

extension RulesetDerived {
    /// The slots of every fact a plan reads from the run's facts: what `at:` reads, and
    /// what is read at a candidate's fire time — `when:`, the risk and route tables, the
    /// notification texts — except `now` and `risk`, which are set anew there; with a
    /// per-routine type and `routines`, every `routines.*` fact (its bindings and the
    /// completed gate).
    static func planReads(_ ruleset: Ruleset, routines: Bool) -> [Int] {
        let schema = ruleset.perRoutineSchema
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
