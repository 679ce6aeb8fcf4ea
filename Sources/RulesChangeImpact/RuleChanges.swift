import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// A comparison with a constant whose constant moved between two rulesets
/// (`sleep.minutes < 360` → `< 390`); nothing else of its condition changed.
package struct ThresholdMove: Sendable, Hashable {
    package var fact: String
    package var op: BinaryOperator
    package var old: Value
    package var new: Value
    package var fallback: Value?

    /// The comparison under each ruleset.
    package var thresholds: (old: Threshold, new: Threshold) {
        let range = TextRange(0, 0)
        return (
            Threshold(fact: fact, op: op, constant: old, fallback: fallback, range: range),
            Threshold(fact: fact, op: op, constant: new, fallback: fallback, range: range)
        )
    }

    /// Whether the two rulesets disagree on `value`: it lies between the old and the new
    /// constant (`375` for `< 360` → `< 390`). Unknown takes the `??` default.
    package func separates(_ value: Value, dayStart: Int) -> Bool {
        var value = value
        if value.isUnknown, let fallback { value = fallback }
        let (a, b) = thresholds
        guard let before = a.holds(for: value, dayStart: dayStart), let after = b.holds(for: value, dayStart: dayStart) else { return false }
        return before != after
    }

    /// `sleep.minutes < 360 → 390`.
    package var text: String { "\(fact) \(op.rawValue) \(old) → \(new)" }
}

/// How a condition differs between two rulesets.
enum ConditionChange {
    case same
    /// Only constants of comparisons moved.
    case moved([ThresholdMove])
    case rewritten

    init(_ old: CompiledExpression?, _ new: CompiledExpression?) {
        guard let old, let new else {
            self = old?.source == new?.source ? .same : .rewritten
            return
        }
        guard old.source != new.source else {
            self = .same
            return
        }
        let a = Threshold.extract(from: old.typed)
        let b = Threshold.extract(from: new.typed)
        guard a.count == b.count, ConditionChange.shape(old.source, a) == ConditionChange.shape(new.source, b) else {
            self = .rewritten
            return
        }
        var moves: [ThresholdMove] = []
        for (x, y) in zip(a, b) {
            guard x.fact == y.fact, x.op == y.op, x.fallback == y.fallback else {
                self = .rewritten
                return
            }
            if x.constant != y.constant {
                moves.append(ThresholdMove(fact: x.fact, op: x.op, old: x.constant, new: y.constant, fallback: x.fallback))
            }
        }
        self = moves.isEmpty ? .rewritten : .moved(moves)
    }

    /// The condition's text with every comparison with a constant cut out: two conditions
    /// of one shape differ only in those comparisons.
    static func shape(_ source: String, _ thresholds: [Threshold]) -> [String] {
        let scalars = Array(source.unicodeScalars)
        var pieces: [String] = []
        var at = 0
        for range in thresholds.map(\.range).sorted(by: { $0.start < $1.start }) {
            let start = Swift.max(at, Swift.min(range.start, scalars.count))
            pieces.append(String(String.UnicodeScalarView(scalars[at..<start])))
            at = Swift.max(start, Swift.min(range.end, scalars.count))
        }
        pieces.append(String(String.UnicodeScalarView(scalars[at...])))
        return pieces.map { $0.filter { !$0.isWhitespace } }
    }
}

