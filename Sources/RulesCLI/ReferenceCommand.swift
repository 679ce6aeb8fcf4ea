import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// `rules facts`: every fact the ruleset at hand lets expressions read (routine ids and
/// settings included), with type, unit, sensitivity and an example.
enum FactsCommand {
    static var command: Command {
        Command(
            name: "facts",
            abstract: "List every fact expressions and templates may read in this ruleset.",
            discussion:
                "Built-in facts, one group per routine (routines.<id>.*) and one per setting (settings.<key>), with type, unit and whether the fact is sensitive (never on a lock screen or widget).",
            usage: "rules facts [--ruleset DIR]",
            options: [SimulationSupport.rulesetOption],
            run: run)
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard let (ruleset, _) = SimulationSupport.ruleset(arguments, io) else { return .usage }
        var out = ""
        for row in Reference.factRows(ruleset) {
            out +=
                "\(row.name)  \(row.type)\(row.sensitive ? "  [sensitive]" : "")  — \(row.meaning)\(row.example.isEmpty ? "" : " (e.g. \(row.example))")\n"
        }
        io.out(out)
        return .success
    }
}

/// `rules reference`: writes `docs/REFERENCE.md` from the code (CI fails when it is stale).
enum ReferenceCommand {
    static var command: Command {
        Command(
            name: "reference",
            abstract: "Write the users' reference (facts, functions, filters, particles, settings, scenarios, diagnostics).",
            discussion:
                "Generated from the code and the shipped ruleset, so it cannot drift: CI regenerates it and fails when docs/REFERENCE.md differs.",
            usage: "rules reference [--ruleset DIR] [--out FILE]",
            options: [
                SimulationSupport.rulesetOption,
                OptionSpec(name: "--out", valueName: "FILE", help: "Write to FILE instead of standard output."),
            ],
            run: run)
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard let (ruleset, _) = SimulationSupport.ruleset(arguments, io) else { return .usage }
        let text = Reference.markdown(ruleset, examples: ReferenceExamples(directory: io.resolve(arguments.value("--ruleset") ?? ".")))
        guard let out = arguments.value("--out") else {
            io.out(text)
            return .success
        }
        guard io.writeAtomically(text, to: out, inputs: SimulationSupport.inputs(arguments, io, extra: [])) else { return .usage }
        io.out("wrote \(out)\n")
        return .success
    }
}

/// The users' reference, built from the code.
enum Reference {
    struct FactRow {
        var name: String
        var type: String
        var sensitive: Bool
        var meaning: String
        var example: String
    }

    /// A routine field's example from the routine itself: its own name, unit and goal.
    static func routineExample(_ field: String, _ routine: Routine) -> String {
        func amount(_ value: Double) -> String {
            let number = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            switch routine.unit {
            case .count: return number
            case .check: return number + " items"
            default: return number + " " + routine.unit.rawValue
            }
        }
        switch field {
        case "name": return "\"\(routine.name)\""
        case "value": return amount((routine.goal / 3).rounded())
        case "goal": return amount(routine.goal)
        case "progress": return "0.33"
        case "status": return "\"in_progress\""
        case "enabled": return routine.defaultEnabled ? "true" : "false"
        case "core": return routine.core ? "true" : "false"
        default: return ""
        }
    }

