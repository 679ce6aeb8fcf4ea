import Foundation
import RulesDiagnostics
import Ruleset

/// `rules tools [--format gemma|openai|json-schema]`: the tool declarations for the model.
enum ToolsCommand {
    static var command: Command {
        Command(
            name: "tools",
            abstract: "Print the tool declarations as function-declaration JSON for the on-device model.",
            discussion: "Generated from the ruleset's tools: section, so the model and the validator never disagree.",
            options: Options.self, run: run)
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var ruleset = "."
        var format = ToolDeclarations.Format.gemma

        static var fields: [OptionField<Self>] {
            [
                SimulationSupport.rulesetOption(\.ruleset),
                .option(\.format, OptionSpec(name: "--format", valueName: "FORMAT", help: "Declaration format (default: gemma).")),
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard let (ruleset, _) = SimulationSupport.ruleset(given.ruleset, io) else { return .usage }
        io.out(ToolDeclarations.export(ruleset, format: given.format).prettyRendered() + "\n")
        return .success
    }
}

extension ToolDeclarations.Format: ArgumentValue {}
