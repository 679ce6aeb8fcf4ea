import Foundation
import RulesDiagnostics
import RulesEngine

/// The JSON Schema (draft 2020-12) of one telemetry line (`schemas/telemetry.schema.json`):
/// what the app sends and `rules population fit` reads. Every field is an identifier, a
/// number or a word of a fixed set; no field holds free text, and no other field is allowed.
package enum TelemetrySchema {
    static func string(_ description: String, pattern: String = "^[a-z0-9_]{1,64}$") -> JSONValue {
        .object([("type", .string("string")), ("pattern", .string(pattern)), ("description", .string(description))])
    }

    static func integer(_ description: String, _ minimum: Int, _ maximum: Int) -> JSONValue {
        .object([("type", .string("integer")), ("minimum", .int(minimum)), ("maximum", .int(maximum)), ("description", .string(description))])
    }

    static func words(_ description: String, _ values: [String]) -> JSONValue {
        .object([("enum", .array(values.map(JSONValue.string))), ("description", .string(description))])
    }

    /// The fields each kind adds, and which of them it requires.
    static let kinds: [(kind: String, required: [String])] = Telemetry.Kind.allCases.map { ($0.rawValue, $0.required) }

    /// A `setting` line is a notification type's switch (`type`, `on`) or another setting by
    /// its `key`: `on` for a bool, `choice` for an enum, `at` or `set: false` for a time, with
    /// `routine` for a per-routine time.
    static let settingShapes: JSONValue = .array([
        .object([("required", .array(["type", "on"].map(JSONValue.string)))]),
        .object([
            ("required", .array([.string("key")])),
            ("anyOf", .array(["on", "choice", "at", "set"].map { .object([("required", .array([.string($0)]))]) })),
        ]),
    ])

    package static var schema: JSONValue {
        let permission = words("HealthKit permission at the sync", ["granted", "denied", "not_determined"])
        let properties: [(String, JSONValue)] = [
            ("v", .object([("const", .int(Telemetry.version)), ("description", .string("the format's version"))])),
            ("user", string("HMAC-SHA-256 of the app's install id under a key the app holds, first 16 bytes in hex", pattern: "^[0-9a-f]{32}$")),
            ("ruleset", string("the first 16 hex digits of the ruleset's SHA-256", pattern: "^[0-9a-f]{16}$")),
            ("day", integer("the logical day, in days since 1970-01-01", 0, 200_000)),
            ("minute", integer("minutes since the logical day began (day_starts_at); 1440 for a day's close", 0, 1_440)),
            (
                "seq",
                integer(
                    "the line's number among the user's lines, one more than the line before (absent in lines written before it was)", 0,
                    1_000_000_000)
            ),
            ("kind", words("what happened", kinds.map(\.kind))),
            ("cause", string("why the app ran: open, log, check, widget, notification, notification_action, action, settings, …")),
            ("type", string("a notification type of the ruleset")), ("action", string("a notification's or route's action")),
            ("intent", string("a widget's intent")), ("routine", string("a routine id of the ruleset")),
            (
                "value",
                .object([("type", .string("number")), ("minimum", .int(0)), ("description", .string("the logged amount, in the routine's unit"))])
            ),
            ("item", integer("the ticked item's place in its routine's list (0-based; -1 unknown)", -1, 1_000)),
            ("checked", .object([("type", .string("boolean"))])),
            (
                "on",
                .object([
                    ("type", .string("boolean")),
                    ("description", .string("a setting's or type's switch; on a notices line, whether the device shows the app's notices")),
                ])
            ),
            ("response", string("opened, ignored, an action's name, or other")),
            ("steps_permission", permission), ("sleep_permission", permission),
            ("sleep", integer("last night's sleep, minutes, rounded down to 30", 0, 1_440)),
            ("steps", integer("steps so far today, rounded down to 500", 0, 1_000_000)),
            ("wake", integer("when last night's sleep ended, minutes since midnight, rounded down to 30", 0, 1_440)),
            ("route", string("the route the engine chose")), ("result", string("the day's result")),
            ("key", string("a setting of the ruleset (a setting line that is not a notification type's switch)")),
            ("choice", string("the value an enum setting was set to")),
            ("at", integer("the time a setting was set to, minutes since midnight, rounded down to 30", 0, 1_410)),
            ("set", .object([("type", .string("boolean")), ("description", .string("false: the setting (or every per-routine time) was cleared"))])),
        ]
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://operator-rules.example/schemas/telemetry.schema.json")),
            ("title", .string("Operator rules telemetry line")),
            ("description", .string("One event the engine saw, as the app may send it: identifiers, numbers and fixed words, never a text.")),
            ("type", .string("object")), ("required", .array(Telemetry.requiredHead.map(JSONValue.string))),
            ("properties", .object(properties)), ("additionalProperties", .bool(false)), ("allOf", .array(kindRules)),
        ])
    }

    /// What each kind of line must carry beside the head (a `setting` line: one of its shapes).
    static var kindRules: [JSONValue] {
        kinds.map { kind, required in
            let then: JSONValue =
                kind == Telemetry.Kind.setting.rawValue
                ? .object([("oneOf", settingShapes)]) : .object([("required", .array(required.map(JSONValue.string)))])
            return .object([("if", .object([("properties", .object([("kind", .object([("const", .string(kind))]))]))])), ("then", then)])
        }
    }
}
