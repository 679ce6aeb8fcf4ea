import Foundation
import RulesDiagnostics
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
                rules.schema.json, scenario.schema.json, population.schema.json); without it, prints the schema of --kind.
                Point a file at its schema with a first line such as
                  # yaml-language-server: $schema=../schemas/rules.schema.json
                """,
            options: [
                OptionSpec(name: "--out", valueName: "DIR", help: "Directory to write the schemas into."),
                OptionSpec(
                    name: "--kind", valueName: "KIND", allowed: ["routine", "rules", "scenario", "population"],
                    help: "Schema to print (default: rules)."),
            ],
            run: run)
    }

    static var schemas: [(file: String, schema: JSONValue)] { EditorSchemas.all + SchemaExtras.all }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard let out = arguments.value("--out") else {
            let kind = arguments.value("--kind") ?? "rules"
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
        [("scenario.schema.json", ScenarioSchema.schema), ("population.schema.json", PopulationSchema.schema)]
    }
}
