import RulesDiagnostics

/// The expression phase's message catalogue (`expr.*` for reading, `type.*` for checking).
/// Diagnostics are built against the expression's own text: line 1, column = offset + 1,
/// file "". `Diagnostic.placed(in:)` moves them to the file the expression came from.
public enum ExpressionDiagnostics {
    public static let descriptions: [CodeDescription] = [
        describe(
            "expr.unexpected_character", "a character the language does not use",
            "Expressions use letters, digits, quotes and the operators listed in docs/REFERENCE.md; anything else is a typo."),
        describe(
            "expr.unknown_operator", "'=', '&' or '|' where '==', '&&' or '||' was meant", "The language has no assignment and no bitwise operators."),
        describe("expr.invalid_time", "a time outside 00:00–24:00", "Times are HH:MM with hours 00–23 (or exactly 24:00) and minutes 00–59."),
        describe(
            "expr.invalid_duration", "a duration that cannot be read", "Durations are amounts with units h, m, s in that order: 90m, 1h30m, 45s."),
        describe(
            "expr.invalid_number", "a number that cannot be read or is too large", "Numbers are decimal: 42, 0.6, 60%; integers must fit in 64 bits."),
        describe("expr.invalid_escape", "an unknown escape in a string", "Strings know \\\" \\' \\\\ \\n \\t and \\u{…}."),
        describe("expr.unterminated_string", "a string without its closing quote", "Close the string with the quote it was opened with."),
        describe("expr.unexpected_token", "a token where something else was expected", "The message names what the parser expected at that place."),
        describe("expr.expected_operand", "an operator without its operand", "Every operator needs a value on each side, e.g. `a && b`."),
        describe(
            "expr.not_callable", "a call of something that is not a function",
            "Only built-in functions can be called: min, max, clamp, abs, round, floor, ceil, minutes, hours, count, contains."),
        describe(
            "expr.too_long", "an expression longer than the limit",
            "Expressions are at most \(InputLimits.maxExpressionLength) characters; split the rule."),
        describe("expr.too_deep", "an expression nested deeper than the limit", "Expressions nest at most \(InputLimits.maxExpressionDepth) levels."),
        describe("expr.empty", "an empty expression", "Write a condition such as `true` or `completion_rate < 0.6`."),
        describe(
            "type.unknown_fact", "a name that is not a fact of the schema",
            "Facts are listed in docs/REFERENCE.md and by `rules facts`; routines, settings and bindings add their own."),
        describe("type.unknown_routine", "a routine id the ruleset does not define", "`routines.<id>` needs a routine with that id under routines/."),
        describe(
            "type.mismatch", "operands of types the operator does not accept",
            "Each operator takes the types listed in docs/REFERENCE.md; int widens to number, nothing else converts."),
        describe(
            "type.needs_default", "an optional fact used where a definite value is needed",
            "Facts that may be unknown (sleep, quest, bedtime) must be defaulted with `??` before comparing them."),
        describe(
            "type.unknown_enum_case", "a string compared with an enum that is not one of its cases",
            "Enums compare with string literals naming one of their cases; the message lists them."),
        describe(
            "type.unknown_function", "a call of a function the language does not have",
            "The built-in functions are min, max, clamp, abs, round, floor, ceil, minutes, hours, count, contains."),
        describe(
            "type.wrong_arguments", "a function called with the wrong number or types of arguments", "The message shows the function's signature."),
        describe("type.not_boolean", "a condition that is not a bool", "`when:` and other conditions must be true or false."),
        describe(
            "type.division_by_zero", "a division by a constant zero",
            "`x / 0` (or `x / 0m`) fails whenever it is evaluated: the condition or time it feeds is never decided."),
        CodeDescription(
            code: "type.needless_default", severity: .warning, summary: "'??' on a value that is never unknown",
            rationale: "The default can never be used; remove it."),
    ]

    private static func describe(_ code: String, _ summary: String, _ rationale: String) -> CodeDescription {
        CodeDescription(code: DiagnosticCode(code), severity: .error, summary: summary, rationale: rationale)
    }

    static func at(
        _ code: DiagnosticCode, _ range: TextRange, _ message: String, hint: String? = nil,
        severity: Severity = .error
    ) -> Diagnostic {
        Diagnostic(
            code: code, severity: severity, file: "",
            location: SourceLocation(line: 1, column: range.start + 1),
            end: SourceLocation(line: 1, column: Swift.max(range.end, range.start + 1) + 1), message: message,
            hint: hint)
    }

    // MARK: reading

    static func unexpectedCharacter(_ scalar: Unicode.Scalar, _ range: TextRange) -> Diagnostic {
        at(
            "expr.unexpected_character", range, "unexpected character '\(scalar)'",
            hint: scalar == "#" ? "comments go on their own YAML line, outside the expression" : nil)
    }

