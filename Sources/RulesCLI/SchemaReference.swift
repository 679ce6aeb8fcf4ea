import RulesDiagnostics
import RulesPopulation
import RulesSimulator
import Ruleset

/// The keys of every file kind, for docs/REFERENCE.md: read from the JSON Schemas the editor
/// uses (`rules schema`), which are built from the decoders' own key lists and enums — so the
/// reference names exactly the keys a file may hold, with type, allowed values, bounds,
/// meaning and an example.
enum SchemaReference {
    /// The markdown of every file kind's keys, with `examples` from the ruleset's files.
    static func markdown(examples: ReferenceExamples) -> String {
        var out = "\n## File keys\n\nEvery key a file may hold (a key not listed is refused: `ruleset.unknown_key`), by file kind and nesting.\n"
        let kinds: [(String, String, JSONValue)] = [
            ("Routine files (`routines/*.yaml`)", "routine", EditorSchemas.routine),
            ("Rule and template files (`rules/*.yaml`, `templates/*.yaml`)", "rules", EditorSchemas.rules),
            ("Scenario files (`scenarios/*.yaml`)", "scenario", ScenarioSchema.schema),
            ("Population files (`populations/*.yaml`)", "population", PopulationSchema.schema),
        ]
        for (title, root, schema) in kinds {
            out += "\n### \(title)\n"
            var tables: [(String, JSONValue)] = []
            collect(schema, path: root, into: &tables)
            // An object met again by another path (a routine file's three shapes, a day's
            // events) is listed once, under the first path.
            var seen: [String: String] = [:]
            for (path, object) in tables {
                let key = object.member("properties")?.rendered() ?? path
                if let first = seen[key] {
                    out += "\n**\(path)** — the keys of **\(first)**.\n"
                    continue
                }
                seen[key] = path
                out += table(path, object, examples: examples)
            }
        }
        return out
    }

    /// Every object of `schema` with properties, depth first, with its path (`rules › policy`).
    static func collect(_ schema: JSONValue, path: String, into tables: inout [(String, JSONValue)]) {
        if let items = schema.member("items") { return collect(items, path: path + "[]", into: &tables) }
        if let choices = schema.member("oneOf"), case .array(let options) = choices {
            for option in options { collect(option, path: path, into: &tables) }
            return
        }
        guard case .object(let properties)? = schema.member("properties") else {
            if let values = schema.member("additionalProperties"), case .object = values { collect(values, path: path + " › <key>", into: &tables) }
            if case .object(let patterns)? = schema.member("patternProperties") {
                for (_, value) in patterns { collect(value, path: path + " › <key>", into: &tables) }
            }
            return
        }
        if !tables.contains(where: { $0.0 == path }) { tables.append((path, schema)) }
        for (key, value) in properties { collect(value, path: path + " › " + key, into: &tables) }
    }

    static func table(_ path: String, _ object: JSONValue, examples: ReferenceExamples) -> String {
        guard case .object(let properties)? = object.member("properties") else { return "" }
        var required: [String] = []
        if case .array(let names)? = object.member("required") { required = names.compactMap(\.stringValue) }
        var out = "\n**\(path)**" + (object.member("description")?.stringValue.map { " — " + cell($0) } ?? "") + "\n\n"
        out += "| key | type | values and bounds | meaning | example |\n|---|---|---|---|---|\n"
        for (key, value) in properties {
            let mark = required.contains(key) ? " (required)" : ""
            out +=
                "| `\(key)`\(mark) | \(cell(type(value))) | \(cell(bounds(value))) | \(cell(value.member("description")?.stringValue ?? "")) | \(cell(examples.example(key, in: object, path: path) ?? example(key, value))) |\n"
        }
        return out
    }

    static func type(_ value: JSONValue) -> String {
        if value.member("const") != nil { return "constant" }
        if value.member("oneOf") != nil { return "one of several shapes" }
        switch value.member("type") {
        case .string(let name)?:
            switch name {
            case "array": return "list of " + (value.member("items").map(type) ?? "values")
            case "object":
                return value.member("properties") == nil ? "map of " + (value.member("additionalProperties").map(type) ?? "values") : "mapping"
            case "string":
                switch value.member("pattern")?.stringValue {
                case EditorSchemas.timePattern?: return "time HH:MM"
                case EditorSchemas.durationPattern?: return "duration (1h30m)"
                case EditorSchemas.idPattern?: return "id"
                default: return "text"
                }
            default: return name
            }
        case .array?: return "expression"
        default: return value.member("patternProperties") != nil ? "mapping" : "value"
        }
    }

