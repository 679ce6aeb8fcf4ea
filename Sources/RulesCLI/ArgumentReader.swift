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
