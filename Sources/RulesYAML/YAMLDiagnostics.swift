import Foundation
import RulesDiagnostics

/// The YAML phase's message catalogue: every `yaml.*` diagnostic is built here.
public enum YAMLDiagnostics {
    public static let descriptions: [CodeDescription] = [
        CodeDescription(
            code: "yaml.syntax", severity: .error, summary: "the file is not valid YAML",
            rationale:
                "libyaml could not read the file. The message names what it found and where; the usual causes are a ': ' inside an unquoted value, a value starting with '!', '@', '&' or '*', and tabs used for indentation. Quote such values."
        ),
        CodeDescription(
            code: "yaml.duplicate_key", severity: .error, summary: "a mapping has the same key twice",
            rationale: "YAML parsers disagree on which of two equal keys wins, so a rule file must not rely on either. Remove or rename one of them."),
        CodeDescription(
            code: "yaml.alias_budget", severity: .error, summary: "aliases expand past the node budget",
            rationale:
                "Anchors and aliases can multiply a small file into billions of nodes ('billion laughs'). Expansion stops at \(InputLimits.maxAliasExpansion) nodes per document; write the values out or use fewer aliases."
        ),
        CodeDescription(
            code: "yaml.unknown_alias", severity: .error, summary: "an alias names no anchor defined before it",
            rationale: "An alias '*name' must follow an anchor '&name' in the same document."),
        CodeDescription(
            code: "yaml.too_deep", severity: .error, summary: "mappings and lists nest too deeply",
            rationale: "Nesting deeper than \(InputLimits.maxNestingDepth) levels is refused to keep parsing bounded; rule files never need it."),
        CodeDescription(
            code: "yaml.too_large", severity: .error, summary: "the file is larger than the size limit",
            rationale: "Files over \(InputLimits.maxFileBytes / 1024 / 1024) MiB are refused before parsing; split the file."),
        CodeDescription(
            code: "yaml.invalid_utf8", severity: .error, summary: "the file is not UTF-8",
            rationale: "Rule files are UTF-8 text. Re-save the file as UTF-8 (editors call it 'UTF-8 without BOM')."),
    ]

    public static func tooLarge(file: String, bytes: Int) -> Diagnostic {
        Diagnostic(
            code: "yaml.too_large", severity: .error, file: file, location: .fileStart,
            message: "file is \(bytes) bytes, over the limit of \(InputLimits.maxFileBytes) bytes",
            hint: "split it into several files; every file under the directory is read")
    }

