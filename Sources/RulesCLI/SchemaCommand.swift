import Foundation
import RulesDiagnostics
import RulesPopulation
import RulesSimulator
import Ruleset

/// `rules schema [--out DIR]`: the JSON Schemas of the file kinds, for editors.
enum SchemaCommand {
    static var command: Command {
        Command(
            name: "schema",
            abstract: "Write JSON Schemas of the rule files for editor completion.",
            discussion: """
                With --out, writes one schema per file kind into DIR (routine.schema.json,
                rules.schema.json, scenario.schema.json, population.schema.json, telemetry.schema.json); without it, prints the schema of --kind.
                Point a file at its schema with a first line such as
                  # yaml-language-server: $schema=../schemas/rules.schema.json
                """,
            options: Options.self, run: run)
    }

    /// A file kind with a schema.
    enum Kind: String, CaseIterable, ArgumentValue {
        case routine, rules, scenario, population, telemetry
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var out: String?
        var kind = Kind.rules

        static var fields: [OptionField<Self>] {
            [
                .option(\.out, OptionSpec(name: "--out", valueName: "DIR", help: "Directory to write the schemas into.")),
                .option(\.kind, OptionSpec(name: "--kind", valueName: "KIND", help: "Schema to print (default: rules).")),
            ]
        }
    }

    static var schemas: [(file: String, schema: JSONValue)] { EditorSchemas.all + SchemaExtras.all }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard let out = given.out else {
            let kind = given.kind.rawValue
            guard let schema = schemas.first(where: { $0.file == "\(kind).schema.json" }) else {
                io.fail(.noSchema(kind))
                return .usage
            }
            io.out(schema.schema.prettyRendered() + "\n")
            return .success
        }
        do {
            try FileManager.default.createDirectory(atPath: io.resolve(out), withIntermediateDirectories: true)
        } catch {
            io.fail(.cannotMakeDirectory(out, reason: error.localizedDescription))
            return .usage
        }
        // Every schema or none (a full disk halfway leaves the folder as it was).
        let files = schemas.map { ((out as NSString).appendingPathComponent($0.file), $0.schema.prettyRendered() + "\n") }
        guard io.writeAll(files) else { return .usage }
        for (path, _) in files { io.out("wrote \(path)\n") }
        return .success
    }
}

/// Schemas of file kinds that live above the ruleset (scenarios), added by later commands.
enum SchemaExtras {
    static var all: [(file: String, schema: JSONValue)] {
        [
            ("scenario.schema.json", ScenarioSchema.schema), ("population.schema.json", PopulationSchema.schema),
            ("telemetry.schema.json", TelemetrySchema.schema),
        ]
    }
}
