import RulesDiagnostics

/// One `--name VALUE` option or `--flag` of a command.
struct OptionSpec {
    var name: String
    /// Placeholder for the value (`FORMAT`), nil for a flag.
    var valueName: String?
    /// Allowed values, when the option takes one of a fixed set.
    var allowed: [String] = []
    var help: String
    /// Whether the option may be given several times (values accumulate).
    var repeatable = false
    /// Written in the usage line without brackets: the command needs it.
    var required = false
    /// Written inside the brackets of the option named (`[--update [--dry-run]]`): it goes
    /// with that one.
    var within: String?
    /// Written as the other side of `|` inside the brackets of the option named: the two
    /// exclude each other.
    var instead: String?
    /// The value as the usage line writes it (default: the allowed values joined by `|`,
    /// else the value's name).
    var usageValue: String?

    /// The option as the usage line writes it, with the options that go within it and the
    /// one it excludes, from `all` (the command's options).
    func usage(among all: [OptionSpec]) -> String {
        var text = name
        if let value = usageValue ?? (allowed.isEmpty ? valueName : allowed.joined(separator: "|")) { text += " " + value }
        if repeatable { text += "…" }
        for inner in all where inner.within == name { text += " " + inner.usage(among: all) }
        for other in all where other.instead == name { text += " | " + other.bare(among: all) }
        return required ? text : "[" + text + "]"
    }

    /// The option without its brackets (the other side of a `|`).
    private func bare(among all: [OptionSpec]) -> String {
        var copy = self
        copy.required = true
        return copy.usage(among: all)
    }
}

/// A command's arguments after reading: positional values and option values by name.
struct ParsedArguments {
    var positional: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A usage mistake: shown as `Error: …`, the usage line and a pointer to `--help`; exit 2.
struct UsageError: Error {
    var message: String
}

/// Reads arguments by hand, the swift-argument-parser way: `--opt value`, `--opt=value`,
/// flags, `--` to end options; an unknown option suggests the nearest known one.
enum ArgumentReader {
    static func read(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                var message = "unknown option '\(name)'"
                if let near = Suggestions.nearest(to: name, among: options.map(\.name)) {
                    message += "; did you mean '\(near)'?"
                }
                throw UsageError(message: message)
            }
            guard let valueName = spec.valueName else {
                if inlineValue != nil { throw UsageError(message: "option '\(name)' takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "option '\(name)' needs a value (\(valueName))")
            }
            if !spec.allowed.isEmpty, !spec.allowed.contains(value) {
                var message = "'\(value)' is not a valid value for '\(name)'; expected one of \(spec.allowed.joined(separator: ", "))"
                if let near = Suggestions.nearest(to: value, among: spec.allowed) {
                    message += "; did you mean '\(near)'?"
                }
                throw UsageError(message: message)
            }
            if !spec.repeatable, parsed.values[name] != nil {
                throw UsageError(message: "option '\(name)' given more than once")
            }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }
}