    static func factRows(_ ruleset: Ruleset) -> [FactRow] {
        var rows: [FactRow] = []
        let schema = ruleset.schema
        for fact in schema.facts {
            var meaning = ""
            var example = ""
            if let entry = FactCatalogue.entry(fact.name) {
                meaning = entry.unit + ": " + entry.meaning
                example = entry.example
            } else if fact.name.hasPrefix("routines."), let field = fact.name.split(separator: ".").last,
                let entry = FactCatalogue.routineFields.first(where: { $0.name == field })
            {
                let id = fact.name.split(separator: ".").dropFirst().first.map(String.init) ?? ""
                let routine = ruleset.routine(id)
                meaning = "routine '\(routine?.name ?? id)': \(entry.meaning)"
                example = routine.map { routineExample(String(field), $0) } ?? entry.example
            } else if fact.name.hasPrefix("settings.") {
                let key = String(fact.name.dropFirst("settings.".count))
                meaning = "user setting"
                if let value = ruleset.settings.declaration(key)?.defaultValue { meaning += ", default \(value)" }
            } else if fact.name.hasPrefix("notifications.") {
                meaning = "consecutive ignores of that notification type"
            }
            rows.append(
                FactRow(
                    name: fact.name, type: "\(fact.type)", sensitive: ruleset.sensitivity(of: fact.name) != nil, meaning: meaning, example: example))
        }
        return rows
    }

    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    static func markdown(_ ruleset: Ruleset, examples: ReferenceExamples) -> String {
        var out = """
            # Operator rules — reference

            Generated by `rules reference --out docs/REFERENCE.md` from the code and the shipped
            ruleset; CI fails when this file is stale. `rules facts` prints the facts of any ruleset.

            ## Facts

            Expressions (conditions, computed values) and template placeholders read these facts.
            Optional types (`T?`) may be unknown: default them with `??` in conditions
            (`(sleep.minutes ?? 420) < 360`). Sensitive facts never reach a lock screen or widget.

            | fact | type | unit | meaning | example | sensitive |
            |---|---|---|---|---|---|

            """
        let schema = FactSchema.standard(routineIDs: [], settings: [])
        for entry in FactCatalogue.builtIn {
            let type = schema.fact(named: entry.name).map { "\($0.type)" } ?? ""
            let sensitive = ruleset.sensitivity(of: entry.name) != nil ? "yes" : ""
            out += "| `\(entry.name)` | `\(cell(type))` | \(cell(entry.unit)) | \(cell(entry.meaning)) | `\(cell(entry.example))` | \(sensitive) |\n"
        }
        out += "\nEvery routine adds `routines.<id>.<field>` (and a per-routine notification binds `routine.<field>`, plus `routine.reminder`):\n\n"
        out += "| field | type | meaning | example |\n|---|---|---|---|\n"
        for (entry, field) in zip(FactCatalogue.routineFields, FactSchema.routineFields) {
            out += "| `\(entry.name)` | `\(cell("\(field.1)"))` | \(cell(entry.meaning)) | `\(cell(entry.example))` |\n"
        }
        out +=
            "\nThe shipped routines: "
            + ruleset.routines.map {
                "`\($0.id)` (\($0.name)\($0.sensitive || ruleset.sensitivity(of: "routines.\($0.id).value") != nil ? ", sensitive" : ""))"
            }.joined(separator: ", ") + ".\n"
        out += "Inside a `judgement.routine` entry, `progress`, `value` and `goal` are that routine's.\n"
        out += "\n## Routine categories\n\nA routine's `category:` is one of "
        out += RoutineCategory.builtIn.map { "`\($0.rawValue)`\($0.isSensitiveByNature ? " (always sensitive)" : "")" }.joined(separator: ", ")
        out +=
            ", or one a rules file declares with its sensitivity:\n\n```yaml\ncategories:\n  - { id: stretching, sensitive: false }\n  - { id: therapy, sensitive: true, description: 상담 기록 }\n```\n\n"
        out += "A routine of a sensitive category is sensitive: its facts never reach a lock screen or widget.\n"
        out += "\n## Functions\n\n| function | takes |\n|---|---|\n"
        for function in Builtin.allCases { out += "| `\(function.rawValue)` | \(cell(function.signature)) |\n" }
        out += "\n## Template filters\n\n`{expression|filter}` writes a value for people:\n\n| filter | example |\n|---|---|\n"
        let samples: [TemplateFilter: Value] = [
            .thousands: .int(3240), .hm: .int(330), .k: .int(3240), .percent: .number(0.5),
            .list: .list([.string("물 300ml"), .string("양치"), .string("300보")]),
        ]
        for filter in TemplateFilter.allCases {
            let value = samples[filter] ?? .int(0)
            out += "| `\(filter.rawValue)` | `\(cell(value.description))` → `\(cell(TemplateRendererProbe.format(value, filter)))` |\n"
        }
        out +=
            "\n## Korean particles\n\nA placeholder followed by a particle gets the form that fits the value's last sound; where it cannot be decided both are written.\n\n"
        out += "| written | after a consonant | after a vowel | examples |\n|---|---|---|---|\n"
        for particle in Particle.allCases {
            let examples = ["물", "방", "3", "2", "ml"].map { "\($0)\(KoreanParticles.form(particle, after: $0))" }.joined(separator: ", ")
            out += "| `\(particle.rawValue)` | \(particle.forms.consonant) | \(particle.forms.vowel) | \(examples) |\n"
        }
        out +=
            "\n## Settings\n\nA setting declares a type and a default; these types are allowed:\n`bool`, `int`, `number`, `string`, `time`, `duration`, `enum` (with `values:`), `time?` and other optionals, `map<routine_id, time>`.\n\nThe shipped settings:\n\n| setting | type | default |\n|---|---|---|\n"
        for declaration in ruleset.settings {
            out += "| `\(declaration.key)` | `\(cell("\(declaration.type)"))` | `\(cell(declaration.defaultValue.description))` |\n"
        }
        out += "\n## Scenario events\n\nEach event has `at` and one kind:\n\n| key | meaning |\n|---|---|\n"
        for row in ScenarioSchema.eventKeys { out += "| `\(row.key)` | \(cell(row.description)) |\n" }
        out += "\n" + Self.multiDayRules
        out += "\n## Scenario expectations\n\n| key | meaning |\n|---|---|\n"
        for row in ScenarioSchema.expectationKeys { out += "| `\(row.key)` | \(cell(row.description)) |\n" }
        out +=
            "\n## Population files\n\n`rules population populations/FILE.yaml` lives synthetic users (see README). Top-level keys:\n\n| key | meaning |\n|---|---|\n"
        for row in PopulationSchema.topKeys { out += "| `\(row.key)` | \(cell(row.description)) |\n" }
        out += "\nEach entry of `groups`:\n\n| key | meaning |\n|---|---|\n"
        for row in PopulationSchema.groupKeys { out += "| `\(row.key)` | \(cell(row.description)) |\n" }
        out += SchemaReference.markdown(examples: examples)
        out += SchemaReference.minimalFiles
        out += "\n## Trace records\n\n`rules simulate --format json` writes one object per line with `at` and `kind`; see README for the kinds.\n"
        out += "\n## Commands\n\nEvery command prints its help with `--help`.\n"
        for command in RulesCLI.commands {
            let usage = command.usage.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            out += "\n### `rules \(command.name)`\n\n\(cell(command.abstract))\n\n```\n\(usage)\n```\n"
            // The help's discussion (exit statuses, defaults) as one paragraph.
            let discussion = command.discussion.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            if !discussion.isEmpty { out += "\n\(discussion)\n" }
            guard !command.options.isEmpty else { continue }
            out += "\n| option | meaning |\n|---|---|\n"
            for option in command.options {
                out += "| `\(option.name)\(option.valueName.map { " " + $0 } ?? "")` | \(cell(option.help)) |\n"
            }
        }
        out += "\n## Diagnostics\n\n`rules check --explain CODE` prints one with examples.\n\n| code | severity | what |\n|---|---|---|\n"
        for description in DiagnosticOutput.catalogue.sorted(by: { $0.code.rawValue < $1.code.rawValue }) {
            out +=
                "| `\(description.code.rawValue)` | \(description.severity.rawValue) | \(cell(description.summary)): \(cell(description.rationale)) |\n"
        }
        return out
    }

