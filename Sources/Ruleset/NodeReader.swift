import RulesDiagnostics
import RulesDocument
import RulesExpression

/// Reads model values out of nodes for one file, collecting diagnostics. Scalars are read
/// by the type the key expects, never by YAML 1.1 implicit typing; numbers and truth values
/// are written bare (a quoted `"0.5"` is text and refused), text may be quoted or not.
/// Both front ends (YAML files, JSON bundles) decode through this one reader.
package struct NodeReader {
    package let file: String
    /// The file's text, for exact positions inside expressions (nil: positions fall back
    /// to the start of the scalar).
    package let source: SourceFile?
    package var diagnostics: [Diagnostic] = []

    package init(file: String, source: SourceFile?) {
        self.file = file
        self.source = source
    }

    package mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// The keys of a mapping, checked against `allowed` (unknown keys reported with
    /// did-you-mean) and `required`. Nil when the node is not a mapping.
    package mutating func fields(
        _ node: YAMLNode, _ context: String, allowed: [String], required: [String] = []
    ) -> Fields? {
        guard let pairs = node.pairs else {
            report(RulesetDiagnostics.wrongType(file, node, expected: "a mapping for \(context)"))
            return nil
        }
        var fields = Fields(node: node)
        var previous: String?
        for pair in pairs {
            guard let key = pair.key.scalar else {
                report(RulesetDiagnostics.wrongType(file, pair.key, expected: "a key"))
                continue
            }
            defer { previous = key }
            guard allowed.contains(key) else {
                // `{ text: 스트레칭 10분만, 처리하고 귀환해. }`: the comma ended the value, and
                // the rest of the sentence became a key without a value.
                if node.isFlow, pair.value.isNull, let before = previous, !NodeReader.isIdentifier(key), !key.contains("：") {
                    var diagnostic = RulesetDiagnostics.unknownKey(file, pair.key, in: context, allowed: allowed)
                    diagnostic.hint = "a comma ends a value inside { … }: quote the value of '\(before)' (\(before): \"…, \(key)\")"
                    report(diagnostic)
                    continue
                }
                report(RulesetDiagnostics.unknownKey(file, pair.key, in: context, allowed: allowed))
                continue
            }
            fields.values[key] = pair.value
            fields.keys[key] = pair.key
        }
        for key in required where fields.values[key] == nil {
            report(RulesetDiagnostics.missingKey(file, node, key: key, in: context))
        }
        return fields
    }

    /// A scalar's text, refusing collections, nothing, tags and anchors.
    package mutating func scalar(_ node: YAMLNode, key: String, expected: String) -> String? {
        if node.tag != nil, node.scalar != nil {
            report(RulesetDiagnostics.taggedValue(file, node, key: key))
            return nil
        }
        if node.anchor != nil || node.isAlias {
            report(RulesetDiagnostics.anchoredValue(file, node, key: key))
            return nil
        }
        guard let text = node.scalar, !node.isNull || node.scalarStyle?.isQuoted == true else {
            report(RulesetDiagnostics.wrongType(file, node, expected: expected))
            return nil
        }
        return text
    }

    package mutating func string(_ node: YAMLNode, key: String) -> String? {
        guard let text = scalar(node, key: key, expected: "text") else { return nil }
        if text.isEmpty {
            report(RulesetDiagnostics.wrongType(file, node, expected: "non-empty text"))
            return nil
        }
        return text
    }

    /// An id: `[a-z][a-z0-9_]*`.
    package mutating func identifier(_ node: YAMLNode, key: String) -> String? {
        guard let text = scalar(node, key: key, expected: "an id") else { return nil }
        guard NodeReader.isIdentifier(text) else {
            report(RulesetDiagnostics.invalidID(file, node, text))
            return nil
        }
        return text
    }

    package static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first >= "a", first <= "z" else { return false }
        return text.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "_" }
    }

    /// A number's or a truth value's text: a plain scalar. A quoted one (`"0.5"`) is text in
    /// YAML, in JSON and to the schemas editors check with; every file refuses it alike, so no
    /// file is read as one thing by the checker and another by the editor.
    mutating func bare(_ node: YAMLNode, key: String, expected: String) -> String? {
        guard let text = scalar(node, key: key, expected: expected) else { return nil }
        guard node.scalarStyle?.isQuoted != true else {
            report(
                RulesetDiagnostics.wrongType(
                    file, node, expected: expected, hint: "remove the quotes: '\(key): \(text)' (quoted, YAML reads it as text)"))
            return nil
        }
        return text
    }

    /// A whole number within `minimum`…`maximum` (by default ±`InputLimits.maxNumber`).
    package mutating func int(_ node: YAMLNode, key: String, minimum: Int? = nil, maximum: Int? = nil) -> Int? {
        guard let text = bare(node, key: key, expected: "a whole number") else { return nil }
        let digits = text.replacingOccurrences(of: "_", with: "")
        guard let value = Int(digits) else {
            // A whole number too large for any integer (99999999999999999999, 1e19, 1e400) is
            // out of range, not of the wrong type.
            if let huge = Self.decimal(digits), huge.rounded() == huge, abs(huge) > Double(InputLimits.maxNumber) {
                _ = checkRange(
                    huge, node, key: key, minimum: Double(minimum ?? -InputLimits.maxNumber), maximum: Double(maximum ?? InputLimits.maxNumber))
                return nil
            }
            report(RulesetDiagnostics.wrongType(file, node, expected: "a whole number"))
            return nil
        }
        return checkRange(
            Double(value), node, key: key, minimum: Double(minimum ?? -InputLimits.maxNumber), maximum: Double(maximum ?? InputLimits.maxNumber)
        ).map { _ in value }
    }

    /// A number within `minimum`…`maximum` (by default ±`InputLimits.maxNumber`); `60%`
    /// reads as 0.6.
    package mutating func number(_ node: YAMLNode, key: String, minimum: Double? = nil, maximum: Double? = nil) -> Double? {
        guard let text = bare(node, key: key, expected: "a number") else { return nil }
        var value: Double?
        if text.hasSuffix("%") {
            value = Self.decimal(String(text.dropLast())).map { $0 / 100 }
        } else {
            value = Self.decimal(text.replacingOccurrences(of: "_", with: ""))
        }
        guard let value else {
            report(RulesetDiagnostics.wrongType(file, node, expected: "a number"))
            return nil
        }
        // Past Double's range (1e400) a number is out of range: reported as such, never kept.
        guard
            let checked = checkRange(
                value, node, key: key, minimum: minimum ?? -Double(InputLimits.maxNumber), maximum: maximum ?? Double(InputLimits.maxNumber))
        else { return nil }
        guard checked.isFinite else {
            report(RulesetDiagnostics.outOfRange(file, node, "'\(key)' is too large, found \(node.scalar ?? "")"))
            return nil
        }
        return checked
    }

    /// `text` as a decimal number, infinite past Double's range (`1e400`); nil for anything
    /// Double would also read that is no decimal: `nan`, `inf`, hexadecimal.
    private static func decimal(_ text: String) -> Double? {
        let lowered = text.lowercased()
        guard !lowered.contains("n"), !lowered.contains("x") else { return nil }
        return Double(text)
    }

    private mutating func checkRange(_ value: Double, _ node: YAMLNode, key: String, minimum: Double?, maximum: Double?) -> Double? {
        if let minimum, value < minimum {
            report(RulesetDiagnostics.outOfRange(file, node, "'\(key)' must be at least \(Value.formatNumber(minimum)), found \(node.scalar ?? "")"))
            return nil
        }
        if let maximum, value > maximum {
            report(RulesetDiagnostics.outOfRange(file, node, "'\(key)' must be at most \(Value.formatNumber(maximum)), found \(node.scalar ?? "")"))
            return nil
        }
        return value
    }

    /// `true` or `false` only (`yes`/`no`/`on` are YAML 1.1 traps).
    package mutating func bool(_ node: YAMLNode, key: String) -> Bool? {
        guard let text = bare(node, key: key, expected: "true or false") else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default:
            report(RulesetDiagnostics.wrongType(file, node, expected: "true or false", hint: "write true or false"))
            return nil
        }
    }

    /// A time of day `HH:MM`, 00:00–24:00, as seconds since midnight.
    package mutating func time(_ node: YAMLNode, key: String) -> Int? {
        guard let text = scalar(node, key: key, expected: "a time like 20:30") else { return nil }
        return NodeReader.readTime(text)
            ?? {
                if NodeReader.looksLikeTime(text) {
                    report(
                        RulesetDiagnostics.outOfRange(
                            file, node, "'\(text)' is not a time of day",
                            hint: "times run from 00:00 to 23:59, or 24:00 for the end of the day"))
                } else {
                    report(RulesetDiagnostics.wrongType(file, node, expected: "a time like 20:30"))
                }
                return nil
            }()
    }

    package static func readTime(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), hours >= 0, minutes >= 0,
            minutes < 60, hours < 24 || (hours == 24 && minutes == 0)
        else { return nil }
        return hours * 3600 + minutes * 60
    }

    package static func looksLikeTime(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    /// A duration `90m`, `1h30m`, `45s`, in seconds.
    package mutating func duration(_ node: YAMLNode, key: String) -> Int? {
        guard let text = scalar(node, key: key, expected: "a duration like 90m") else { return nil }
        let (tokens, problems) = Lexer.tokenize(text)
        guard problems.isEmpty, tokens.count == 2, case .duration(let seconds) = tokens[0].kind else {
            report(
                RulesetDiagnostics.wrongType(
                    file, node, expected: "a duration like 90m or 1h30m",
                    hint: Int(text) != nil ? "add a unit: \(text)m" : nil))
            return nil
        }
        guard seconds <= InputLimits.maxDurationSeconds, seconds >= -InputLimits.maxDurationSeconds else {
            report(RulesetDiagnostics.outOfRange(file, node, "'\(key)' must be at most \(InputLimits.maxDurationSeconds) seconds, found \(text)"))
            return nil
        }
        return seconds
    }

    /// One of an enum's raw values, with did-you-mean.
    package mutating func choice<E: RawRepresentable & CaseIterable>(_ node: YAMLNode, key: String, what: String) -> E?
    where E.RawValue == String {
        guard let text = scalar(node, key: key, expected: what) else { return nil }
        guard let value = E(rawValue: text) else {
            report(RulesetDiagnostics.unknownValue(file, node, what: what, allowed: E.allCases.map(\.rawValue)))
            return nil
        }
        return value
    }

    /// One of `allowed`, with did-you-mean.
    package mutating func choice(_ node: YAMLNode, key: String, what: String, allowed: [String]) -> String? {
        guard let text = scalar(node, key: key, expected: what) else { return nil }
        guard allowed.contains(text) else {
            report(RulesetDiagnostics.unknownValue(file, node, what: what, allowed: allowed))
            return nil
        }
        return text
    }

    /// The items of a list (a single scalar is not a list).
    package mutating func list(_ node: YAMLNode, key: String) -> [YAMLNode]? {
        guard let items = node.items else {
            report(RulesetDiagnostics.wrongType(file, node, expected: "a list for '\(key)'", hint: "write a list: [a, b]"))
            return nil
        }
        return items
    }

    /// Parses, checks and compiles an expression, reporting every problem at its exact
    /// place inside the scalar.
    package mutating func expression(
        _ node: YAMLNode, key: String, schema: FactSchema, expecting: Checker.Expectation
    ) -> CompiledExpression? {
        guard let text = scalar(node, key: key, expected: "an expression") else { return nil }
        let (compiled, problems) = CompiledExpression.compile(text, schema: schema, expecting: expecting)
        if !problems.isEmpty {
            let positions = source.map { ScalarPositions(node: node, source: $0) }
            for problem in problems {
                report(problem.placed(in: file) { offset in positions?.location(at: offset) ?? node.start })
            }
        }
        return compiled
    }

    package func origin(_ node: YAMLNode) -> Origin { Origin(file: file, location: node.start) }
}

/// The values of a mapping by key, with the key nodes for positions.
package struct Fields {
    package let node: YAMLNode
    package var values: [String: YAMLNode] = [:]
    package var keys: [String: YAMLNode] = [:]

    package subscript(key: String) -> YAMLNode? { values[key] }
}
