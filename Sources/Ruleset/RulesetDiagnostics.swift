import RulesDiagnostics
import RulesDocument

/// The ruleset phase's message catalogue (`ruleset.*`).
package enum RulesetDiagnostics {
    package static let descriptions: [CodeDescription] = [
        d(
            "ruleset.unknown_key", "a key the file kind does not have",
            "Every key of a rule file is listed in docs/REFERENCE.md and in the JSON Schemas of `rules schema`; an unknown key is usually a typo and would otherwise be ignored silently."
        ),
        d("ruleset.missing_key", "a required key is missing", "The message names the key and what it is for."),
        d(
            "ruleset.wrong_type", "a value of the wrong kind",
            "Scalars are read as the type the key expects (a number, a time like 20:30, a duration like 90m, true/false), never by YAML's implicit typing. Numbers and true/false are written bare in every file: a quoted \"0.5\" is text (to YAML, JSON and the editors' schemas alike) and refused."
        ),
        d("ruleset.out_of_range", "a value outside its allowed range", "Times run 00:00–24:00, counts are not negative, ratios lie in their range."),
        d("ruleset.unknown_value", "a value that is not one of the allowed words", "The message lists the allowed values."),
        d(
            "ruleset.invalid_id", "an id that is not [a-z][a-z0-9_]*",
            "Ids appear in expressions (`routines.<id>`) and in notification request ids, so they are lower-case words."),
        d("ruleset.duplicate_id", "two entries with the same id", "Ids are unique across all files of the ruleset."),
        d(
            "ruleset.duplicate_section", "a singleton section defined twice",
            "risk, route, sticky, light, recovery, judgement, policy, surfaces and settings may each be defined once across the ruleset."),
        d(
            "ruleset.unknown_reference", "a reference to a routine, item, template, surface, setting or tone that does not exist",
            "References are checked at load time so the engine never meets a dangling one."),
        d("ruleset.unsupported_version", "a `version:` other than 1", "This engine reads version 1 of the rule format."),
        d(
            "ruleset.tagged_value", "a YAML tag where a plain value was meant",
            "A value starting with '!' is a YAML tag, not a negation: quote it (`when: \"!settings.quiet\"`)."),
        d(
            "ruleset.anchored_value", "a YAML anchor or alias where a plain value was meant",
            "A value starting with '&' or '*' is a YAML anchor or alias; rule files do not use them. Quote the value or write it out."),
        d(
            "ruleset.invalid_template", "a template text with an unreadable placeholder",
            "Placeholders are `{expression}` or `{expression|filter}`; write `{{` and `}}` for literal braces."),
        d(
            "ruleset.no_files", "a ruleset directory without rule files",
            "The directory has no .yaml files under routines/, rules/ or templates/; it is not loaded as an empty ruleset."),
        d(
            "ruleset.not_a_document", "a document that is not a mapping",
            "A rule document is a mapping of sections; a routines document is a routine or a list of routines."),
    ]

    private static func d(_ code: String, _ summary: String, _ rationale: String) -> CodeDescription {
        CodeDescription(code: DiagnosticCode(code), severity: .error, summary: summary, rationale: rationale)
    }

    package static func error(_ code: DiagnosticCode, _ file: String, _ node: YAMLNode, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: .error, file: file, range: node.range, message: message, hint: hint)
    }

    package static func unknownKey(_ file: String, _ key: YAMLNode, in context: String, allowed: [String]) -> Diagnostic {
        let name = key.scalar ?? "?"
        // `when： x` (a full-width colon) is one plain scalar to YAML, not a key and a value.
        let fullWidth = name.firstRange(of: "：").map { range -> String in
            let written = name[..<range.lowerBound].split(separator: " ").last ?? ""
            return "'：' is full-width (U+FF1A), so YAML read one word, not a key and its value: write '\(written): …'"
        }
        let hint =
            fullWidth ?? Suggestions.nearest(to: name, among: allowed).map { "did you mean '\($0)'?" }
            ?? "\(context) takes: \(allowed.joined(separator: ", "))"
        return error("ruleset.unknown_key", file, key, "unknown key '\(name)' in \(context)", hint: hint)
    }

    package static func missingKey(_ file: String, _ node: YAMLNode, key: String, in context: String, hint: String? = nil) -> Diagnostic {
        var anchor = node
        anchor.range = SourceRange(at: node.start)
        return error("ruleset.missing_key", file, anchor, "\(context) needs '\(key)'", hint: hint)
    }

    package static func wrongType(_ file: String, _ node: YAMLNode, expected: String, hint: String? = nil) -> Diagnostic {
        let found: String
        if let text = node.scalar { found = node.isNull ? "nothing" : "'\(quoted(text))'" } else { found = node.kindDescription }
        return error("ruleset.wrong_type", file, node, "expected \(expected), found \(found)", hint: hint)
    }

    /// A scalar as a message quotes it: its first line, at most 60 characters, `…` where cut.
    /// A file read by mistake (a link, a wrong path) is never printed whole: a plain scalar
    /// folds every line of it into one.
    static func quoted(_ text: String) -> String {
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r" }
        if firstLine.count > 60 { return String(firstLine.prefix(60)) + "…" }
        return firstLine.count < text.count ? String(firstLine) + "…" : text
    }

    package static func outOfRange(_ file: String, _ node: YAMLNode, _ message: String, hint: String? = nil) -> Diagnostic {
        error("ruleset.out_of_range", file, node, message, hint: hint)
    }

    package static func unknownValue(_ file: String, _ node: YAMLNode, what: String, allowed: [String], hint extra: String? = nil) -> Diagnostic {
        let value = node.scalar ?? "?"
        var hint = "\(what) is one of: \(allowed.joined(separator: ", "))"
        if let near = Suggestions.nearest(to: value, among: allowed) { hint = "did you mean '\(near)'? " + hint }
        if let extra { hint += "; or \(extra)" }
        return error("ruleset.unknown_value", file, node, "'\(value)' is not a valid \(what)", hint: hint)
    }

    package static func invalidID(_ file: String, _ node: YAMLNode, _ id: String) -> Diagnostic {
        let suggestion = id.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        return error(
            "ruleset.invalid_id", file, node, "'\(id)' is not a valid id",
            hint: "ids are lower-case letters, digits and '_', starting with a letter, e.g. '\(suggestion)'")
    }

    package static func duplicateID(_ file: String, _ node: YAMLNode, kind: String, id: String, first: Origin) -> Diagnostic {
        error(
            "ruleset.duplicate_id", file, node, "\(kind) '\(id)' is defined twice (first at \(first.file):\(first.location.line))",
            hint: "give one of them another id")
    }

    package static func duplicateSection(_ file: String, _ key: YAMLNode, first: Origin) -> Diagnostic {
        error(
            "ruleset.duplicate_section", file, key,
            "section '\(key.scalar ?? "")' is already defined at \(first.file):\(first.location.line)",
            hint: "merge the two definitions into one")
    }

    package static func unknownReference(_ file: String, _ node: YAMLNode, kind: String, name: String, known: [String]) -> Diagnostic {
        var hint = known.isEmpty ? "no \(kind) is defined" : "known: \(known.joined(separator: ", "))"
        if let near = Suggestions.nearest(to: name, among: known) { hint = "did you mean '\(near)'?" }
        return error("ruleset.unknown_reference", file, node, "no \(kind) named '\(name)'", hint: hint)
    }

    package static func unsupportedVersion(_ file: String, _ node: YAMLNode) -> Diagnostic {
        error(
            "ruleset.unsupported_version", file, node, "version '\(node.scalar ?? "?")' is not supported",
            hint: "this engine reads 'version: 1'")
    }

    package static func taggedValue(_ file: String, _ node: YAMLNode, key: String) -> Diagnostic {
        let tag = node.tag ?? "!"
        let text = node.scalar ?? ""
        let written = text.isEmpty ? tag : "\(tag) \(text)"
        return error(
            "ruleset.tagged_value", file, node, "'\(tag)' is read by YAML as a tag, not as part of the value",
            hint: "quote the value: \(key): \"\(written)\"")
    }

    package static func anchoredValue(_ file: String, _ node: YAMLNode, key: String) -> Diagnostic {
        let message =
            node.isAlias
            ? "an alias ('*') stands where a plain value was meant"
            : "'&\(node.anchor ?? "")' is read by YAML as an anchor, not as part of the value"
        return error(
            "ruleset.anchored_value", file, node, message,
            hint: "quote the value, or write it out: \(key): \"…\"")
    }

    package static func invalidTemplate(_ file: String, _ node: YAMLNode, _ message: String, hint: String? = nil) -> Diagnostic {
        error("ruleset.invalid_template", file, node, message, hint: hint)
    }

    package static func notADocument(_ file: String, _ node: YAMLNode, expected: String) -> Diagnostic {
        error("ruleset.not_a_document", file, node, "expected \(expected), found \(node.kindDescription)")
    }
}