    static func invalidUTF8(file: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            code: "yaml.invalid_utf8", severity: .error, file: file, location: location,
            message: "bytes here are not valid UTF-8",
            hint: "save the file as UTF-8")
    }

    static func duplicateKey(file: String, key: String, range: SourceRange, firstLine: Int) -> Diagnostic {
        Diagnostic(
            code: "yaml.duplicate_key", severity: .error, file: file, range: range,
            message: "duplicate key '\(key)' (first defined on line \(firstLine))",
            hint: "remove one of the two, or rename it")
    }

    static func aliasBudget(file: String, alias: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            code: "yaml.alias_budget", severity: .error, file: file, range: range,
            message: "alias '*\(alias)' expands the document past \(InputLimits.maxAliasExpansion) nodes",
            hint: "write the values out instead of nesting aliases")
    }

    static func unknownAlias(file: String, alias: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            code: "yaml.unknown_alias", severity: .error, file: file, range: range,
            message: "alias '*\(alias)' refers to no anchor defined before it",
            hint: "define '&\(alias)' earlier in the same document, or quote the text if '*' was meant literally")
    }

    static func tooDeep(file: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            code: "yaml.too_deep", severity: .error, file: file, location: location,
            message: "nesting is deeper than \(InputLimits.maxNestingDepth) levels",
            hint: "flatten the structure; rule files never nest this deep")
    }

    /// A libyaml error, with a hint for the usual traps when the text shows one.
    static func syntax(
        file: String, problem: String, context: String?, contextLine: Int?, at location: SourceLocation,
        sourceLine: Substring?, contextSourceLine: Substring? = nil, previousLine: Substring? = nil
    ) -> Diagnostic {
        var message = problem
        if let context, !context.isEmpty {
            message += " (\(context)"
            if let contextLine { message += " started on line \(contextLine)" }
            message += ")"
        }
        return Diagnostic(
            code: "yaml.syntax", severity: .error, file: file, location: location, message: message,
            hint: fullWidthColonHint(
                problem: problem, lines: [(location.line, sourceLine), (contextLine, contextSourceLine), (location.line - 1, previousLine)])
                ?? indentationHint(problem: problem, line: sourceLine, previous: previousLine)
                ?? syntaxHint(problem: problem, context: context, column: location.column, sourceLine: sourceLine))
    }

    /// A key written with a full-width colon (`when：`, a Korean input method's full-width
    /// mode) is no key to YAML: libyaml then misses a ':' or finds one where a value goes, on
    /// this line or a later one, and the fix is on the line with `：` (this line, the line the
    /// key started on, or the one above).
    static func fullWidthColonHint(problem: String, lines: [(number: Int?, text: Substring?)]) -> String? {
        let misread = ["could not find expected ':'", "did not find expected key", "mapping values are not allowed"]
        guard misread.contains(where: problem.contains) else { return nil }
        for (number, text) in lines {
            guard let number, let text, text.unicodeScalars.contains("\u{FF1A}") else { continue }
            return "line \(number) has a full-width '：' (U+FF1A), which YAML does not read as ':'; write ': ' after the key"
        }
        return nil
    }

    /// `surface:` indented further than the `- id:` above it: YAML reads the line as more of
    /// the value above and then stumbles on its ':'. The fix is the indentation, not quotes.
    static func indentationHint(problem: String, line: Substring?, previous: Substring?) -> String? {
        guard problem.contains("mapping values are not allowed"), let line, let previous else { return nil }
        func key(_ text: Substring) -> (column: Int, name: String, hasValue: Bool)? {
            let scalars = Array(text.unicodeScalars)
            var index = 0
            while index < scalars.count, scalars[index] == " " { index += 1 }
            if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] == " " {
                index += 2
                while index < scalars.count, scalars[index] == " " { index += 1 }
            }
            let start = index
            while index < scalars.count, scalars[index] == "_" || scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
                index += 1
            }
            guard index > start, index + 1 < scalars.count, scalars[index] == ":", scalars[index + 1] == " " else { return nil }
            var name = String.UnicodeScalarView()
            name.append(contentsOf: scalars[start..<index])
            let rest = scalars[(index + 2)...].filter { $0 != " " }
            return (start + 1, String(name), !rest.isEmpty && rest.first != "#")
        }
        guard let here = key(line), let above = key(previous), above.hasValue, here.column > above.column else { return nil }
        return "'\(here.name)' is indented more (column \(here.column)) than '\(above.name)' on the line above (column \(above.column)): "
            + "keys of one mapping start at the same column"
    }

    /// Recognises the traps designers fall into and says how to get out.
    static func syntaxHint(problem: String, context: String?, column: Int, sourceLine: Substring?) -> String? {
        let line = sourceLine.map(String.init) ?? ""
        let scalars = Array(line.unicodeScalars)
        let here: Unicode.Scalar? = column >= 1 && column <= scalars.count ? scalars[column - 1] : nil
        if problem.contains("tab") || here == "\t" {
            return "YAML does not allow tabs for indentation; indent with spaces"
        }
        if let here, here == "\u{3000}" || here == "\u{A0}" {
            let name = here == "\u{3000}" ? "a full-width space (U+3000)" : "a no-break space (U+00A0, often pasted from a web page)"
            return "\(name) is not a space to YAML; indent with ordinary spaces"
        }
        if problem.contains("mapping values are not allowed") {
            return "a value containing ': ' must be quoted" + quotedForm(of: line).map { ": \($0)" }.orEmpty
        }
        if problem.contains("cannot start any token"), let here, here == "@" || here == "`" {
            return "a plain value cannot start with '\(here)'; quote it" + quotedForm(of: line).map { ": \($0)" }.orEmpty
        }
        let context = context ?? ""
        if context.contains("tag") || problem.contains("tag") {
            return "'!' at the start of a value begins a YAML tag, not a negation; quote the value"
                + quotedForm(of: line).map { ": \($0)" }.orEmpty
        }
        if context.contains("anchor") || context.contains("alias") {
            return "'&' and '*' at the start of a value begin an anchor or alias; quote the value"
                + quotedForm(of: line).map { ": \($0)" }.orEmpty
        }
        if problem.contains("did not find expected '-' indicator") || problem.contains("block sequence entries are not allowed") {
            return "check the indentation: every '- ' item of a list starts at the same column, under its key"
        }
        if problem.contains("did not find expected key") || problem.contains("could not find expected ':'") {
            return "check the indentation of this line against the lines above it"
        }
        if problem.contains("did not find expected node content") {
            return "a value starting with '{', '[', '%', '|' or '>' has a special meaning in YAML; quote it"
        }
        return nil
    }

    /// `key: "value"` for a line `key: value` (the value quoted with escapes), if the line
    /// has that shape.
    static func quotedForm(of line: String) -> String? {
        guard let colon = line.range(of: ": ") else { return nil }
        let key = line[..<colon.lowerBound]
        let value = line[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty, !key.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\(key.trimmingCharacters(in: .whitespaces)): \"\(escaped)\""
    }
}

extension Optional where Wrapped == String {
    fileprivate var orEmpty: String { self ?? "" }
}
