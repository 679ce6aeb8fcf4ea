import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// Reads one expectation of a scenario day: its moment, its one kind and that kind's fields.
struct ExpectationDecoder: ScenarioDecoding {
    let ruleset: Ruleset

    static let expectationKinds = [
        "delivered", "suppressed", "route", "risk", "snapshot_at", "day", "notifications_delivered", "problems", "streak", "xp", "that",
        "verdict",
    ]
    static let snapshotKeys = [
        "date", "steps_today", "steps_goal", "sleep_minutes", "water_ml", "water_goal_ml", "completed_routines",
        "total_routines", "today_completion_rate", "active_route_type", "risk_level", "character_line",
    ]

    func expectation(_ node: YAMLNode, _ reader: inout NodeReader) -> Expectation? {
        let allowed = ["at", "reason", "level"] + Self.expectationKinds + Self.snapshotKeys
        guard let fields = reader.fields(node, "an expectation", allowed: allowed),
            let kindName = kind(fields, node, among: Self.expectationKinds, what: "this expectation", &reader), let value = fields[kindName]
        else { return nil }
        var seconds = fields["at"].flatMap { reader.time($0, key: "at") }
        let origin = reader.origin(node)
        let text = Self.describe(node)
        func make(_ kind: Expectation.Kind?) -> Expectation? { kind.map { Expectation(kind: $0, seconds: seconds, origin: origin, text: text) } }
        reportKeysOtherThan(kindName, fields, &reader)
        switch kindName {
        case "delivered":
            let level: InterruptionLevel? = fields["level"].flatMap { reader.choice($0, key: "level", what: "interruption level") }
            return notificationID(value, key: "delivered", &reader).flatMap { make(.delivered($0, level: level)) }
        case "suppressed":
            let reasons = GateReason.allCases.map(\.rawValue)
            let reason = fields["reason"].flatMap { reader.choice($0, key: "reason", what: "suppression reason", allowed: reasons) }.flatMap(
                GateReason.init(rawValue:))
            return notificationID(value, key: "suppressed", &reader).flatMap { make(.suppressed($0, reason: reason)) }
        case "route":
            return (reader.choice(value, key: "route", what: "route") as RouteKind?).flatMap { make(.route($0)) }
        case "risk":
            return (reader.choice(value, key: "risk", what: "risk level") as RiskLevel?).flatMap { make(.risk($0)) }
        case "day":
            return (reader.choice(value, key: "day", what: "day result") as DayResult?).flatMap { make(.day($0)) }
        case "notifications_delivered":
            return reader.int(value, key: "notifications_delivered", minimum: 0).flatMap { make(.notificationsDelivered($0)) }
        case "problems":
            return reader.int(value, key: "problems", minimum: 0).flatMap { make(.problems($0)) }
        case "streak":
            return reader.int(value, key: "streak", minimum: 0).flatMap { make(.streak($0)) }
        case "xp":
            return reader.int(value, key: "xp", minimum: 0).flatMap { make(.xp($0)) }
        case "verdict":
            guard
                let outcome = reader.choice(value, key: "verdict", what: "verdict", allowed: ["accepted", "clarify", "rejected"]).flatMap(
                    ToolVerdict.Outcome.init(rawValue:))
            else { return nil }
            let reason = fields["reason"].flatMap { reader.string($0, key: "reason") }
            return make(.verdict(outcome, reason: reason))
        case "that":
            return reader.expression(value, key: "that", schema: ruleset.schema, expecting: .condition).flatMap { make(.that($0)) }
        default:
            seconds = reader.time(value, key: "snapshot_at")
            return make(.snapshot(snapshotChecks(fields, node: node, &reader)))
        }
    }

    /// Reports the keys an expectation of `kindName` does not take.
    private func reportKeysOtherThan(_ kindName: String, _ fields: Fields, _ reader: inout NodeReader) {
        let extra = Set(fields.values.keys).subtracting(
            ["at", kindName] + (kindName == "suppressed" || kindName == "verdict" ? ["reason"] : []) + (kindName == "delivered" ? ["level"] : [])
                + (kindName == "snapshot_at" ? Self.snapshotKeys : []))
        for key in extra.sorted() {
            if let keyNode = fields.keys[key] {
                reader.report(RulesetDiagnostics.unknownKey(reader.file, keyNode, in: "a '\(kindName)' expectation", allowed: ["at", kindName]))
            }
        }
    }

    /// The snapshot keys a `snapshot_at` expectation checks, with their values (one at least).
    private func snapshotChecks(_ fields: Fields, node: YAMLNode, _ reader: inout NodeReader) -> [(String, Value)] {
        var checks: [(String, Value)] = []
        for key in Self.snapshotKeys {
            guard let node = fields[key] else { continue }
            switch key {
            case "date", "active_route_type", "risk_level", "character_line":
                if let text = reader.scalar(node, key: key, expected: "text") { checks.append((key, .string(text))) }
            case "sleep_minutes" where node.isNull:
                checks.append((key, .unknown))
            default:
                if let number = reader.number(node, key: key) { checks.append((key, .number(number))) }
            }
        }
        if checks.isEmpty {
            reader.report(
                RulesetDiagnostics.missingKey(
                    reader.file, node, key: "a snapshot key", in: "a snapshot_at expectation",
                    hint: "e.g. completed_routines: 4, today_completion_rate: 0.5"))
        }
        return checks
    }

    /// `{ at: "21:30", delivered: recovery_route }` as written (flow style).
    static func describe(_ node: YAMLNode) -> String {
        guard let pairs = node.pairs else { return node.scalar ?? "" }
        return "{ " + pairs.map { "\($0.key.scalar ?? ""): \($0.value.scalar ?? "…")" }.joined(separator: ", ") + " }"
    }
}
