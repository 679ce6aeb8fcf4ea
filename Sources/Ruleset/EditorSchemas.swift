import RulesDiagnostics
import RulesExpression

/// JSON Schemas (draft 2020-12) of the rule file kinds, for editor completion through a
/// YAML language server (`# yaml-language-server: $schema=…`). Built from the same key
/// lists and enums the decoder reads, so the two cannot drift apart.
package enum EditorSchemas {
    /// The schema of a map's values (`additionalProperties`, else the first of
    /// `patternProperties`), for walking a document down its schema; nil for no map.
    package static func mapValues(of schema: JSONValue) -> JSONValue? {
        if case .object(let patterns)? = schema.member("patternProperties"), let first = patterns.first?.1 { return first }
        guard let values = schema.member("additionalProperties"), case .object = values else { return nil }
        return values
    }

    /// File name → schema, for `rules schema --out DIR`.
    package static var all: [(file: String, schema: JSONValue)] {
        [("routine.schema.json", routine), ("rules.schema.json", rules)]
    }

    package static let draft = "https://json-schema.org/draft/2020-12/schema"
    package static let timePattern = "^(([01]?[0-9]|2[0-3]):[0-5][0-9]|24:00)$"
    package static let durationPattern = "^([0-9]+h)?([0-9]+m)?([0-9]+s)?$"
    package static let idPattern = "^[a-z][a-z0-9_]*$"

    package static func object(_ description: String, _ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string("object")), ("description", .string(description)),
            ("properties", .object(properties)), ("additionalProperties", .bool(false)),
        ]
        if !required.isEmpty { members.append(("required", .array(required.map(JSONValue.string)))) }
        return .object(members)
    }

    package static func string(_ description: String, pattern: String? = nil, values: [String]? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string("string")), ("description", .string(description))]
        if let pattern { members.append(("pattern", .string(pattern))) }
        if let values { members.append(("enum", .array(values.map(JSONValue.string)))) }
        return .object(members)
    }

    package static func number(_ description: String, integer: Bool = false, minimum: Double? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(integer ? "integer" : "number")), ("description", .string(description))]
        if let minimum { members.append(("minimum", .number(minimum))) }
        return .object(members)
    }

    package static func boolean(_ description: String) -> JSONValue {
        .object([("type", .string("boolean")), ("description", .string(description))])
    }

    package static func expression(_ description: String) -> JSONValue {
        .object([
            ("type", .array([.string("string"), .string("boolean"), .string("number")])),
            ("description", .string(description + " An expression of the rule language (docs/REFERENCE.md), checked when the ruleset loads.")),
        ])
    }

    package static func list(_ description: String, _ items: JSONValue) -> JSONValue {
        .object([("type", .string("array")), ("description", .string(description)), ("items", items)])
    }

    package static func map(_ description: String, _ values: JSONValue) -> JSONValue {
        .object([("type", .string("object")), ("description", .string(description)), ("additionalProperties", values)])
    }

    package static var version: JSONValue {
        .object([("const", .int(1)), ("description", .string("Rule format version; only 1 exists."))])
    }

    // MARK: routines

    static var routineObject: JSONValue {
        object(
            "A routine.",
            [
                ("id", string("Unique id, used as routines.<id> in expressions.", pattern: idPattern)),
                ("name", string("Display name in Korean.")),
                (
                    "category",
                    string(
                        "What the routine measures: \(RoutineCategory.builtIn.map(\.rawValue).joined(separator: ", ")), or a category declared under categories: in a rules file.",
                        pattern: idPattern)
                ),
                ("source", string("Where its values come from.", values: RoutineSource.allCases.map(\.rawValue))),
                ("unit", string("Unit of value and goal.", values: RoutineUnit.allCases.map(\.rawValue))),
                ("goal", number("The regular day's goal, in the unit (checklists default to their item count).")),
                ("quick_log", list("Quick-log amounts for home and the widget.", number("An amount in the unit."))),
                ("core", boolean("Counts in total and completion_rate (default true).")),
                ("default_enabled", boolean("On for a new user (default true).")),
                ("sensitive", boolean("Never shown on the lock screen or widget (sleep and supplements always are).")),
                ("items", list("Checklist items.", string("A checklist item."))),
                (
                    "routes",
                    object(
                        "Per-route goals.", [("light", object("The light route.", [("goal", number("The light route's goal."))], required: ["goal"]))]
                    )
                ),
                ("description", string("A note for designers.")),
                ("version", version),
            ], required: ["id", "name", "category", "source", "unit"])
    }

    package static var routine: JSONValue {
        .object([
            ("$schema", .string(draft)),
            ("$id", .string("routine.schema.json")),
            ("title", .string("Operator rules: routines/*.yaml")),
            (
                "oneOf",
                .array([
                    routineObject,
                    list("Several routines.", routineObject),
                    object("Routines under a key.", [("routines", list("Routines.", routineObject)), ("version", version)], required: ["routines"]),
                ])
            ),
        ])
    }

    // MARK: rules and templates

    static func table(_ description: String, _ key: String, _ values: [String], extra: [(String, JSONValue)] = []) -> JSONValue {
        list(
            description,
            object(
                "An entry; the first whose condition holds wins.",
                [(key, string("The outcome of this entry.", values: values)), ("when", expression("Condition."))] + extra,
                required: [key, "when"]))
    }

    package static var rules: JSONValue {
        let properties = tableProperties + [policyProperty, settingsProperty] + textAndToolProperties
        return .object([
            ("$schema", .string(draft)),
            ("$id", .string("rules.schema.json")),
            ("title", .string("Operator rules: rules/*.yaml and templates/*.yaml")),
            ("type", .string("object")),
            ("properties", .object(properties)),
            ("additionalProperties", .bool(false)),
        ])
    }

    /// The version, the risk and route tables, sticky routes, the light and recovery
    /// routes and judgement.
    static var tableProperties: [(String, JSONValue)] {
        [
            ("version", version),
            ("risk", table("Risk table.", "level", RiskLevel.allCases.map(\.rawValue))),
            (
                "route",
                table(
                    "Route table.", "use", RouteKind.allCases.map(\.rawValue),
                    extra: [("reason", string("Recorded as created_reason.", pattern: idPattern))])
            ),
            ("sticky", list("Routes that stay once entered.", string("A route.", values: RouteKind.allCases.map(\.rawValue)))),
            ("light", object("The light route.", [("scale", number("Goal multiplier, in (0, 1]."))], required: ["scale"])),
            (
                "recovery",
                object(
                    "The recovery route.",
                    [
                        ("max_items", number("Most items offered.", integer: true, minimum: 1)),
                        ("items", list("The minimal route.", recoveryItemSchema)),
                    ], required: ["items"])
            ),
            (
                "judgement",
                object(
                    "Judging routines and days.",
                    [
                        ("routine", table("Routine statuses.", "status", RoutineStatus.allCases.map(\.rawValue))),
                        ("day", table("Day results.", "result", DayResult.allCases.map(\.rawValue))),
                        ("streak_counts", list("Results that keep the streak.", string("A result.", values: DayResult.allCases.map(\.rawValue)))),
                        (
                            "xp",
                            object(
                                "XP at day close.",
                                [
                                    ("completed", number("Per completed routine.", integer: true, minimum: 0)),
                                    ("partial", number("Per partial routine.", integer: true, minimum: 0)),
                                    ("recovery_completed", number("For a completed recovery route.", integer: true, minimum: 0)),
                                ])
                        ),
                    ])
            ),
        ]
    }

    /// The notification policy.
    static var policyProperty: (String, JSONValue) {
        (
            "policy",
            object(
                "Notification policy.",
                [
                    ("max_per_day", number("Deliveries per local day.", integer: true, minimum: 0)),
                    ("category_cooldown", string("Least time between deliveries of one category.", pattern: durationPattern)),
                    (
                        "quiet_hours",
                        object(
                            "No deliveries from start (included) to end (excluded).",
                            [
                                ("start", string("Start time.", pattern: timePattern)), ("end", string("End time.", pattern: timePattern)),
                            ], required: ["start", "end"])
                    ),
                    (
                        "weaken",
                        object(
                            "Weakening after ignores.",
                            [
                                ("after_ignored", number("Consecutive ignores.", integer: true, minimum: 1)),
                                ("effect", string("What weakening does.", values: WeakenEffect.allCases.map(\.rawValue))),
                            ])
                    ),
                    ("cancel_when_completed", boolean("Cancel a routine's notification when it is done.")),
                    ("max_pending", number("Most pending requests (iOS keeps 64).", integer: true, minimum: 1)),
                ])
        )
    }

    /// User settings the rules read.
    static var settingsProperty: (String, JSONValue) {
        let settingValue = JSONValue.object([
            ("description", .string("Default value, of the declared type."))
        ])
        return (
            "settings",
            map(
                "User settings the rules read.",
                object(
                    "A setting.",
                    [
                        ("type", string("bool, int, number, string, time, duration, enum, routine_id, list<T>, map<K, V>, or T? for optional.")),
                        ("default", settingValue),
                        ("values", list("Cases of an enum setting.", string("A case.", pattern: idPattern))),
                        ("description", string("A note for designers.")),
                    ], required: ["type"]))
        )
    }

    /// Surfaces, notification types, templates, tools, forbidden phrases and categories.
    static var textAndToolProperties: [(String, JSONValue)] {
        [
            ("surfaces", map("Where text appears.", surfaceSchema)),
            ("notifications", list("Notification types.", notificationSchema)),
            ("templates", list("Message templates.", templateSchema)),
            (
                "tools",
                list(
                    "Operator tools.",
                    object(
                        "A tool.",
                        [
                            ("name", string("Tool name.", pattern: idPattern)),
                            ("description", string("What it does, for the model.")),
                            ("params", map("Parameters by name.", parameterSchema)),
                        ], required: ["name", "description"]))
            ),
            ("forbidden_phrases", list("Phrases no text may contain.", string("A phrase."))),
            (
                "categories",
                list(
                    "Routine categories besides the built-in ones.",
                    object(
                        "A routine category.",
                        [
                            ("id", string("The category's id, written as a routine's category.", pattern: idPattern)),
                            ("sensitive", boolean("Whether its routines' values must never reach the lock screen or the widget.")),
                            ("description", string("A note for designers.")),
                        ], required: ["id", "sensitive"]))
            ),
        ]
    }

    /// A notification type.
    static var notificationSchema: JSONValue {
        object(
            "A notification type.",
            [
                ("id", string("Unique id; also the setting that turns the type off.", pattern: idPattern)),
                ("category", string("Cooldown group and thread id.", pattern: idPattern)),
                ("at", expression("Fire time: a time or an optional time (unknown: no candidate).")),
                ("when", expression("Condition at the fire time (default true).")),
                ("template", string("Template id of the body.", pattern: idPattern)),
                ("title", string("Template id of the title.", pattern: idPattern)),
                ("deep_link", string("Where tapping leads.")),
                ("actions", list("Buttons.", string("An action.", values: NotificationAction.allCases.map(\.rawValue)))),
                ("priority", number("Tie-break: higher first (default 0).", integer: true)),
                ("in_quiet_hours", string("Inside quiet hours (default drop).", values: QuietHoursHandling.allCases.map(\.rawValue))),
                ("expires_after", string("A deferred candidate older than this is stale.", pattern: durationPattern)),
                ("interruption_level", string("iOS interruption level (default active).", values: InterruptionLevel.allCases.map(\.rawValue))),
                ("for_each", string("One candidate per enabled routine with a reminder.", values: ["routine"])),
            ], required: ["id", "category", "at", "template"])
    }

    /// A tool parameter.
    static var parameterSchema: JSONValue {
        object(
            "A tool parameter.",
            [
                ("type", string("Parameter type.", values: ToolParameterType.allCases.map(\.rawValue))),
                ("required", boolean("Whether the call must give it.")),
                ("min", number("Smallest value.")), ("max", number("Largest value.")),
                ("values", list("Allowed values of an enum.", string("A value."))),
                ("max_length", number("Longest string.", integer: true, minimum: 1)),
                ("description", string("What it is, for the model.")),
            ], required: ["type"])
    }

    /// A message template.
    static var templateSchema: JSONValue {
        object(
            "A message template.",
            [
                ("id", string("Unique id.", pattern: idPattern)),
                ("surface", string("Where the text appears.", pattern: idPattern)),
                ("event", string("The event a character line answers.", values: EnumType.event.cases)),
                ("when", expression("Condition for choosing this line.")),
                ("tone", string("The tone this line is written in (a value of settings.tone).", pattern: idPattern)),
                ("text", string("Text with {expression} and {expression|filter} placeholders and particles like 을(를).")),
            ], required: ["id", "surface", "text"])
    }

    /// A surface.
    static var surfaceSchema: JSONValue {
        object(
            "A surface.",
            [
                ("sensitive", string("Whether sensitive facts may appear.", values: SurfaceSensitivity.allCases.map(\.rawValue))),
                ("max_length", number("Longest text in characters.", integer: true, minimum: 1)),
                ("max_sentences", number("Most sentences.", integer: true, minimum: 1)),
                ("fallback", string("Shown instead of a text that would reveal a sensitive fact.")),
                ("sensitive_words", list("Words no text on this surface may contain literally (sensitive topics).", string("A word."))),
            ], required: ["sensitive"])
    }

    /// A recovery item.
    static var recoveryItemSchema: JSONValue {
        object(
            "A recovery item: exactly one of target, item, delta.",
            [
                ("routine", string("Routine id.", pattern: idPattern)),
                ("target", number("Amount to log after the route starts.")),
                ("item", string("Checklist item to tick after the route starts.")),
                ("delta", number("Steps to walk above the count when the route starts.", integer: true)),
            ], required: ["routine"])
    }
}
