import Foundation
import RulesEngine
import Ruleset

/// One scenario day's behaviour under the old ruleset against the new: the changes, each
/// said as a message and as its before and after.
struct DayComparison {
    typealias Change = BehaviourDiff.Change
    let scenario: String
    let day: Int
    var changes: [Change] = []

    init(scenario: String, day: Int) {
        self.scenario = scenario
        self.day = day
    }

    func clock(_ position: Int) -> String { BehaviourDiff.clock(position) }

    func times(_ positions: [Int]) -> String { positions.isEmpty ? "—" : positions.map { clock($0) }.joined(separator: ", ") }

    mutating func change(
        _ kind: String, _ subject: String, _ message: String, minutes: Int? = nil, delta: Int = 0, before: String = "—", after: String = "—"
    ) {
        var made = Change(scenario: scenario, day: day, kind: kind, message: message, minutes: minutes, delta: delta, subject: subject)
        made.before = before
        made.after = after
        changes.append(made)
    }

    /// Counts a type's deliveries: times only in the new run are gained, only in the old
    /// one lost; as many as both have are counted as moved.
    mutating func count(_ old: [Int], _ new: [Int], cause: String?) {
        guard var last = changes.popLast() else { return }
        var remaining = old
        var added = 0
        for time in new {
            if let index = remaining.firstIndex(of: time) { remaining.remove(at: index) } else { added += 1 }
        }
        let removed = remaining.count
        last.moved = Swift.min(added, removed)
        last.gained = added - last.moved
        last.lost = removed - last.moved
        last.cause = last.lost > 0 ? cause : nil
        changes.append(last)
    }

    /// Each notification type delivered at other times: gained, lost (with the gate that
    /// now refuses it) or moved.
    mutating func notifications(_ a: DayBehaviour, _ b: DayBehaviour) {
        for type in Set(a.deliveries.keys).union(b.deliveries.keys).sorted() {
            let old = a.deliveries[type] ?? []
            let new = b.deliveries[type] ?? []
            guard old != new else { continue }
            let gate = (b.suppressions[type] ?? []).first
            let why = gate.map { " (now \($0))" } ?? ""
            func side(_ positions: [Int]) -> String { positions.isEmpty ? "no \(type)" : "\(type) at " + times(positions) }
            let sides = (before: side(old), after: side(new) + (new.count < old.count ? why : ""))
            if new.count > old.count {
                change(
                    "notification", type,
                    "+\(new.count - old.count) \(type) at \(new.filter { !old.contains($0) }.map { clock($0) }.joined(separator: ", "))",
                    delta: new.count - old.count, before: sides.before, after: sides.after)
            } else if new.count < old.count {
                change(
                    "notification", type,
                    "−\(old.count - new.count) \(type): was at \(old.filter { !new.contains($0) }.map { clock($0) }.joined(separator: ", "))\(why)",
                    delta: new.count - old.count, before: sides.before, after: sides.after)
            } else {
                change(
                    "notification", type,
                    "\(type) moved from \(old.map { clock($0) }.joined(separator: ", ")) to \(new.map { clock($0) }.joined(separator: ", "))",
                    before: sides.before, after: sides.after)
            }
            count(old, new, cause: gate)
        }
        // The same deliveries, made passive (weakened) under one ruleset only.
        for type in Set(a.passive.keys).union(b.passive.keys).sorted() where a.deliveries[type] == b.deliveries[type] {
            let old = a.passive[type] ?? []
            let new = b.passive[type] ?? []
            guard old != new else { continue }
            let now = new.filter { !old.contains($0) }
            let before = old.filter { !new.contains($0) }
            let message =
                now.isEmpty
                ? "\(type) at \(times(before)) active, no longer passive" : "\(type) at \(times(now)) made passive (weakened: no sound)"
            change(
                "notification", type, message, before: old.isEmpty ? "\(type) active" : "\(type) passive at \(times(old))",
                after: new.isEmpty ? "\(type) active" : "\(type) passive at \(times(new))")
        }
    }

    /// A route entered or a risk level reached at another time, newly, or no longer:
    /// `named` in the message, `short` on the before and after sides.
    mutating func startMoved(_ kind: String, _ id: String, named: String, short: String, verb: String, _ old: Int?, _ new: Int?) {
        switch (old, new) {
        case (let old?, let new?) where old != new:
            let minutes = (new - old) / 60
            change(
                kind, id, "\(named) \(abs(minutes)) minutes \(minutes < 0 ? "earlier" : "later") (\(clock(old)) → \(clock(new)))",
                minutes: minutes, before: "\(short) from \(clock(old))", after: "\(short) from \(clock(new))")
        case (nil, let new?):
            change(kind, id, "\(named) now \(verb) at \(clock(new))", before: "\(short) not \(verb)", after: "\(short) from \(clock(new))")
        case (let old?, nil):
            change(
                kind, id, "\(named) no longer \(verb) (was \(clock(old)))", before: "\(short) from \(clock(old))", after: "\(short) not \(verb)")
        default: break
        }
    }

    /// Each route entered and risk level reached at another time, newly or no longer.
    mutating func starts(_ a: DayBehaviour, _ b: DayBehaviour) {
        for route in RouteKind.allCases {
            let name = route.rawValue
            startMoved("route", name, named: "\(name) route", short: name, verb: "entered", a.routeStarts[route], b.routeStarts[route])
        }
        for risk in RiskLevel.allCases {
            let name = risk.rawValue
            startMoved("risk", name, named: "risk \(name)", short: "risk \(name)", verb: "reached", a.riskStarts[risk], b.riskStarts[risk])
        }
    }

    /// The day's result and the streak after it.
    mutating func close(_ a: DayBehaviour, _ b: DayBehaviour) {
        if a.result != b.result {
            change(
                "day", "result", "day result \(a.result?.rawValue ?? "—") → \(b.result?.rawValue ?? "—")", before: a.result?.rawValue ?? "—",
                after: b.result?.rawValue ?? "—")
        }
        if a.streak != b.streak {
            change(
                "streak", "streak", "streak \(a.streak.map(String.init) ?? "—") → \(b.streak.map(String.init) ?? "—")",
                before: "streak \(a.streak.map(String.init) ?? "—")", after: "streak \(b.streak.map(String.init) ?? "—")")
        }
    }

    /// The texts each surface now says or no longer says.
    mutating func texts(_ a: DayBehaviour, _ b: DayBehaviour) {
        for surface in Set(a.texts.keys).union(b.texts.keys).sorted() {
            let gained = (b.texts[surface] ?? []).subtracting(a.texts[surface] ?? [])
            let lost = (a.texts[surface] ?? []).subtracting(b.texts[surface] ?? [])
            for text in gained.sorted() { change("text", surface, "\(surface) now says \"\(text)\"", after: text) }
            for text in lost.sorted() { change("text", surface, "\(surface) no longer says \"\(text)\"", before: text) }
        }
    }
}
