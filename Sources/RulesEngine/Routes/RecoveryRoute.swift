import Foundation
import RulesExpression
import Ruleset

/// The recovery route (SPEC §5.3): its items, counted only after the route started, the
/// walking quest of a `delta` item, and the items' texts.
///
/// A part with its own inputs (the ruleset's `recovery:`, the user's enabled routines, the
/// texts worked out once per ruleset; the day) and outputs (the items and quest it starts,
/// what changed and which items were done): it appends nothing to the engine, which
/// records what it returns.
struct RecoveryRoute {
    let prepared: PreparedRuleset
    /// The routines the user has enabled (an item of another routine is left out).
    let enabled: Set<String>

    var ruleset: Ruleset { prepared.ruleset }

    /// Recovery items at the route's start: items of routines not enabled, `delta` items
    /// without steps permission, and checklist items already ticked are left out (each in
    /// `leftOut`, with why); at most `max_items`.
    func startItems(_ day: DayState, leftOut: inout [RouteItemLeftOut]) -> [RouteItemState] {
        guard let recovery = ruleset.recovery else { return [] }
        var items: [RouteItemState] = []
        for item in recovery.items where items.count < recovery.maxItems {
            guard enabled.contains(item.routine) else {
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
        var ignored: [RouteItemLeftOut] = []
        return startItems(day, leftOut: &ignored).compactMap { item -> WalkingQuest? in
            if case .delta(let delta) = item.requirement { return WalkingQuest(startSteps: steps, targetDelta: delta, currentSteps: steps) }
            return nil
        }.first
    }

    /// What an update of the route's items found: whether an item's status or the quest
    /// changed, and the items done by it (in order).
    struct Update {
        var changed = false
        var done: [RouteItemState] = []
    }

    /// Route items count only what happens after the route started.
    func updateItems(_ day: inout DayState) -> Update {
        var update = Update()
        guard day.route.startedAt != nil else { return update }
        if var quest = day.quest, let steps = day.health?.stepsToday, quest.currentSteps != steps {
            quest.currentSteps = steps
            day.quest = quest
            update.changed = true
        }
        for index in day.route.items.indices {
            let item = day.route.items[index]
            let status: RoutineStatus
            switch item.requirement {
            case .target(let amount):
                let logged = day.logged(item.routine, after: day.route.logsBefore)
                status = logged >= amount ? .completed : logged > 0 ? .inProgress : .notStarted
            case .item(let name):
                // An item already ticked when the route started is not among its items (the
                // starting run's own tick included), so any tick of it now came in a later run —
                // in the same minute as the start, or under a clock set back — and counts.
                status = day.ticks.contains { $0.routine == item.routine && $0.item == name } ? .completed : .notStarted
            case .delta(let delta):
                let steps = day.health?.stepsToday ?? item.baseline
                status = steps - item.baseline >= delta ? .completed : steps > item.baseline ? .inProgress : .notStarted
            }
            if status != item.status {
                day.route.items[index].status = status
                update.changed = true
                if status == .completed { update.done.append(day.route.items[index]) }
            }
        }
        return update
    }

    /// Whether every recovery item is done (false without items).
    static func completed(_ day: DayState) -> Bool {
        !day.route.items.isEmpty && day.route.items.allSatisfy { $0.status == .completed }
    }

    /// The texts of the day's route items: as kept with the day while its items are the
    /// ones they were made from (see `keepTexts`), else made now.
    static func texts(_ day: DayState, _ prepared: PreparedRuleset) -> RouteTexts {
        if let kept = day.routeTexts, kept.from == day.route.items { return kept }
        return RouteTexts.made(day.route.items, known: prepared.derived.recoveryItemTexts, ruleset: prepared.ruleset)
    }

    /// Keeps the texts of the day's route items with the day, so that readings until the
    /// items next change do not join them again.
    static func keepTexts(_ day: inout DayState, _ prepared: PreparedRuleset) {
        guard !day.route.items.isEmpty, day.routeTexts?.from != day.route.items else { return }
        day.routeTexts = RouteTexts.made(day.route.items, known: prepared.derived.recoveryItemTexts, ruleset: prepared.ruleset)
    }
}

/// The texts of recovery items: `물 300ml, 양치, 300보`.
enum RecoveryTexts {
    static func itemsText(_ items: [RouteItemState], ruleset: Ruleset) -> String {
        items.map { itemText(routine: $0.routine, $0.requirement, ruleset: ruleset) }.joined(separator: ", ")
    }

    /// The items' text with the declared items' texts worked out once (`known`).
    static func itemsText(_ items: [RouteItemState], known: [RecoveryItemText], ruleset: Ruleset) -> String {
        items.map { item in
            known.first { $0.routine == item.routine && $0.requirement == item.requirement }?.text
                ?? itemText(routine: item.routine, item.requirement, ruleset: ruleset)
        }.joined(separator: ", ")
    }

    /// One item's text: `물 300ml`, `양치`, `300보`.
    static func itemText(routine id: String, _ requirement: RecoveryItem.Requirement, ruleset: Ruleset) -> String {
        switch requirement {
        case .target(let amount):
            let routine = ruleset.routine(id)
            return "\(routine?.name ?? id) \(Value.formatNumber(amount))\(unitSuffix(routine?.unit))"
        case .item(let name):
            return name
        case .delta(let steps):
            return "\(steps)보"
        }
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

/// The texts of a day's route items (`recovery.items_text`, `recovery.remaining_text`)
/// and the items they were made from.
struct RouteTexts: Sendable, Hashable {
    var from: [RouteItemState]
    var items: String
    var remaining: String

    /// Made by a function, not an initializer: an initializer takes its arguments owned, so
    /// passing the prepared ruleset's `ruleset` copied all of it (~40 references retained)
    /// to be destroyed inside.
    static func made(_ items: [RouteItemState], known: [RecoveryItemText], ruleset: Ruleset) -> RouteTexts {
        RouteTexts(
            from: items, items: RecoveryTexts.itemsText(items, known: known, ruleset: ruleset),
            remaining: items.isEmpty
                ? "" : RecoveryTexts.itemsText(items.filter { $0.status != .completed }, known: known, ruleset: ruleset))
    }
}

extension String {
    /// `a`, `separator` and `b` written into one buffer (three appends each grew the string).
    static func joined(_ a: String, _ separator: StaticString, _ b: String) -> String {
        var a = a
        var b = b
        return a.withUTF8 { first in
            b.withUTF8 { second in
                let middle = UnsafeBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount)
                return String(unsafeUninitializedCapacity: first.count + middle.count + second.count) { buffer in
                    var index = 0
                    func copy(_ part: UnsafeBufferPointer<UInt8>) {
                        for byte in part where index < buffer.count {
                            buffer[index] = byte
                            index += 1
                        }
                    }
                    copy(first)
                    copy(middle)
                    copy(second)
                    return index
                }
            }
        }
    }
}

/// `7` → `007`, `1234` → `1234` (what `%03d` writes, without Foundation's formatter).
func threeDigits(_ value: Int) -> String {
    guard (0...999).contains(value) else { return String(value) }
    return String(unsafeUninitializedCapacity: 3) { buffer in
        guard buffer.count >= 3 else { return 0 }
        buffer[0] = UInt8(48 + value / 100)
        buffer[1] = UInt8(48 + value / 10 % 10)
        buffer[2] = UInt8(48 + value % 10)
        return 3
    }
}