    static func bounds(_ value: JSONValue) -> String {
        var parts: [String] = []
        if case .array(let values)? = value.member("enum") { parts.append(values.compactMap(\.stringValue).joined(separator: ", ")) }
        if let constant = value.member("const") { parts.append("always \(constant.rendered())") }
        if let minimum = value.member("minimum") { parts.append("≥ \(minimum.rendered())") }
        if let maximum = value.member("maximum") { parts.append("≤ \(maximum.rendered())") }
        if value.member("pattern")?.stringValue == EditorSchemas.idPattern { parts.append("[a-z][a-z0-9_]*") }
        return parts.joined(separator: "; ")
    }

    /// A one-line example of a key's value, from its type.
    static func example(_ key: String, _ value: JSONValue) -> String {
        if let constant = value.member("const") { return "\(key): \(constant.rendered())" }
        if case .array(let values)? = value.member("enum"), let first = values.compactMap(\.stringValue).first { return "\(key): \(first)" }
        let minimum: String? = value.member("minimum").map { $0.rendered() }
        switch type(value) {
        case "time HH:MM": return "\(key): \"21:00\""
        case "duration (1h30m)": return "\(key): 90m"
        case "id": return "\(key): water"
        case "text": return "\(key): 물"
        case "boolean": return "\(key): true"
        case "integer", "number": return "\(key): \(minimum.map { $0 == "0" ? "1" : $0 } ?? "1")"
        case "expression": return "\(key): completion_rate < 0.6"
        case let list where list.hasPrefix("list of "):
            switch String(list.dropFirst("list of ".count)) {
            case "number", "integer": return "\(key): [250, 500]"
            case "text": return "\(key): [양치, 세수]"
            case "id": return "\(key): [water, study]"
            case "time HH:MM": return "\(key): [\"09:00\", \"21:00\"]"
            default: return "\(key): [ … ]"
            }
        default: return "\(key): { … }"
        }
    }

    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// Whole files to start from: a routine, a notification with its template, and a scenario
    /// that tests them (a test loads each from REFERENCE.md and checks it clean).
    static let examples: [(title: String, file: String, yaml: String)] = [
        (
            "A routine", "routines/stretching.yaml",
            """
            id: stretching
            name: 스트레칭
            category: exercise
            source: manual
            unit: minutes
            goal: 10
            quick_log: [5, 10]
            core: false
            default_enabled: true
            """
        ),
        (
            "A notification and its template", "rules/stretching.yaml",
            """
            notifications:
              - id: stretching_nudge
                category: nudge
                at: "19:00"
                when: routines.stretching.enabled && routines.stretching.status != "completed"
                template: stretching_nudge_text
                deep_link: app://routine/stretching
                priority: 1
                in_quiet_hours: drop
            templates:
              - id: stretching_nudge_text
                surface: lock_screen
                text: 스트레칭 5분만 하고 가자.
            """
        ),
        (
            "Its setting, a line at the end of settings", "rules/settings.yaml",
            """
              stretching_nudge: { type: bool, default: true }   # the user can turn the nudge off
            """
        ),
        (
            "A scenario", "scenarios/stretching_day.yaml",
            """
            name: 스트레칭 하는 날
            date: "2026-07-20"
            timezone: Asia/Seoul
            routines: [water, stretching]
            health:
              permission: { steps: granted, sleep: granted }
              sleep: { start: "00:30", end: "07:30" }
              steps: { "08:00": 500, "19:00": 4000 }
            events:
              - { at: "08:00", app: open }
              - { at: "18:00", log: { routine: stretching, value: 5 } }
            expect:
              - { at: "19:00", delivered: stretching_nudge }
              - { at: "18:00", that: routines.stretching.value == 5 }
            """
        ),
    ]

    static var minimalFiles: String {
        var out =
            "\n## Files to start from\n\nCopy one, change the values; together with the shipped ruleset they load and pass clean (a test checks it). "
            + "`settings:` is one section of one file: a new setting is a line added to it.\n"
        for example in examples {
            out += "\n### \(example.title): `\(example.file)`\n\n```yaml\n\(example.yaml)\n```\n"
        }
        return out
    }
}
