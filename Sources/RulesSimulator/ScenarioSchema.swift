import RulesDiagnostics
import RulesEngine
import Ruleset

/// The JSON Schema of scenario files (`scenarios/*.yaml`), built from the loader's own key
/// lists, for editor completion like the rule files' schemas.
package enum ScenarioSchema {
    typealias S = EditorSchemas

    package static let datePattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"

    static var health: JSONValue {
        S.object(
            "The real health data of the day (what HealthKit holds).",
            [
                (
                    "permission",
                    S.object(
                        "HealthKit permissions (default not_determined: manual mode).",
                        [
                            ("steps", S.string("Steps permission.", values: HealthReading.Permission.allCases.map(\.rawValue))),
                            ("sleep", S.string("Sleep permission.", values: HealthReading.Permission.allCases.map(\.rawValue))),
                        ])
                ),
                (
                    "sleep",
                    S.object(
                        "The true night.",
                        [
                            ("start", S.string("Fell asleep.", pattern: S.timePattern)), ("end", S.string("Woke up.", pattern: S.timePattern)),
                        ], required: ["start", "end"])
                ),
                (
                    "steps",
                    .object([
                        ("type", .string("object")),
                        ("description", .string("Cumulative steps at wall times, interpolated linearly.")),
                        ("patternProperties", .object([(S.timePattern, .object([("type", .string("integer")), ("minimum", .int(0))]))])),
                        ("additionalProperties", .bool(false)),
                    ])
                ),
                ("avg7", S.number("The last 7 days' average.", integer: true, minimum: 0)),
                ("yesterday", S.number("Yesterday's steps.", integer: true, minimum: 0)),
            ])
    }

    static var event: JSONValue {
        let tick = S.object(
            "A checklist item.", [("routine", S.string("Routine id.", pattern: S.idPattern)), ("item", S.string("The item."))],
            required: ["routine", "item"])
        return S.object(
            "An event; `at` and one kind.",
            [
                ("at", S.string("Wall time; before day_starts_at means after midnight.", pattern: S.timePattern)),
                ("app", S.string("An app run that syncs HealthKit.", values: ["open", "refresh"])),
                (
                    "log",
                    S.object(
                        "A habit log.",
                        [
                            ("routine", S.string("Routine id.", pattern: S.idPattern)),
                            ("value", S.number("Amount in the routine's unit.", minimum: 0)),
                            ("unit", S.string("Unit (must match the routine's).", values: RoutineUnit.allCases.map(\.rawValue))),
                            ("source", S.string("Where it came from (default manual).", values: LogSource.allCases.map(\.rawValue))),
                        ], required: ["routine", "value"])
                ),
                (
                    "edit_log",
                    S.object(
                        "A changed log.", [("id", S.string("The log id.")), ("value", S.number("The new value.", minimum: 0))],
                        required: ["id", "value"])
                ),
                ("delete_log", S.string("The id of a log to delete.")),
                ("check", tick), ("uncheck", tick),
                ("action", S.string("A route request.", values: RouteAction.allCases.map(\.rawValue))),
                ("tool_call", S.string("A model's tool call as JSON text.")),
                ("notification", S.string("A delivered notification type the user answers.", pattern: S.idPattern)),
                ("response", S.string("opened, ignored or an action.", values: ["opened", "ignored"] + NotificationAction.allCases.map(\.rawValue))),
                ("settings", .object([("type", .string("object")), ("description", .string("Setting values from now on."))])),
                ("widget", S.string("A quick-log widget intent.", values: WidgetIntent.allCases.map(\.rawValue))),
                (
                    "timezone",
                    S.string(
                        "The device moved to this IANA time zone (its `at` read in the zone before). The logical day keeps its date; later times of the scenario, quiet hours, at: times and day_starts_at are the new zone's; a day already over there closes first."
                    )
                ),
            ], required: ["at"])
    }

    static var expectation: JSONValue {
        var properties: [(String, JSONValue)] = [
            ("at", S.string("The minute it is about.", pattern: S.timePattern)),
            ("delivered", S.string("A notification type delivered.", pattern: S.idPattern)),
            ("level", S.string("Its interruption level.", values: InterruptionLevel.allCases.map(\.rawValue))),
            ("suppressed", S.string("A notification type refused.", pattern: S.idPattern)),
            ("reason", S.string("The gate, or a tool verdict's reason.")),
            ("route", S.string("The route after that minute.", values: RouteKind.allCases.map(\.rawValue))),
            ("risk", S.string("The risk after that minute.", values: RiskLevel.allCases.map(\.rawValue))),
            ("snapshot_at", S.string("Compare the snapshot saved last by then.", pattern: S.timePattern)),
            ("day", S.string("The day's result.", values: DayResult.allCases.map(\.rawValue))),
            ("notifications_delivered", S.number("Deliveries that day.", integer: true, minimum: 0)),
            (
                "problems",
                S.number(
                    "Problem records that day (events the engine could not apply, failed evaluations); 0 unless given.", integer: true, minimum: 0)
            ),
            ("streak", S.number("Streak after the day.", integer: true, minimum: 0)),
            ("xp", S.number("XP after the day.", integer: true, minimum: 0)),
            ("that", S.expression("A condition on the facts at that minute.")),
            ("verdict", S.string("A tool call's verdict at that minute.", values: ["accepted", "clarify", "rejected"])),
        ]
        for key in ScenarioLoader.snapshotKeys {
            let text = ["date", "active_route_type", "risk_level", "character_line"].contains(key)
            properties.append(
                (
                    key,
                    .object([
                        ("type", text ? .string("string") : .array([.string("number"), .string("null")])),
                        ("description", .string("Expected snapshot value of \(key).")),
                    ])
                ))
        }
        return S.object("An expectation of rules test.", properties)
    }

    static var day: JSONValue {
        S.object(
            "One simulated day.",
            [
                ("date", S.string("The day, YYYY-MM-DD.", pattern: datePattern)), ("description", S.string("A note.")),
                ("health", health),
                ("settings", .object([("type", .string("object")), ("description", .string("Setting values for this day only."))])),
                ("events", S.list("Events in time order.", event)), ("expect", S.list("Expectations.", expectation)),
            ], required: ["date"])
    }

    package static var schema: JSONValue {
        .object([
            ("$schema", .string(S.draft)),
            ("$id", .string("scenario.schema.json")),
            ("title", .string("Operator rules: scenarios/*.yaml")),
            ("type", .string("object")),
            (
                "properties",
                .object([
                    ("name", S.string("The scenario's name.")), ("description", S.string("A note.")),
                    ("date", S.string("The day of a one-day scenario.", pattern: datePattern)),
                    ("timezone", S.string("IANA time zone (default Asia/Seoul).")),
                    (
                        "settings",
                        .object([("type", .string("object")), ("description", .string("Setting values (by the ruleset's declarations)."))])
                    ),
                    ("routines", S.list("Enabled routines (default: every default_enabled routine).", S.string("Routine id.", pattern: S.idPattern))),
                    ("health", health), ("events", S.list("Events in time order.", event)), ("expect", S.list("Expectations.", expectation)),
                    ("days", S.list("Several days.", day)), ("version", S.version),
                ])
            ),
            ("additionalProperties", .bool(false)),
        ])
    }
}

extension ScenarioSchema {
    /// The keys of an event and of an expectation with their descriptions, in schema order
    /// (for `docs/REFERENCE.md`).
    package static var eventKeys: [(key: String, description: String)] { properties(of: event) }
    package static var expectationKeys: [(key: String, description: String)] { properties(of: expectation) }

    package static func properties(of schema: JSONValue) -> [(key: String, description: String)] {
        guard case .object(let properties)? = schema.member("properties") else { return [] }
        return properties.map { key, value in (key, value.member("description")?.stringValue ?? "") }
    }
}
