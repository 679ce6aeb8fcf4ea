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
        func make(_ kind: ScenarioEvent.Kind?) -> ScenarioEvent? { kind.map { ScenarioEvent(seconds: seconds % 86_400, kind: $0, origin: origin) } }
        if kindName != "notification", let response = fields.keys["response"] {
            reader.report(RulesetDiagnostics.unknownKey(reader.file, response, in: "a \(kindName) event", allowed: ["at", kindName]))
        }
        switch kindName {
        case "app":
            guard let mode = reader.choice(value, key: "app", what: "app event", allowed: ["open", "refresh"]) else { return nil }
            return make(.app(refresh: mode == "refresh"))
        case "log":
            guard let log = reader.fields(value, "a log", allowed: ["routine", "value", "unit", "source"], required: ["routine", "value"]),
                let routine = log["routine"].flatMap({ routineID($0, key: "routine", &reader) }),
                let amount = log["value"].flatMap({ reader.number($0, key: "value", minimum: 0, maximum: InputLimits.maxLogValue) })
            else { return nil }
            let unit: RoutineUnit? = log["unit"].flatMap { reader.choice($0, key: "unit", what: "unit") }
            let source: LogSource = log["source"].flatMap { reader.choice($0, key: "source", what: "log source") } ?? .manual
            return make(.log(routine: routine, value: amount, unit: unit, source: source))
        case "edit_log":
            guard let edit = reader.fields(value, "an edit", allowed: ["id", "value"], required: ["id", "value"]),
                let id = edit["id"].flatMap({ reader.string($0, key: "id") }),
                let amount = edit["value"].flatMap({ reader.number($0, key: "value", minimum: 0, maximum: InputLimits.maxLogValue) })
            else { return nil }
            return make(.editLog(id: id, value: amount))
        case "delete_log":
            return reader.string(value, key: "delete_log").flatMap { make(.deleteLog(id: $0)) }
        case "check", "uncheck":
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
            return make(kindName == "check" ? .check(routine: routine, item: item) : .uncheck(routine: routine, item: item))
        case "action":
            return (reader.choice(value, key: "action", what: "route action") as RouteAction?).flatMap { make(.action($0)) }
        case "tool_call":
            return reader.scalar(value, key: "tool_call", expected: "JSON text").flatMap { make(.toolCall($0)) }
        case "notification":
            guard let id = notificationID(value, key: "notification", &reader) else { return nil }
            guard let responseNode = fields["response"] else {
                reader.report(
                    RulesetDiagnostics.missingKey(
                        reader.file, node, key: "response", in: "a notification event", hint: "opened, ignored or an action"))
                return nil
            }
            guard let text = reader.string(responseNode, key: "response") else { return nil }
            let response: NotificationResponse
            switch text {
            case "opened": response = .opened
            case "ignored": response = .ignored
            default:
                guard let action = NotificationAction(rawValue: text) else {
                    reader.report(
                        RulesetDiagnostics.unknownValue(
                            reader.file, responseNode, what: "response",
                            allowed: ["opened", "ignored"] + NotificationAction.allCases.map(\.rawValue)))
                    return nil
                }
                response = .action(action)
            }
            return make(.notification(id: id, response: response))
        case "settings":
            return make(.settings(settings(value, &reader)))
        case "timezone":
            guard let name = reader.string(value, key: "timezone") else { return nil }
            guard LocalClock(identifier: name) != nil else {
                reader.report(
                    ScenarioDiagnostics.error(
                        "scenario.unknown_timezone", reader.file, value, "'\(name)' is not an IANA time zone",
                        hint: LocalClock.zoneHint(for: name)))
                return nil
            }
            return make(.timeZone(name))
        default:
            return (reader.choice(value, key: "widget", what: "widget intent") as WidgetIntent?).flatMap { make(.widget($0)) }
        }
    }
}