/// The entries that differ between two rulesets, each with where the new one is written:
/// what `rules diff` lists as changed and names as the cause of a behaviour change
/// ("evening_underachievement changed at rules/notifications.yaml:19"). Entries are compared
/// by meaning (ids, times, conditions as written, texts), not by line: a comment added above
/// moves no entry. A condition whose only change is the constant of a comparison is a
/// `threshold` entry of its own (`sleep.minutes < 360 → 390`), so that what the change can
/// reach is known exactly; the policy is an entry per value.
package struct RuleChanges: Sendable {
    package struct Entry: Sendable, Hashable {
        /// `notification`, `template`, `policy`, `route`, `risk`, `judgement`, `light`,
        /// `setting`, `routine`, `threshold`.
        package var kind: String
        package var id: String
        package var origin: Origin
        /// What the entry is about: a notification type, a surface, a route, a risk level.
        package var subject: String
        /// For a threshold: the kind and id of the entry whose condition holds it.
        package var site: String? = nil
        package var siteID: String? = nil
        /// For a threshold: the comparison that moved.
        package var move: ThresholdMove? = nil
        /// For a policy value: before and after (`3 → 2`).
        package var values: String? = nil
        /// For a table or judgement entry: its position in its table (0-based).
        package var position: Int? = nil
        /// Whether its condition was rewritten (not only a constant moved) and the old ruleset
        /// had one at its place: then it is reached where the two conditions disagree.
        package var conditionRewritten = false

        /// `notification 'x' (rules/notifications.yaml:19)`,
        /// `threshold 'sleep.minutes < 360 → 390' in route 'short_sleep' (rules/route.yaml:18)`.
        package var label: String {
            let place = origin.file.isEmpty ? "" : " (\(origin.file):\(origin.location.line))"
            let within = site.map { " in \($0) '\(siteID ?? "")'" } ?? ""
            let change = values.map { " \($0)" } ?? ""
            return "\(kind) '\(id)'\(change)\(within)\(place)"
        }

        /// Whether the entry is of `kind`, or a threshold inside an entry of that kind.
        package func isAbout(_ kind: String) -> Bool { self.kind == kind || site == kind }
    }

    package var entries: [Entry]

    package init(old: Ruleset, new: Ruleset) {
        var changes = Changes()
        changes.notifications(old, new)
        changes.templates(old, new)
        changes.policy(old.policy, new.policy)
        // Tables: an entry changed when the entry at its position (or its condition) differs.
        changes.table(
            "route", old.route, new.route, id: { _, entry in entry.reason }, subject: \.route.rawValue,
            fields: { "\($0.route.rawValue) \($0.reason)" })
        changes.table("risk", old.risk, new.risk, id: { _, entry in entry.level.rawValue }, subject: \.level.rawValue, fields: \.level.rawValue)
        changes.table(
            "judgement", old.judgement?.routine ?? [], new.judgement?.routine ?? [], id: { "routine[\($0 + 1)] \($1.status.rawValue)" },
            subject: { _ in "routine" }, fields: \.status.rawValue)
        changes.table(
            "judgement", old.judgement?.day ?? [], new.judgement?.day ?? [], id: { "day[\($0 + 1)] \($1.result.rawValue)" },
            subject: { _ in "day" }, fields: \.result.rawValue)
        changes.others(old, new)
        entries = changes.entries
    }

    /// The entries of a comparison in the making.
    private struct Changes {
        var entries: [Entry] = []

        /// A changed entry whose fields other than its condition are `before` and `after`:
        /// listed when those differ or the condition was rewritten; each moved threshold is
        /// an entry of its own.
        mutating func compare(
            kind: String, id: String, subject: String, origin: Origin, whenOrigin: Origin?,
            conditions: (CompiledExpression?, CompiledExpression?), fields: (String?, String), position: Int? = nil
        ) {
            let condition = fields.0 == nil ? ConditionChange.rewritten : ConditionChange(conditions.0, conditions.1)
            var rewritten = false
            switch condition {
            case .same: break
            case .rewritten: rewritten = true
            case .moved(let moves):
                for move in moves {
                    entries.append(
                        Entry(
                            kind: "threshold", id: move.text, origin: whenOrigin ?? origin, subject: subject, site: kind, siteID: id, move: move))
                }
            }
            if rewritten || fields.0 != fields.1 {
                var entry = Entry(kind: kind, id: id, origin: origin, subject: subject, position: position)
                // Only a condition that was there before and reads differently now: a new
                // entry, or one whose result changed too, is reached where it matched.
                entry.conditionRewritten = rewritten && fields.0 == fields.1 && conditions.0 != nil && conditions.1 != nil
                entries.append(entry)
            }
        }

        /// Notification types: each of the new ruleset against the old one of its id.
        mutating func notifications(_ old: Ruleset, _ new: Ruleset) {
            byID("notification", old.notifications, new.notifications, subject: \.id) { rule in
                [
                    rule.category, rule.at.source, rule.template, rule.title ?? "", rule.deepLink ?? "",
                    rule.actions.map(\.rawValue).joined(separator: ","), String(rule.priority), rule.inQuietHours.rawValue,
                    String(rule.expiresAfter ?? -1), rule.interruptionLevel.rawValue, String(rule.perRoutine),
                ].joined(separator: "\u{1}")
            }
        }

        /// Templates: each of the new ruleset against the old one of its id.
        mutating func templates(_ old: Ruleset, _ new: Ruleset) {
            byID("template", old.templates, new.templates, subject: \.surface) { template in
                [template.surface, template.event ?? "", template.tone ?? "", template.source].joined(separator: "\u{1}")
            }
        }

        /// Each element of `new` against the one of its id in `old`: its condition and the
        /// fields `key` writes out.
        mutating func byID<Element: IdentifiedRule>(
            _ kind: String, _ old: [Element], _ new: [Element], subject: (Element) -> String, key: (Element) -> String
        ) {
            let before = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for element in new {
                let earlier = before[element.id]
                compare(
                    kind: kind, id: element.id, subject: subject(element), origin: element.origin, whenOrigin: element.whenOrigin,
                    conditions: (earlier?.when, element.when), fields: (earlier.map(key), key(element)))
            }
        }

        /// The policy, one entry per value changed.
        mutating func policy(_ a: NotificationPolicy, _ b: NotificationPolicy) {
            func quiet(_ policy: NotificationPolicy) -> String {
                policy.quietHours.map { "\(TimeFormat.clock($0.start))-\(TimeFormat.clock($0.end))" } ?? "none"
            }
            let values: [(String, String, String)] = [
                ("max_per_day", String(a.maxPerDay), String(b.maxPerDay)),
                ("category_cooldown", TimeFormat.duration(a.categoryCooldown), TimeFormat.duration(b.categoryCooldown)),
                ("quiet_hours", quiet(a), quiet(b)),
                ("weaken_after_ignored", String(a.weakenAfterIgnored), String(b.weakenAfterIgnored)),
                ("weaken_effect", "\(a.weakenEffect)", "\(b.weakenEffect)"),
                ("cancel_when_completed", String(a.cancelWhenCompleted), String(b.cancelWhenCompleted)),
                ("max_pending", String(a.maxPending), String(b.maxPending)),
            ]
            for (name, before, after) in values where before != after {
                entries.append(Entry(kind: "policy", id: name, origin: b.origin, subject: "policy", values: "\(before) → \(after)"))
            }
        }

        /// A decision table compared position by position: the entry at each position of
        /// the new table against the old one there.
        mutating func table<Row: TableRow>(
            _ kind: String, _ old: [Row], _ new: [Row], id: (Int, Row) -> String, subject: (Row) -> String, fields: (Row) -> String
        ) {
            for (index, entry) in new.enumerated() {
                let before = index < old.count ? old[index] : nil
                compare(
                    kind: kind, id: id(index, entry), subject: subject(entry), origin: entry.origin, whenOrigin: entry.whenOrigin,
                    conditions: (before?.when, entry.when), fields: (before.map(fields), fields(entry)), position: index)
            }
        }

        /// Routines, the light scale and settings.
        mutating func others(_ old: Ruleset, _ new: Ruleset) {
            // Routines: any field of one of the same id (or a new one).
            func routineKey(_ routine: Routine) -> String {
                [
                    routine.name, routine.category.rawValue, routine.source.rawValue, routine.unit.rawValue, Value.formatNumber(routine.goal),
                    routine.quickLog.map(Value.formatNumber).joined(separator: ","), String(routine.core), String(routine.defaultEnabled),
                    String(routine.sensitive), routine.items.joined(separator: ","), routine.lightGoal.map(Value.formatNumber) ?? "",
                ].joined(separator: "\u{1}")
            }
            let oldRoutines = Dictionary(old.routines.map { ($0.id, routineKey($0)) }, uniquingKeysWith: { a, _ in a })
            for routine in new.routines where oldRoutines[routine.id] != routineKey(routine) {
                entries.append(Entry(kind: "routine", id: routine.id, origin: routine.origin, subject: routine.id))
            }
            if old.light?.scale != new.light?.scale, let light = new.light {
                entries.append(Entry(kind: "light", id: "light", origin: light.origin, subject: RouteKind.light.rawValue))
            }
            let oldSettings = Dictionary(old.settings.map { ($0.key, $0.defaultValue.description) }, uniquingKeysWith: { a, _ in a })
            for setting in new.settings where oldSettings[setting.key] != setting.defaultValue.description {
                entries.append(
                    Entry(kind: "setting", id: setting.key, origin: setting.origin, subject: setting.key))
            }
        }
    }

    /// Whether facts `read` depend on a routine: its own facts, or the day's totals it counts in.
    static func reads(_ read: Set<String>, routine id: String) -> Bool {
        read.contains { fact in fact.hasPrefix("routines.\(id).") || ["completion_rate", "completed", "total"].contains(fact) }
    }

    /// The changed entries that can explain a change of `kind` about `subject` (a
    /// notification type, a route, a risk level, a surface), most direct first. A changed
    /// setting is named only where the decision reads it: a notification's own toggle or a
    /// setting its `when` or `at` reads; for routes, risk and texts, a setting the tables read.
    /// A changed routine is named for a notification only when the scenario had it on
    /// (`routinesOn`; nil: every routine on by default): a routine nobody had cannot have moved
    /// `completion_rate`.
    package func causes(kind: String, subject: String, ruleset: Ruleset, routinesOn: Set<String>? = nil) -> [Entry] {
        let on = routinesOn ?? Set(ruleset.routines.filter(\.defaultEnabled).map(\.id))
        let tables = Set(ruleset.route.flatMap(\.when.factsRead) + ruleset.risk.flatMap(\.when.factsRead))
        func readByTables(_ entry: Entry) -> Bool { entry.kind == "setting" && tables.contains("settings." + entry.id) }
        switch kind {
        case "notification":
            let rule = ruleset.notification(subject)
            let read = Set((rule?.when?.factsRead ?? []) + (rule?.at.factsRead ?? []))
            let direct = entries.filter {
                ($0.isAbout("notification") && ($0.siteID ?? $0.id) == subject) || ($0.isAbout("template") && ($0.siteID ?? $0.id) == rule?.template)
                    || $0.kind == "policy" || ($0.kind == "setting" && ($0.id == subject || read.contains("settings." + $0.id)))
                    || ($0.kind == "routine" && on.contains($0.id) && Self.reads(read, routine: $0.id))
            }
            if !direct.isEmpty { return direct }
            // Another notification changed: they share the cap and the cooldowns.
            let others = entries.filter { $0.isAbout("notification") }
            if !others.isEmpty { return others }
            // A notification whose condition reads the route or risk moves with the tables.
            return entries.filter { $0.isAbout("route") || $0.isAbout("risk") || $0.kind == "light" || readByTables($0) }
        case "route":
            let direct = entries.filter { ($0.isAbout("route") && $0.subject == subject) || $0.kind == "light" }
            return direct.isEmpty ? entries.filter { $0.isAbout("route") || $0.isAbout("risk") || readByTables($0) } : direct
        case "risk":
            return entries.filter { $0.isAbout("risk") || readByTables($0) }
        case "text":
            // A line changes with its template, or with the route or risk that chooses it.
            let direct = entries.filter { $0.isAbout("template") && $0.subject == subject }
            return direct.isEmpty ? entries.filter { $0.isAbout("route") || $0.isAbout("risk") || $0.kind == "light" || readByTables($0) } : direct
        default:
            return entries.filter {
                $0.isAbout("route") || $0.isAbout("risk") || $0.isAbout("judgement") || ["light", "routine"].contains($0.kind) || readByTables($0)
            }
        }
    }
}

/// A row of a decision table: its condition and where it and the row are written.
protocol TableRow {
    var when: CompiledExpression { get }
    var origin: Origin { get }
    var whenOrigin: Origin { get }
}

extension RouteEntry: TableRow {}
extension RiskEntry: TableRow {}
extension RoutineJudgementEntry: TableRow {}
extension DayJudgementEntry: TableRow {}

/// A rule compared by its id: a notification type or a template.
protocol IdentifiedRule {
    var id: String { get }
    var when: CompiledExpression? { get }
    var origin: Origin { get }
    var whenOrigin: Origin? { get }
}

extension NotificationRule: IdentifiedRule {}
extension Template: IdentifiedRule {}
