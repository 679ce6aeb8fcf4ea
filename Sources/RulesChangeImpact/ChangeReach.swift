import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// Whether the runs `rules diff` compared evaluated each changed element where its change
/// matters — the difference between "no behaviour changed" and "nothing could have seen it":
/// - a threshold moved from a to b is reached when some value of its fact seen at an app run
///   lies between a and b (the two comparisons disagree on it);
/// - a template is reached when it is rendered; a notification when one of its type is
///   delivered or refused by a gate;
/// - the quiet hours, the daily cap, the category cooldown and `weaken.after_ignored` when a
///   candidate was seen that the old and the new value answer differently (`PolicyReach`: a
///   time inside one window only, a day over the smaller cap, a gap between the two
///   cooldowns, an ignore count between the two); the other policy values when their gate
///   refused something;
/// - a table, judgement or notification condition that was rewritten, when the old and the
///   new condition answered differently on a set of facts a run observed (`ConditionReach`);
///   an entry whose result changed (or a new one), when it matched (a judgement entry: when
///   its status or result was given);
/// - a setting's default, when a notification or table entry that reads it was reached; the
///   light route's scale, when the light route was entered; a routine, when a scenario had it on.
/// Both runs (old and new ruleset) are observed; an element is reached if either run reached it.
package final class ChangeReach {
    package struct Element: Sendable {
        package var entry: RuleChanges.Entry
        package var reached: Bool
        /// For an unreached threshold: the nearest values seen on each side (`330`, `420`).
        package var nearestBelow: Value?
        package var nearestAbove: Value?

        /// `not reached: no value between 360 and 390 was seen (nearest 330 and 420)`.
        package var note: String {
            if reached { return "reached" }
            if let why = ChangeReach.unreachedNote(entry) { return "not reached: " + why }
            guard let move = entry.move else { return "not reached" }
            var note = "not reached: no \(move.fact) between \(move.old) and \(move.new) was seen"
            switch (nearestBelow, nearestAbove) {
            case (let below?, let above?): note += " (nearest \(below) and \(above))"
            case (let below?, nil): note += " (nearest \(below))"
            case (nil, let above?): note += " (nearest \(above))"
            default: note += " (no value at all)"
            }
            return note
        }
    }

    let entries: [RuleChanges.Entry]
    let old: Ruleset
    let new: Ruleset
    /// The rewritten conditions, by entry index.
    let conditions: [Int: ConditionReach]
    /// What the current run showed of the policy, judged when it ends.
    var policy = PolicyReach()
    var reached: [Bool]
    var below: [Value?]
    var above: [Value?]
    var clock: LocalClock?
    /// Per ruleset observed (by its content hash): the notifications and table entries that
    /// read each setting.
    var settingReaders: [String: [String: (notifications: Set<String>, entries: Set<String>)]] = [:]

    package init(_ changes: RuleChanges, old: Ruleset, new: Ruleset) {
        entries = changes.entries
        self.old = old
        self.new = new
        var conditions: [Int: ConditionReach] = [:]
        for (index, entry) in changes.entries.enumerated() {
            if let condition = ConditionReach(entry, old: old, new: new) { conditions[index] = condition }
        }
        self.conditions = conditions
        reached = Array(repeating: false, count: changes.entries.count)
        below = Array(repeating: nil, count: changes.entries.count)
        above = Array(repeating: nil, count: changes.entries.count)
    }

    package var elements: [Element] {
        entries.indices.map { Element(entry: entries[$0], reached: reached[$0], nearestBelow: below[$0], nearestAbove: above[$0]) }
    }

    package var unreached: [Element] { elements.filter { !$0.reached } }

    /// Starts observing a run of `scenario` (its clock reads delivery times for the quiet hours).
    package func begin(_ scenario: Scenario) {
        clock = scenario.clock
        policy = PolicyReach()
    }

    /// Ends a run: the policy values are judged on all its candidates.
    package func end() {
        for index in entries.indices where !reached[index] && entries[index].kind == "policy" {
            if policy.disagrees(on: entries[index].id, old: old.policy, new: new.policy) == true { reached[index] = true }
        }
        policy = PolicyReach()
    }

    /// What an unreached element's note says, when more than "not reached".
    static func unreachedNote(_ entry: RuleChanges.Entry) -> String? {
        switch (entry.kind, entry.id) {
        case ("policy", "quiet_hours"): return "no candidate fell inside one window and not the other"
        case ("policy", "max_per_day"): return "no day had more candidates than the smaller cap"
        case ("policy", "category_cooldown"): return "no candidate came between the two cooldowns after one of its category"
        case ("policy", "weaken_after_ignored"): return "no candidate came after an ignore count between the two"
        case ("policy", _): return "its gate refused nothing"
        default:
            return entry.conditionRewritten ? "the old and the new condition never answered differently on the facts seen" : nil
        }
    }

    /// Records what one step of a run reached.
    package func observe(_ engine: OperatorEngine, _ records: [EngineRecord]) {
        policy.observe(records, engine: engine, clock: clock)
        let seen = seen(engine, records)
        let schema = engine.ruleset.perRoutineSchema
        for index in entries.indices where !reached[index] { reach(index, seen, engine.ruleset, schema: schema) }
    }

    /// What one step showed: the notification types decided, the templates rendered, the
    /// gates that refused, the routes entered, the statuses and results given, the table entries
    /// matched, and the facts of the run.
    struct Seen {
        var decided = Set<String>()
        var rendered = Set<String>()
        var gates = Set<String>()
        var entered = Set<RouteKind>()
        var given = Set<String>()
        var matched = Set<String>()
        var statuses: [String: RoutineStatus] = [:]
        var facts: FactValues?
    }

    private func seen(_ engine: OperatorEngine, _ records: [EngineRecord]) -> Seen {
        var seen = Seen()
        for record in records {
            switch record.kind {
            case .timeZoneChanged(_, let to): if let next = LocalClock(identifier: to) { clock = next }
            case .notificationDelivered(let n, _):
                seen.decided.insert(n.type)
                seen.rendered.insert(n.templateID)
            case .notificationSuppressed(let s):
                seen.decided.insert(s.type)
                seen.gates.insert(s.reason.rawValue)
            case .notificationCancelled(_, .refused(let gate)): seen.gates.insert(gate.rawValue)
            case .templateRendered(let text): if let id = text.templateID { seen.rendered.insert(id) }
            case .routeChanged(_, let to, _): seen.entered.insert(to)
            case .dayClosed(let close):
                seen.given.insert("day:" + close.result.rawValue)
                for status in close.statuses.values { seen.given.insert("routine:" + status.rawValue) }
            default: break
            }
        }
        seen.statuses = engine.statuses()
        for status in seen.statuses.values { seen.given.insert("routine:" + status.rawValue) }
        for table in DecisionID.tables {
            if let explanation = engine.explanation(of: table), let index = explanation.entries.lastIndex(where: { $0.result == .matched }) {
                seen.matched.insert("\(table.name)[\(index)]")
            }
        }
        if engine.routeState?.route == .light { seen.entered.insert(.light) }
        seen.facts = engine.currentFacts()
        return seen
    }

    /// Whether what a step showed reaches the changed element at `index`.
    private func reach(_ index: Int, _ seen: Seen, _ ruleset: Ruleset, schema: FactSchema) {
        let entry = entries[index]
        switch entry.kind {
        case _ where entry.conditionRewritten:
            if let condition = conditions[index], let facts = seen.facts { reached[index] = condition.disagrees(on: facts, observed: ruleset) }
        case "threshold":
            guard let move = entry.move, let facts = seen.facts else { return }
            for value in RuleCoverage.values(of: move.fact, in: facts, schema: schema, ruleset: ruleset) {
                if move.separates(value, dayStart: ruleset.dayStartsAt) {
                    reached[index] = true
                } else {
                    nearest(index, value, move, dayStart: ruleset.dayStartsAt)
                }
            }
        case "notification": reached[index] = seen.decided.contains(entry.id)
        case "template": reached[index] = seen.rendered.contains(entry.id)
        case "policy":
            // The values `PolicyReach` judges are judged when the run ends.
            let gate = ["weaken_effect": "weakened", "cancel_when_completed": "completed"][entry.id] ?? entry.id
            if ["max_pending", "weaken_effect", "cancel_when_completed"].contains(entry.id) { reached[index] = seen.gates.contains(gate) }
        case "route", "risk":
            reached[index] = entryMatched(entry, kind: entry.kind, in: ruleset, matched: seen.matched)
        case "judgement":
            reached[index] = seen.given.contains(entry.subject + ":" + (entry.id.split(separator: " ").last.map(String.init) ?? ""))
        case "light": reached[index] = seen.entered.contains(.light)
        case "routine": reached[index] = seen.statuses[entry.id] != nil
        case "setting":
            let readers = settingReaders(ruleset)[entry.id]
            reached[index] =
                !(readers?.notifications.isDisjoint(with: seen.decided) ?? true) || !(readers?.entries.isDisjoint(with: seen.matched) ?? true)
        default: break
        }
    }

    /// Whether the entry at the changed entry's place in its table matched.
    func entryMatched(_ entry: RuleChanges.Entry, kind: String, in ruleset: Ruleset, matched: Set<String>) -> Bool {
        let index =
            kind == "route"
            ? ruleset.route.firstIndex { $0.origin == entry.origin } : ruleset.risk.firstIndex { $0.origin == entry.origin }
        guard let index else { return false }
        return matched.contains("\(kind)[\(index)]")
    }

    /// Keeps the values nearest the moved threshold on each side, for the note.
    func nearest(_ index: Int, _ value: Value, _ move: ThresholdMove, dayStart: Int) {
        func position(_ value: Value) -> Double? { Threshold.position(of: value, dayStart: dayStart) }
        guard let x = position(value), let a = position(move.old), let b = position(move.new) else { return }
        // The constants themselves count: 390 seen for `< 360 → 390` is the nearest above
        // (both comparisons answer it alike), as coverage and the editor say.
        if x <= Swift.min(a, b) {
            if below[index].flatMap(position).map({ x > $0 }) ?? true { below[index] = value }
        } else if x >= Swift.max(a, b) {
            if above[index].flatMap(position).map({ x < $0 }) ?? true { above[index] = value }
        }
    }

    /// The notifications and table entries (`route[0]`) that read each setting.
    func settingReaders(_ ruleset: Ruleset) -> [String: (notifications: Set<String>, entries: Set<String>)] {
        if let known = settingReaders[ruleset.sha256] { return known }
        var readers: [String: (notifications: Set<String>, entries: Set<String>)] = [:]
        func setting(_ fact: String) -> String? { fact.hasPrefix("settings.") ? String(fact.dropFirst(9)) : nil }
        for rule in ruleset.notifications {
            // A bool setting of a notification's own id turns it on and off.
            if ruleset.settings.declaration(rule.id)?.type == .bool { readers[rule.id, default: ([], [])].notifications.insert(rule.id) }
            for fact in (rule.when?.factsRead ?? []) + rule.at.factsRead {
                if let key = setting(fact) { readers[key, default: ([], [])].notifications.insert(rule.id) }
            }
        }
        for (table, list) in [("route", ruleset.route.map(\.when)), ("risk", ruleset.risk.map(\.when))] {
            for (index, when) in list.enumerated() {
                for fact in when.factsRead { if let key = setting(fact) { readers[key, default: ([], [])].entries.insert("\(table)[\(index)]") } }
            }
        }
        settingReaders[ruleset.sha256] = readers
        return readers
    }
}
