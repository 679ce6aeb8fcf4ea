import RulesDiagnostics
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
            ], required: ["name"])
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
