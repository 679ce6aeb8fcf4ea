import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// Reads one event of a scenario day: its time, its one kind and that kind's fields.
struct EventDecoder: ScenarioDecoding {
    let ruleset: Ruleset

    static let eventKinds = [
        "app", "log", "edit_log", "delete_log", "check", "uncheck", "action", "tool_call", "notification", "settings", "widget", "timezone",
    ]

    func event(_ node: YAMLNode, _ reader: inout NodeReader) -> ScenarioEvent? {
        guard let fields = reader.fields(node, "an event", allowed: ["at", "response"] + Self.eventKinds, required: ["at"]),
            let seconds = fields["at"].flatMap({ reader.time($0, key: "at") }),
            let kindName = kind(fields, node, among: Self.eventKinds, what: "this event", &reader), let value = fields[kindName]
        else { return nil }
        let origin = reader.origin(node)
        if kindName != "notification", let response = fields.keys["response"] {
            reader.report(RulesetDiagnostics.unknownKey(reader.file, response, in: "a \(kindName) event", allowed: ["at", kindName]))
        }
        let kind: ScenarioEvent.Kind?
        switch kindName {
        case "app":
            kind = reader.choice(value, key: "app", what: "app event", allowed: ["open", "refresh"]).map { .app(refresh: $0 == "refresh") }
        case "log": kind = log(value, &reader)
        case "edit_log": kind = editLog(value, &reader)
        case "delete_log": kind = reader.string(value, key: "delete_log").map { .deleteLog(id: $0) }
        case "check", "uncheck": kind = tick(value, checked: kindName == "check", &reader)
        case "action": kind = (reader.choice(value, key: "action", what: "route action") as RouteAction?).map { .action($0) }
        case "tool_call": kind = reader.scalar(value, key: "tool_call", expected: "JSON text").map { .toolCall($0) }
        case "notification": kind = notification(value, response: fields["response"], node: node, &reader)
        case "settings": kind = .settings(settings(value, &reader))
        case "timezone": kind = timeZone(value, &reader)
        default: kind = (reader.choice(value, key: "widget", what: "widget intent") as WidgetIntent?).map { .widget($0) }
        }
        return kind.map { ScenarioEvent(seconds: seconds % 86_400, kind: $0, origin: origin) }
    }

    /// `log: { routine, value, unit?, source? }`.
    private func log(_ value: YAMLNode, _ reader: inout NodeReader) -> ScenarioEvent.Kind? {
        guard let log = reader.fields(value, "a log", allowed: ["routine", "value", "unit", "source"], required: ["routine", "value"]),
            let routine = log["routine"].flatMap({ routineID($0, key: "routine", &reader) }),
            let amount = log["value"].flatMap({ reader.number($0, key: "value", minimum: 0, maximum: InputLimits.maxLogValue) })
        else { return nil }
        let unit: RoutineUnit? = log["unit"].flatMap { reader.choice($0, key: "unit", what: "unit") }
        let source: LogSource = log["source"].flatMap { reader.choice($0, key: "source", what: "log source") } ?? .manual
        return .log(routine: routine, value: amount, unit: unit, source: source)
    }

    /// `edit_log: { id, value }`.
    private func editLog(_ value: YAMLNode, _ reader: inout NodeReader) -> ScenarioEvent.Kind? {
        guard let edit = reader.fields(value, "an edit", allowed: ["id", "value"], required: ["id", "value"]),
            let id = edit["id"].flatMap({ reader.string($0, key: "id") }),
            let amount = edit["value"].flatMap({ reader.number($0, key: "value", minimum: 0, maximum: InputLimits.maxLogValue) })
        else { return nil }
        return .editLog(id: id, value: amount)
    }

    /// `check:` or `uncheck: { routine, item }`, the item one of the routine's.
    private func tick(_ value: YAMLNode, checked: Bool, _ reader: inout NodeReader) -> ScenarioEvent.Kind? {
        guard let check = reader.fields(value, "a checklist tick", allowed: ["routine", "item"], required: ["routine", "item"]),
            let routine = check["routine"].flatMap({ routineID($0, key: "routine", &reader) }),
            let item = check["item"].flatMap({ reader.string($0, key: "item") })
        else { return nil }
        if let definition = ruleset.routine(routine), !definition.items.contains(item), let itemNode = check["item"] {
            reader.report(
                RulesetDiagnostics.unknownReference(
                    reader.file, itemNode, kind: "checklist item of '\(routine)'", name: item, known: definition.items))
            return nil
        }
        return checked ? .check(routine: routine, item: item) : .uncheck(routine: routine, item: item)
    }

    /// `notification: <type>` with `response:` (opened, ignored or an action).
    private func notification(_ value: YAMLNode, response: YAMLNode?, node: YAMLNode, _ reader: inout NodeReader) -> ScenarioEvent.Kind? {
        guard let id = notificationID(value, key: "notification", &reader) else { return nil }
        guard let responseNode = response else {
            reader.report(
                RulesetDiagnostics.missingKey(
                    reader.file, node, key: "response", in: "a notification event", hint: "opened, ignored or an action"))
            return nil
        }
        guard let text = reader.string(responseNode, key: "response") else { return nil }
        switch text {
        case "opened": return .notification(id: id, response: .opened)
        case "ignored": return .notification(id: id, response: .ignored)
        default:
            guard let action = NotificationAction(rawValue: text) else {
                reader.report(
                    RulesetDiagnostics.unknownValue(
                        reader.file, responseNode, what: "response",
                        allowed: ["opened", "ignored"] + NotificationAction.allCases.map(\.rawValue)))
                return nil
            }
            return .notification(id: id, response: .action(action))
        }
    }

    /// `timezone: <IANA name>`.
    private func timeZone(_ value: YAMLNode, _ reader: inout NodeReader) -> ScenarioEvent.Kind? {
        guard let name = reader.string(value, key: "timezone") else { return nil }
        guard LocalClock(identifier: name) != nil else {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.unknown_timezone", reader.file, value, "'\(name)' is not an IANA time zone", hint: LocalClock.zoneHint(for: name)))
            return nil
        }
        return .timeZone(name)
    }
}