    /// How the days of a multi-day scenario relate (the same paragraph as README's).
    static let multiDayRules = """
        ### Days of a scenario

        A scenario with `days:` lives them in order, carrying streak, XP, ignore counts and the \
        user's settings. Top-level `health:` and `settings:` are every day's defaults, which a \
        day's own keys override key by key: a day's `steps:` (or `sleep:`) replace the top-level \
        samples for that day, never add to them; HealthKit permission carries over from the day \
        before unless a day says otherwise (the top level's is the first day's). A day's settings \
        are the ruleset's defaults, then the top-level `settings:`, then every `settings` event of \
        earlier days (a change from then on, also over a top-level value), then that day's own \
        `settings:` (that day only); the engine's state keeps only what the user set, so a default \
        changed in a new ruleset reaches every user who never touched it. Steps between samples \
        interpolate in exact integers, rounded down. An event at a time a DST change skips happens \
        the gap later, with a `scenario.dst_gap` warning naming when; a day the engine cannot close \
        (2199-12-31) is an error. A `timezone:` event (`{ at: "15:00", timezone: Europe/Paris }`, \
        its time read in the zone before) moves the user's clock: the logical day keeps its date, \
        later events and expectations are written in the new zone's clock (a wall time a westward \
        trip repeats is the later one), the plan is made again, the daily cap still counts the day \
        in progress, and a day already over in the new zone closes first. \
        `rules simulate --state-in FILE` starts from an engine state the app saved (its zone must \
        be the scenario's) and `--state-out FILE` writes the state after the last event.

        """
}
