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
            usage: "rules schema [--out DIR] [--kind routine|rules|scenario|population]",
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
                io.err("Error: no schema for '\(kind)'\n")
                return .usage
            }
            io.out(schema.schema.prettyRendered() + "\n")
            return .success
        }
        let directory = io.resolve(out)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (file, schema) in schemas {
                try Data((schema.prettyRendered() + "\n").utf8).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(file)))
                io.out("wrote \((out as NSString).appendingPathComponent(file))\n")
            }
        } catch {
            io.err("Error: cannot write to \(out): \(error.localizedDescription)\n")
            return .usage
        }
        return .success
    }
}

/// Schemas of file kinds that live above the ruleset (scenarios), added by later commands.
enum SchemaExtras {
    static var all: [(file: String, schema: JSONValue)] {
        [("scenario.schema.json", ScenarioSchema.schema), ("population.schema.json", PopulationSchema.schema)]
    }
}