    /// The ASCII character a full-width form (`：`, `＆`, `＝`), the ideographic space or a
    /// typographic quote stands for, or nil for any other character.
    static func asciiLookalike(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case fullWidthForms: Unicode.Scalar(scalar.value - 0xFEE0)
        case 0x3000: " "
        case 0x201C, 0x201D, 0x201E, 0x2033: "\""
        case 0x2018, 0x2019, 0x2032: "'"
        default: nil
        }
    }

    /// The full-width forms of ASCII `!` … `~` (U+FF01…U+FF5E), 0xFEE0 above their ASCII.
    private static let fullWidthForms: ClosedRange<UInt32> = 0xFF01...0xFF5E

    /// A run of look-alike characters, with the run written in ASCII as the fix.
    static func lookalikes(_ scalars: [Unicode.Scalar], _ range: TextRange) -> Diagnostic {
        let written = String(String.UnicodeScalarView(scalars))
        let ascii = String(String.UnicodeScalarView(scalars.map { asciiLookalike($0) ?? $0 }))
        var codes: [String] = []
        for scalar in scalars {
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
            if !codes.contains(code) { codes.append(code) }
        }
        // Input-method characters (full-width forms, the ideographic space) or smart quotes.
        let typed = scalars.map { fullWidthForms.contains($0.value) || $0.value == 0x3000 }
        let fullWidth = !typed.contains(false)
        let quotes = !typed.contains(true)
        let what = fullWidth ? "full-width" : quotes ? "a typographic quote" : "full-width or typographic"
        let why = fullWidth ? " (typed in the input method's full-width mode)" : quotes ? " (smart quotes, from a word processor or a chat app)" : ""
        return at(
            "expr.unexpected_character", range, "'\(written)' is \(what) (\(codes.joined(separator: ", "))); expressions are written in ASCII",
            hint: ascii.allSatisfy { $0 == " " } ? "write an ordinary space\(why)" : "write '\(ascii)'\(why)")
    }

    static func singleEquals(_ range: TextRange) -> Diagnostic {
        at("expr.unknown_operator", range, "'=' is not an operator", hint: "compare with '=='")
    }

    static func singleOperator(_ written: String, _ meant: String, _ range: TextRange) -> Diagnostic {
        at("expr.unknown_operator", range, "'\(written)' is not an operator", hint: "did you mean '\(meant)'?")
    }

    static func invalidTime(_ text: String, _ range: TextRange) -> Diagnostic {
        at("expr.invalid_time", range, "'\(text)' is not a time of day", hint: "times run from 00:00 to 23:59, or 24:00 for the end of the day")
    }

    static func invalidDuration(_ text: String, _ range: TextRange) -> Diagnostic {
        at("expr.invalid_duration", range, "'\(text)' is not a duration", hint: "write amounts with units h, m, s in that order: 90m, 1h30m, 45s")
    }

    static func invalidNumber(_ text: String, _ range: TextRange) -> Diagnostic {
        at("expr.invalid_number", range, "'\(text)' is not a number", hint: "durations use h, m or s (90m); names cannot start with a digit")
    }

    static func numberTooLarge(_ text: String, _ range: TextRange) -> Diagnostic {
        at("expr.invalid_number", range, "'\(text)' is too large", hint: "integers must fit in 64 bits")
    }

    static func invalidEscape(_ range: TextRange) -> Diagnostic {
        at("expr.invalid_escape", range, "unknown escape sequence", hint: "use \\\" \\' \\\\ \\n \\t or \\u{AC00}")
    }

    static func unterminatedString(_ range: TextRange) -> Diagnostic {
        at("expr.unterminated_string", range, "string is not closed", hint: "add the closing quote")
    }

    static func unexpectedToken(_ token: Token, expected: String) -> Diagnostic {
        at("expr.unexpected_token", token.range, "expected \(expected), found \(token.spelling)")
    }

    static func expectedOperand(after spelling: String, found token: Token) -> Diagnostic {
        at("expr.expected_operand", token.range, "expected an operand after \(spelling), found \(token.spelling)")
    }

    static func notCallable(_ range: TextRange) -> Diagnostic {
        at("expr.not_callable", range, "only functions can be called", hint: "functions are called by name: min(a, b)")
    }

    static func tooLong(_ length: Int, _ range: TextRange) -> Diagnostic {
        Diagnostic(
            code: "expr.too_long", severity: .error, file: "", location: SourceLocation(line: 1, column: 1),
            message: "expression is \(length) characters, over the limit of \(InputLimits.maxExpressionLength)",
            hint: "split it into several rules")
    }

    static func tooDeep(_ range: TextRange) -> Diagnostic {
        at("expr.too_deep", range, "expression nests deeper than \(InputLimits.maxExpressionDepth) levels", hint: "simplify it")
    }

    static func empty() -> Diagnostic {
        Diagnostic(
            code: "expr.empty", severity: .error, file: "", location: SourceLocation(line: 1, column: 1),
            message: "expression is empty", hint: "write a condition such as 'true'")
    }

    // MARK: checking

    static func unknownFact(_ name: String, suggestion: String?, _ range: TextRange) -> Diagnostic {
        at("type.unknown_fact", range, "unknown fact '\(name)'", hint: suggestion.map { "did you mean '\($0)'?" })
    }

    static func unknownRoutine(_ id: String, suggestion: String?, known: [String], _ range: TextRange) -> Diagnostic {
        at(
            "type.unknown_routine", range, "no routine has the id '\(id)'",
            hint: suggestion.map { "did you mean '\($0)'?" } ?? "routines are: \(known.joined(separator: ", "))")
    }

    static func unknownMember(_ path: String, member: String, suggestion: String?, members: [String] = [], _ range: TextRange) -> Diagnostic {
        let listed = members.isEmpty ? nil : "'\(path)' has: " + FactSchema.listed(members, of: path)
        return at(
            "type.unknown_fact", range, "'\(path)' has no member '\(member)'",
            hint: suggestion.map { "did you mean '\($0)'?" } ?? listed)
    }

    static func divisionByZero(_ range: TextRange) -> Diagnostic {
        at("type.division_by_zero", range, "division by zero: this fails every time it is evaluated", hint: "divide by a value that is never 0")
    }

    static func mismatch(_ message: String, _ range: TextRange, hint: String? = nil) -> Diagnostic {
        at("type.mismatch", range, message, hint: hint)
    }

    static func needsDefault(_ what: String, type: ExpressionType, suggestion: String, _ range: TextRange) -> Diagnostic {
        at(
            "type.needs_default", range, "'\(what)' may be unknown (\(type)) and needs a default here",
            hint: "give it a default with '??': \(suggestion)")
    }

    static func unknownEnumCase(_ value: String, type: EnumType, suggestion: String?, _ range: TextRange) -> Diagnostic {
        var hint = "\(type.name) is one of: \(type.cases.map { "\"\($0)\"" }.joined(separator: ", "))"
        if let suggestion { hint = "did you mean \"\(suggestion)\"? " + hint }
        return at("type.unknown_enum_case", range, "\"\(value)\" is not a case of \(type.name)", hint: hint)
    }

    static func unknownFunction(_ name: String, suggestion: String?, _ range: TextRange) -> Diagnostic {
        at(
            "type.unknown_function", range, "unknown function '\(name)'",
            hint: suggestion.map { "did you mean '\($0)'?" } ?? "functions are: \(Builtin.allCases.map(\.rawValue).joined(separator: ", "))")
    }

    static func wrongArguments(_ function: Builtin, found: [ExpressionType], _ range: TextRange) -> Diagnostic {
        at(
            "type.wrong_arguments", range,
            "\(function.rawValue) cannot take (\(found.map(\.description).joined(separator: ", ")))",
            hint: "\(function.rawValue) takes \(function.signature)")
    }

    static func notBoolean(_ type: ExpressionType, _ range: TextRange, hint: String?) -> Diagnostic {
        at("type.not_boolean", range, "condition must be a bool, but this is \(type)", hint: hint)
    }

    static func needlessDefault(_ type: ExpressionType, _ range: TextRange) -> Diagnostic {
        at(
            "type.needless_default", range, "the left side of '??' is never unknown (\(type))",
            hint: "remove '?? …'", severity: .warning)
    }

    static func expectedType(_ expected: ExpressionType, found: ExpressionType, context: String, _ range: TextRange) -> Diagnostic {
        at("type.mismatch", range, "\(context) must be \(expected), but this is \(found)")
    }
}

extension Diagnostic {
    /// Moves a diagnostic built against an expression's own text (line 1, column =
    /// offset + 1) into `file`, through `locate`, which maps a 0-based offset inside the
    /// expression to the file position of that character.
    public func placed(in file: String, locate: (Int) -> SourceLocation) -> Diagnostic {
        var copy = self
        copy.file = file
        copy.location = locate(location.column - 1)
        if let end {
            // `end` is exclusive: map the last character and step one past it.
            let last = locate(Swift.max(end.column - 2, location.column - 1))
            copy.end = SourceLocation(line: last.line, column: last.column + 1)
        }
        return copy
    }
}
