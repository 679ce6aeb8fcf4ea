import RulesDiagnostics
import RulesSimulator
import Ruleset

/// The JSON Schema of population files (`populations/*.yaml`), for editor completion; the
/// loader checks the same keys and ranges with positioned diagnostics.
package enum PopulationSchema {
    typealias S = EditorSchemas

    static func probability(_ description: String) -> JSONValue {
        .object([("type", .string("number")), ("description", .string(description)), ("minimum", .int(0)), ("maximum", .int(1))])
    }

    static func spread(_ description: String) -> JSONValue {
        S.object(description, [("mean", S.number("Mean.", minimum: 0)), ("sd", S.number("Standard deviation.", minimum: 0))], required: ["mean"])
    }

    static func time(_ description: String, withProbability: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("at", S.string("Mean wall time.", pattern: S.timePattern)), ("sd", S.number("Standard deviation in minutes.", minimum: 0)),
        ]
        if withProbability { fields.insert(("p", probability("Probability per day (default 1).")), at: 0) }
        return S.object(description, fields, required: ["at"])
    }

    static var group: JSONValue {
        S.object(
            "A group of users.",
            [
                ("name", S.string("The group's name.")), ("description", S.string("A note.")),
                ("weight", S.number("Relative share of users (default 1).", minimum: 0)),
                ("routines", S.list("Enabled routines (default: every default_enabled routine).", S.string("Routine id.", pattern: S.idPattern))),
                (
                    "permission",
                    S.object(
                        "Probability that HealthKit access is granted (else denied; default 1).",
                        [("steps", probability("Steps.")), ("sleep", probability("Sleep."))])
                ),
                ("sleep_minutes", spread("Minutes slept the night before (clipped to 0–900); absent: no sleep data.")),
                ("wake", time("When the night ends (default 07:00).", withProbability: false)),
                ("steps", spread("A day's steps (clipped at 0), walked evenly from 07:00 to 23:00; absent: none.")),
                ("app_opens", S.list("App opens: each happens with probability p on a day.", time("An app open.", withProbability: true))),
                (
                    "logs",
                    S.list(
                        "Habit logs: on a day with probability p, count logs of value.",
                        S.object(
                            "A log draw.",
                            [
                                ("routine", S.string("Routine id.", pattern: S.idPattern)), ("p", probability("Probability per day (default 1).")),
                                ("value", S.number("The value of each log, in the routine's unit.", minimum: 0)),
                                ("count", S.number("Logs that day (default 1).", integer: true, minimum: 1)),
                                ("at", S.string("Mean wall time.", pattern: S.timePattern)),
                                ("sd", S.number("Standard deviation in minutes.", minimum: 0)),
                            ], required: ["routine", "value", "at"]))
                ),
                ("checks", S.map("Probability that each item of a checklist routine is ticked, evenings.", probability("Probability."))),
                ("check_at", time("When the evening ticks happen (default 21:30, sd 45).", withProbability: false)),
                (
                    "response",
                    S.object(
                        "Answers to each delivered notification; the rest get none.",
                        [("opened", probability("Opened (1–30 minutes later).")), ("ignored", probability("Dismissed (an hour later)."))])
                ),
                ("skip_today", probability("Probability of 'skip today' at the first app open of a day.")),
                ("settings", settings),
                (
                    "between_users",
                    S.object(
                        "How much users of the group differ beyond their daily draws: each user's own offset, drawn once, for every probability (logit scale) and every time (minutes).",
                        [
                            ("logit_sd", S.number("Standard deviation of a user's logit offset (0–10).", minimum: 0)),
                            ("minutes_sd", S.number("Standard deviation of a user's minute offset (0–720).", minimum: 0)),
                        ])
                ),
            ] + answers, required: ["name"])
    }

    /// `settings:` — what users set, by the ruleset's setting names (checked against the
    /// ruleset's declarations when the file is loaded).
    static var settings: JSONValue {
        .object([
            ("type", .string("object")),
            (
                "description",
                .string(
                    "What users set, drawn once per user and sent at their first app run: a bool's share with it on; an enum's shares per value; a time's { p, at, sd }; per routine for a map<routine_id, time> such as reminders."
                )
            ),
            (
                "additionalProperties",
                .object([
                    (
                        "anyOf",
                        .array([
                            probability("A bool: the share with it on."), time("A time: the share who set one, when.", withProbability: true),
                            S.map(
                                "Shares per enum value, or per routine { p, at, sd }.",
                                .object([("type", .array([.string("number"), .string("object")]))])),
                        ])
                    )
                ])
            ),
        ])
    }

    /// The keys of users who answer the operator: acts, fatigue, opt-outs.
    static var answers: [(String, JSONValue)] {
        [
            ("acts", acts),
            (
                "fatigue",
                S.object(
                    "Each delivery beyond `after` on a day raises the chance to ignore the next by `per_extra` (at most 1).",
                    [
                        ("after", S.number("Deliveries a day before fatigue.", integer: true, minimum: 0)),
                        ("per_extra", probability("Extra chance to ignore per delivery beyond `after`.")),
                    ], required: ["after"])
            ),
            (
                "opt_out",
                S.object(
                    "Switching notices off: a type in the app's settings (per ignored delivery), or every notice at the system level (per delivery above `above` a day; the engine is not told).",
                    [
                        ("type", probability("Chance per ignored delivery that its type is switched off.")),
                        ("all", probability("Chance per delivery above `above` that day that every notice is switched off.")),
                        ("above", S.number("Deliveries a day before `all` applies.", integer: true, minimum: 0)),
                    ])
            ),
        ]
    }

    /// One act: what a seen notice makes a user do.
    static var act: JSONValue {
        S.object(
            "What a delivered, seen notice makes a user do.",
            [
                ("p", probability("Chance the user does it.")),
                ("within", S.string("How soon (default 30m, at most 24h).", pattern: S.durationPattern)),
                (
                    "does",
                    S.list(
                        "Routines the notice asks for (default: the ruleset's target: the notice's routine, a recovery item, or a routine still open).",
                        S.string("Routine id.", pattern: S.idPattern))
                ),
            ], required: ["p"])
    }

    /// `acts:` — per notification type or category, a default, and how acts wear off.
    static var acts: JSONValue {
        .object([
            ("type", .string("object")),
            (
                "description",
                .string(
                    "What notices make users do, per notification type or category (`default` for the rest); `half_life` (deliveries of a type after which its chance has halved) and `floor` say how it wears off."
                )
            ),
            (
                "properties",
                .object([
                    ("default", act), ("half_life", S.number("Deliveries of a type after which its act chance has halved (above 0).", minimum: 0)),
                    ("floor", probability("The act chance never wears below this.")),
                ])
            ),
            ("additionalProperties", act),
        ])
    }

    package static var schema: JSONValue {
        .object([
            ("$schema", .string(S.draft)),
            ("$id", .string("population.schema.json")),
            ("title", .string("Operator rules: populations/*.yaml")),
            ("type", .string("object")),
            (
                "properties",
                .object([
                    ("name", S.string("The population's name.")), ("description", S.string("A note.")),
                    ("seed", S.number("Same seed, same users, same output.", integer: true, minimum: 0)),
                    ("users", S.number("How many users.", integer: true, minimum: 1)),
                    ("days", S.number("How many days each.", integer: true, minimum: 1)),
                    ("start", S.string("The first logical day.", pattern: ScenarioSchema.datePattern)),
                    ("timezone", S.string("IANA time zone (default Asia/Seoul).")),
                    ("groups", S.list("Each user is drawn from one group, by weight.", group)), ("version", S.version),
                ])
            ),
            ("required", .array(["seed", "users", "days", "start", "groups"].map { .string($0) })),
            ("additionalProperties", .bool(false)),
        ])
    }

    /// The keys of a population file and of a group, with their descriptions (for
    /// `docs/REFERENCE.md`).
    package static var topKeys: [(key: String, description: String)] { ScenarioSchema.properties(of: schema) }
    package static var groupKeys: [(key: String, description: String)] { ScenarioSchema.properties(of: group) }
}
