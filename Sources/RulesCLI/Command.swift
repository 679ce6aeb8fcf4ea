/// A subcommand of `rules`: its help text and what it does.
struct Command {
    var name: String
    /// One line for `rules --help`.
    var abstract: String
    /// Extra paragraphs for `rules help <command>`.
    var discussion: String = ""
    /// The positional part of the usage line (`[PATH…]`, `OLD_DIR NEW_DIR`); the options'
    /// part is written from `options`.
    var usageArguments: String = ""
    /// Further forms of the command, each a whole usage line (`rules population merge FILE…`).
    var moreUsage: [String] = []
    /// Positional arguments: (name, help).
    var arguments: [(String, String)] = []
    var options: [OptionSpec]
    /// Reads the typed options from the arguments (a usage error when a value is not one) and
    /// runs the command on them.
    var run: (ParsedArguments, CommandIO) throws(UsageError) -> ExitCode

    /// A command whose options are the typed properties of `Options`; `run` gets them read.
    init<Options: CommandOptions>(
        name: String, abstract: String, discussion: String = "", usageArguments: String = "", moreUsage: [String] = [],
        arguments: [(String, String)] = [], options _: Options.Type, run: @escaping (Options, CommandIO) -> ExitCode
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.usageArguments = usageArguments
        self.moreUsage = moreUsage
        self.arguments = arguments
        self.options = Options.specs
        self.run = { parsed, io throws(UsageError) in run(try Options(parsed), io) }
    }

    /// `rules check [PATH…] [--format …]`: written from the declarations (the positional
    /// part, then each option not written within or instead of another, in their order),
    /// with any further forms on lines of their own.
    var usage: String {
        var line = "rules " + name
        if !usageArguments.isEmpty { line += " " + usageArguments }
        for option in options where option.within == nil && option.instead == nil { line += " " + option.usage(among: options) }
        return ([line] + moreUsage).joined(separator: "\n       ")
    }

    /// Help as swift-argument-parser prints it: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
    var help: String {
        var out = "OVERVIEW: \(abstract)\n"
        if !discussion.isEmpty { out += "\n\(discussion)\n" }
        out += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for (name, text) in arguments { out += Command.row(name, text) }
        }
        out += "\nOPTIONS:\n"
        for option in options {
            var left = option.name
            if let valueName = option.valueName { left += " <\(valueName)>" }
            var text = option.help
            if !option.allowed.isEmpty { text += " (values: \(option.allowed.joined(separator: ", ")))" }
            out += Command.row(left, text)
        }
        out += Command.row("-h, --help", "Show help information.")
        return out
    }

    static func row(_ left: String, _ text: String) -> String {
        let padded = left.count < 24 ? left + String(repeating: " ", count: 24 - left.count) : left + "\n" + String(repeating: " ", count: 26)
        return "  " + padded + text + "\n"
    }
}
