import RulesDiagnostics

/// The `rules` command line: every command runs in-process through `run(arguments:io:)`.
public enum RulesCLI {
    public static let version = "0.1.0"

    static var commands: [Command] {
        [
            CheckCommand.command, SimulateCommand.command, TestCommand.command, ExplainCommand.command, DiffCommand.command, BundleCommand.command,
            ToolsCommand.command, SchemaCommand.command, FactsCommand.command, ReferenceCommand.command, WatchCommand.command,
            PopulationCommand.command, KeygenCommand.command, VerifyCommand.command, PreviewCommand.command, LSPCommand.command, TuneCommand.command,
        ]
    }

    /// Runs `rules` with `arguments` (without the program name) and returns the exit code.
    public static func run(arguments: [String], io: CommandIO) -> ExitCode {
        guard let first = arguments.first else {
            io.out(mainHelp)
            return .success
        }
        switch first {
        case "-h", "--help":
            io.out(mainHelp)
            return .success
        case "--version":
            io.out("rules \(version)\n")
            return .success
        case "help":
            guard arguments.count > 1 else {
                io.out(mainHelp)
                return .success
            }
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return usageError(unknownCommand(arguments[1]), usage: "rules help <subcommand>", helpName: nil, io: io)
            }
            io.out(command.help)
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let message = first.hasPrefix("-") ? "unknown option '\(first)'" : unknownCommand(first)
            return usageError(message, usage: "rules <subcommand>", helpName: nil, io: io)
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            io.out(command.help)
            return .success
        }
        do {
            let parsed = try ArgumentReader.read(rest, options: command.options)
            return try command.run(parsed, io)
        } catch {
            return usageError(error.message, usage: command.usage, helpName: command.name, io: io)
        }
    }

    static var mainHelp: String {
        var out = """
            OVERVIEW: Check, simulate and test the rule files of the 갓생 operator.

            Routines, routes, notifications and message templates are YAML files under
            routines/, rules/ and templates/; scenarios/ holds simulated days.

            USAGE: rules <subcommand> [options]

            OPTIONS:

            """
        out += Command.row("--version", "Show the version.")
        out += Command.row("-h, --help", "Show help information.")
        out += "\nSUBCOMMANDS:\n"
        for command in commands { out += Command.row(command.name, command.abstract) }
        out += "\n  See 'rules help <subcommand>' for detailed help.\n"
        return out
    }

    static func unknownCommand(_ name: String) -> String {
        var message = "unknown subcommand '\(name)'"
        if let near = Suggestions.nearest(to: name, among: commands.map(\.name)) {
            message += "; did you mean '\(near)'?"
        }
        return message
    }

    /// Prints a usage error the swift-argument-parser way and returns exit code 2.
    static func usageError(_ message: String, usage: String, helpName: String?, io: CommandIO) -> ExitCode {
        var text = "Error: \(message)\nUsage: \(usage)\n"
        if let helpName {
            text += "  See 'rules \(helpName) --help' for more information.\n"
        } else {
            text += "  See 'rules --help' for more information.\n"
        }
        io.err(text)
        return .usage
    }
}
