import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// Rule coverage (`rules test --coverage`): which decision-table entries, notification
/// gates, templates and tools the scenarios exercised, and for each numeric threshold in a
/// condition whether the scenarios sat on both sides of it.
package final class RuleCoverage {
    package struct Item: Sendable {
        package var category: String
        package var label: String
        package var origin: Origin?
        package var covered: Bool
        /// For thresholds: what is missing (`never where it fails`).
        package var missing: String?
        /// For thresholds: the values seen nearest the constant where it holds and where it fails.
        package var nearestHolding: Value? = nil
        package var nearestFailing: Value? = nil
    }

    let ruleset: Ruleset
    var entries: [String: Set<Int>] = [:]
    var gates: Set<String> = []
    var templates: Set<String> = []
    var tools: Set<String> = []
    var statuses: Set<RoutineStatus> = []
    /// Per threshold key: the values seen nearest the constant where it holds and where it fails.
    var sides: [String: NearestSides] = [:]
    let thresholds: [(key: String, where: String, threshold: Threshold, origin: Origin)]

    package init(ruleset: Ruleset) {
        self.ruleset = ruleset
        var found: [(String, String, Threshold, Origin)] = []
        func add(_ expression: CompiledExpression?, _ label: String, _ origin: Origin?) {
            guard let expression else { return }
            for threshold in Threshold.extract(from: expression.typed) {
                let key = "\(label): \(threshold.fact) \(threshold.op.rawValue) \(threshold.constant)"
                found.append((key, label, threshold, origin ?? .unknown))
            }
        }
        for (index, entry) in ruleset.risk.enumerated() { add(entry.when, "risk[\(index + 1)] \(entry.level.rawValue)", entry.whenOrigin) }
        for (index, entry) in ruleset.route.enumerated() { add(entry.when, "route[\(index + 1)] \(entry.route.rawValue)", entry.whenOrigin) }
        for (index, entry) in (ruleset.judgement?.routine ?? []).enumerated() {
            add(entry.when, "judgement.routine[\(index + 1)] \(entry.status.rawValue)", entry.whenOrigin)
        }
        for (index, entry) in (ruleset.judgement?.day ?? []).enumerated() {
            add(entry.when, "judgement.day[\(index + 1)] \(entry.result.rawValue)", entry.whenOrigin)
        }
        for rule in ruleset.notifications { add(rule.when, "notification \(rule.id)", rule.whenOrigin) }
        for template in ruleset.templates { add(template.when, "template \(template.id)", template.whenOrigin) }
        var seen = Set<String>()
        thresholds = found.filter { seen.insert($0.0).inserted }.map { (key: $0.0, where: $0.1, threshold: $0.2, origin: $0.3) }
    }

    /// Records what one step of a simulation exercised.
    package func observe(_ engine: OperatorEngine, _ records: [EngineRecord]) {
        for table in DecisionID.tables {
            if let explanation = engine.explanation(of: table), let index = explanation.entries.lastIndex(where: { $0.result == .matched }) {
                entries[table.name, default: []].insert(index)
            }
        }
        for record in records {
            switch record.kind {
            case .notificationSuppressed(let s): gates.insert(s.reason.rawValue)
            case .notificationDelivered(let n, _):
                gates.insert("delivered")
                templates.insert(n.templateID)
            case .templateRendered(let text): if let id = text.templateID { templates.insert(id) }
            case .toolVerdict(let verdict, _): if let tool = verdict.tool, verdict.outcome == .accepted { tools.insert(tool) }
            case .dayClosed(let close): statuses.formUnion(close.statuses.values)
            default: break
            }
        }
        guard let facts = engine.currentFacts() else { return }
        let schema = ruleset.perRoutineSchema
        for item in thresholds {
            for value in Self.values(of: item.threshold.fact, in: facts, schema: schema, ruleset: ruleset) {
                sides[item.key, default: NearestSides()].see(value, item.threshold, dayStart: ruleset.dayStartsAt)
            }
        }
        statuses.formUnion(engine.statuses().values)
    }

    /// The values a condition's `fact` has in `facts`: a per-routine binding (`progress`,
    /// `routine.value`) stands for each routine's own fact.
    package static func values(of fact: String, in facts: FactValues, schema: FactSchema, ruleset: Ruleset) -> [Value] {
        let field = ["progress", "value", "goal"].contains(fact) ? fact : fact.hasPrefix("routine.") ? String(fact.dropFirst(8)) : nil
        guard let field else { return schema.fact(named: fact).map { [facts[$0.slot]] } ?? [] }
        return ruleset.routines.compactMap { routine in schema.fact(named: "routines.\(routine.id).\(field)").map { facts[$0.slot] } }
    }

    /// A threshold's covered state and what is missing: values seen close to the constant
    /// (`Threshold.closeness`) on both sides.
    func thresholdState(_ item: (key: String, where: String, threshold: Threshold, origin: Origin)) -> (covered: Bool, missing: String?) {
        let seen = sides[item.key] ?? NearestSides()
        let near = item.threshold.closeness
        var missing: [String] = []
        for (side, value) in [("holds", seen.holds), ("fails", seen.fails)] {
            guard let value else {
                missing.append("never where it \(side == "holds" ? "holds" : "fails")")
                continue
            }
            if (item.threshold.distance(to: value, dayStart: ruleset.dayStartsAt) ?? .infinity) > near {
                missing.append(
                    "nearest where it \(side) is \(Self.shown(value)), not within \(Self.closenessText(item.threshold)) of \(item.threshold.constant)"
                )
            }
        }
        return (missing.isEmpty, missing.isEmpty ? nil : missing.joined(separator: ", "))
    }

    /// A value as the coverage report shows it: fractions to three decimals (`0.667`).
    static func shown(_ value: Value) -> String {
        guard case .number(let number) = value, number.isFinite else { return value.description }
        return Value.formatNumber((number * 1000).rounded() / 1000)
    }

    /// `18`, `0.1`, `30 minutes`.
    static func closenessText(_ threshold: Threshold) -> String {
        if case .time = threshold.constant { return "30 minutes" }
        return Value.formatNumber(threshold.closeness)
    }

    static let gateNames = ["disabled", "condition_false", "completed", "quiet_hours", "daily_cap", "category_cooldown", "weakened", "stale"]

    /// Every item with whether it was covered.
    package var items: [Item] {
        var items: [Item] = []
        for (index, entry) in ruleset.risk.enumerated() {
            items.append(
                Item(
                    category: "tables", label: "risk[\(index + 1)] \(entry.level.rawValue)", origin: entry.origin,
                    covered: entries["risk"]?.contains(index) == true))
        }
        for (index, entry) in ruleset.route.enumerated() {
            items.append(
                Item(
                    category: "tables", label: "route[\(index + 1)] \(entry.route.rawValue)", origin: entry.origin,
                    covered: entries["route"]?.contains(index) == true))
        }
        for (index, entry) in (ruleset.judgement?.routine ?? []).enumerated() {
            items.append(
                Item(
                    category: "tables", label: "judgement.routine[\(index + 1)] \(entry.status.rawValue)", origin: entry.origin,
                    covered: statuses.contains(entry.status)))
        }
        for (index, entry) in (ruleset.judgement?.day ?? []).enumerated() {
            items.append(
                Item(
                    category: "tables", label: "judgement.day[\(index + 1)] \(entry.result.rawValue)", origin: entry.origin,
                    covered: entries["day"]?.contains(index) == true))
        }
        for gate in Self.gateNames {
            items.append(Item(category: "gates", label: gate, origin: nil, covered: gates.contains(gate)))
        }
        for template in ruleset.templates {
            items.append(Item(category: "templates", label: template.id, origin: template.origin, covered: templates.contains(template.id)))
        }
        for tool in ruleset.tools {
            items.append(Item(category: "tools", label: tool.name, origin: tool.origin, covered: tools.contains(tool.name)))
        }
        for item in thresholds {
            let state = thresholdState(item)
            let seen = sides[item.key] ?? NearestSides()
            items.append(
                Item(
                    category: "thresholds", label: item.key, origin: item.origin, covered: state.covered, missing: state.missing,
                    nearestHolding: seen.holds, nearestFailing: seen.fails))
        }
        return items
    }

    package var percent: Double {
        let all = items
        return all.isEmpty ? 100 : 100 * Double(all.count { $0.covered }) / Double(all.count)
    }

    package func text() -> String {
        let all = items
        var out = "coverage:\n"
        for category in ["tables", "gates", "templates", "tools", "thresholds"] {
            let inCategory = all.filter { $0.category == category }
            guard !inCategory.isEmpty else { continue }
            let covered = inCategory.count { $0.covered }
            out +=
                "  \(category.padding(toLength: 11, withPad: " ", startingAt: 0)) \(covered)/\(inCategory.count) (\(Int((100 * Double(covered) / Double(inCategory.count)).rounded()))%)\n"
        }
        out += "  total       \(all.count { $0.covered })/\(all.count) (\(String(format: "%.1f", percent))%)\n"
        if !thresholds.isEmpty {
            out +=
                "thresholds (covered when values within 5 % of the constant were seen on both sides: at least 1, 0.1 for fractions, 30 minutes for times):\n"
            for item in thresholds {
                let seen = sides[item.key] ?? NearestSides()
                out +=
                    "  \(item.key): nearest \(seen.holds.map(Self.shown) ?? "—") where it holds, \(seen.fails.map(Self.shown) ?? "—") where it fails\n"
            }
        }
        let uncovered = all.filter { !$0.covered }
        if !uncovered.isEmpty {
            out += "not covered:\n"
            for item in uncovered {
                let place = item.origin.map { "\($0.file):\($0.location.line)" } ?? ""
                out += "  \(item.category): \(item.label)\(item.missing.map { " — \($0)" } ?? "")\(place.isEmpty ? "" : "  \(place)")\n"
            }
        }
        return out
    }

    package func json() -> JSONValue {
        .object([
            ("percent", .number((percent * 10).rounded() / 10)),
            (
                "items",
                .array(
                    items.map { item in
                        .object([
                            ("category", .string(item.category)), ("label", .string(item.label)), ("covered", .bool(item.covered)),
                            ("missing", .optional(item.missing)),
                            ("nearest_holding", .optional(item.nearestHolding.map(Self.shown))),
                            ("nearest_failing", .optional(item.nearestFailing.map(Self.shown))),
                            ("file", .optional(item.origin?.file)), ("line", .optional(item.origin?.location.line)),
                        ])
                    })
            ),
        ])
    }
}

/// The values seen nearest a threshold's constant where it holds and where it fails: what
/// coverage and the editor's threshold hover report.
struct NearestSides: Sendable {
    private(set) var holds: Value?
    private(set) var fails: Value?
    private var holdsDistance = Double.infinity
    private var failsDistance = Double.infinity

    /// Sees `value` (unknown reads as the comparison's `??` default): whether the threshold
    /// holds for it, nil when it does not compare.
    @discardableResult
    mutating func see(_ value: Value, _ threshold: Threshold, dayStart: Int) -> Bool? {
        var value = value
        if value.isUnknown, let fallback = threshold.fallback { value = fallback }
        guard let holding = threshold.holds(for: value, dayStart: dayStart) else { return nil }
        let distance = threshold.distance(to: value, dayStart: dayStart) ?? .infinity
        if holding, holds == nil || distance < holdsDistance { (holds, holdsDistance) = (value, distance) }
        if !holding, fails == nil || distance < failsDistance { (fails, failsDistance) = (value, distance) }
        return holding
    }
}
