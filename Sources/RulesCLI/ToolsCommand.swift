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
            options: [
                SimulationSupport.rulesetOption,
                OptionSpec(
                    name: "--format", valueName: "FORMAT", allowed: ToolDeclarations.Format.allCases.map(\.rawValue),
                    help: "Declaration format (default: gemma)."),
            ],
            run: run)
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard let (ruleset, _) = SimulationSupport.ruleset(arguments, io) else { return .usage }
        let format = arguments.value("--format").flatMap(ToolDeclarations.Format.init(rawValue:)) ?? .gemma
        io.out(ToolDeclarations.export(ruleset, format: format).prettyRendered() + "\n")
        return .success
    }
}
