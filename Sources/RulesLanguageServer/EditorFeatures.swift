import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesPopulation
import RulesSimulator
import Ruleset

/// Completion, hover and go to definition for a cursor context, from what the workspace's
/// latest load decoded (whole, or the parts that load while a file is broken) and the file
/// kind's schema (the same the editor schemas are built from).
struct EditorFeatures {
    let ruleset: Ruleset
    /// The preview's sample days, lived on the last ruleset that loaded whole (the server
    /// keeps them per ruleset); nil while none has.
    let preview: (() -> (prepared: PreparedRuleset, samples: [TemplatePreview.Sample]))?

    /// Keys that hold expressions.
    static let expressionKeys: Set<String> = ["when", "at", "that"]

    static func schema(of kind: String) -> JSONValue {
        switch kind {
        case "routine": EditorSchemas.routine
        case "scenario": ScenarioSchema.schema
        case "population": PopulationSchema.schema
        default: EditorSchemas.rules
        }
    }

    /// The properties (key → schema) of the object at `parents` of `schema`, through lists,
    /// alternatives and maps of any key.
    static func properties(_ schema: JSONValue, _ parents: ArraySlice<String>) -> [(String, JSONValue)] {
        if case .array(let options)? = schema.member("oneOf") { return options.flatMap { properties($0, parents) } }
        guard let first = parents.first else {
            guard case .object(let properties)? = schema.member("properties") else { return [] }
            return properties
        }
        if first == "[]" { return schema.member("items").map { properties($0, parents.dropFirst()) } ?? [] }
        if case .object(let properties)? = schema.member("properties"), let child = properties.first(where: { $0.0 == first })?.1 {
            return Self.properties(child, parents.dropFirst())
        }
        return EditorSchemas.mapValues(of: schema).map { properties($0, parents.dropFirst()) } ?? []
    }

    // MARK: Completion

    /// A completion item: its label, LSP kind, detail, documentation and the text to insert.
    typealias Item = (label: String, kind: Int, detail: String, documentation: String, insert: String?)

    /// LSP completion items for `context`, filtered by the word typed.
    func completion(_ context: CursorContext) -> [JSONValue] {
        var items: [Item] = []
        switch context.place {
        case .key(let parents):
            var seen = Set<String>()
            for (key, schema) in Self.properties(Self.schema(of: context.kind), parents[...]) where seen.insert(key).inserted {
                items.append((key, 10, schema.member("type")?.stringValue ?? "", schema.member("description")?.stringValue ?? "", key + ": "))
            }
        case .value(let key, _) where key == "text" || key == "fallback": items = textCompletion(context)
        case .value(let key, let parents): items = valueCompletion(context, key: key, parents: parents)
        }
        var seen = Set<String>()
        return items.filter { $0.label.hasPrefix(context.word) && seen.insert($0.label).inserted }.prefix(500).map { item in
            var fields: [(String, JSONValue)] = [("label", .string(item.label)), ("kind", .int(item.kind)), ("detail", .string(item.detail))]
            if !item.documentation.isEmpty {
                fields.append(("documentation", .object([("kind", .string("markdown")), ("value", .string(item.documentation))])))
            }
            if let insert = item.insert { fields.append(("insertText", .string(insert))) }
            return .object(fields)
        }
    }

    /// In a template's text: facts inside `{`, filters after `|`, particles after `}`.
    private func textCompletion(_ context: CursorContext) -> [Item] {
        var items: [Item] = []
        // In a template's text: facts inside `{`, filters after `|`, particles after `}`.
        let open = context.before.lastIndex(of: "{")
        let close = context.before.lastIndex(of: "}")
        if let open, close.map({ $0 < open }) ?? true {
            if context.before[open...].contains("|") {
                items += TemplateFilter.allCases.map { ($0.rawValue, 3, "filter", Self.filterDocumentation($0), nil) }
            } else {
                items += FactDocumentation.rows(ruleset).map { ($0.name, 6, $0.type, $0.meaning, nil) }
            }
        } else if close != nil, context.before.hasSuffix("}" + context.word) {
            items += Particle.allCases.map { particle in
                (
                    particle.rawValue, 21, "particle",
                    "\(particle.forms.consonant) after a final consonant, \(particle.forms.vowel) after a vowel", nil
                )
            }
        }
        return items
    }

    /// After a key: an expression's operators, facts and functions (those that fit the left
    /// operand's type), else the ids and allowed values of the key.
    private func valueCompletion(_ context: CursorContext, key: String, parents: [String]) -> [Item] {
        var items: [Item] = []
        let left = context.before.trimmingCharacters(in: .whitespaces).unicodeScalars.reversed().prefix { CursorContext.isWordScalar($0) }
        let operand = String(String.UnicodeScalarView(left.reversed()))
        if Self.expressionKeys.contains(key), context.word.isEmpty, context.before.hasSuffix(" "), let fact = ruleset.schema.fact(named: operand) {
            // After an operand: the operators its type takes.
            items += Self.operators(for: fact.type).map { ($0.symbol, 24, "operator on \(fact.type)", $0.meaning, nil) }
        } else if Self.expressionKeys.contains(key) || context.word.contains(".") {
            // After `operand op`, the right side fits the operand's type.
            let expected = Self.expectedType(before: String(context.before.dropLast(context.word.count)), schema: ruleset.schema)
            for row in FactDocumentation.rows(ruleset) {
                if let expected, let fact = ruleset.schema.fact(named: row.name), !Self.fits(fact.type, expected) { continue }
                items.append(
                    (
                        row.name, 6, row.type,
                        row.meaning + (row.example.isEmpty ? "" : " (e.g. \(row.example))")
                            + (row.sensitive ? " — sensitive: never on the lock screen or widget" : ""), nil
                    ))
            }
            for builtin in Builtin.allCases where expected.map({ Self.returns(builtin, $0) }) ?? true {
                items.append((builtin.rawValue, 3, builtin.signature, "a function", nil))
            }
        } else {
            items += ids(for: key).map { ($0.id, 12, $0.detail, $0.documentation, nil) }
            // The schema's allowed values for the key.
            for (name, schema) in Self.properties(Self.schema(of: context.kind), parents[...]) where name == key {
                if case .array(let values)? = schema.member("enum") {
                    for value in values {
                        if let text = value.stringValue { items.append((text, 20, key, schema.member("description")?.stringValue ?? "", nil)) }
                    }
                }
            }
        }
        return items
    }

    /// The type the right side of `operand op ` must have, when the text before the cursor
    /// ends so and the operand is a fact.
    static func expectedType(before: String, schema: FactSchema) -> ExpressionType? {
        let parts = before.split(separator: " ").map(String.init)
        guard parts.count >= 2, ["<", "<=", ">", ">=", "==", "!=", "+", "-", "*", "/", "??"].contains(parts[parts.count - 1]) else { return nil }
        let operand = parts[parts.count - 2].trimmingCharacters(in: CharacterSet(charactersIn: "()!"))
        guard var type = schema.fact(named: operand)?.type else { return nil }
        if case .optional(let wrapped) = type { type = wrapped }
        return type
    }

    /// Whether a value of `type` may stand where `expected` is wanted (ints and numbers mix).
    static func fits(_ type: ExpressionType, _ expected: ExpressionType) -> Bool {
        var type = type
        if case .optional(let wrapped) = type { type = wrapped }
        let numeric: Set<ExpressionType> = [.int, .number]
        if numeric.contains(type), numeric.contains(expected) { return true }
        if case .enumeration = type, case .enumeration = expected { return type == expected }
        return type == expected
    }

    /// Whether `builtin` can give a value of `expected`.
    static func returns(_ builtin: Builtin, _ expected: ExpressionType) -> Bool {
        switch builtin {
        case .min, .max, .clamp, .abs: [.int, .number, .duration].contains(expected)
        case .round, .floor, .ceil, .count, .minutes, .hours: [.int, .number].contains(expected)
        case .contains: expected == .bool
        }
    }

    /// The operators a value of `type` takes on its left.
    static func operators(for type: ExpressionType) -> [(symbol: String, meaning: String)] {
        let compare = [("<", "less than"), ("<=", "at most"), (">", "more than"), (">=", "at least"), ("==", "equal"), ("!=", "not equal")]
        switch type {
        case .optional(let wrapped): return [("??", "a default when the value is unknown")] + operators(for: wrapped)
        case .int, .number: return compare + [("+", "plus"), ("-", "minus"), ("*", "times"), ("/", "divided by")]
        case .duration: return compare + [("+", "plus"), ("-", "minus")]
        case .time: return compare + [("+", "plus a duration"), ("-", "minus a duration")]
        case .date: return compare
        case .bool: return [("&&", "and"), ("||", "or"), ("==", "equal"), ("!=", "not equal")]
        default: return [("==", "equal"), ("!=", "not equal")]
        }
    }

    static func filterDocumentation(_ filter: TemplateFilter) -> String {
        switch filter {
        case .thousands: "3,240"
        case .hm: "5시간 30분, from minutes or a duration"
        case .k: "3.2k"
        case .percent: "50%, from a rate 0…1"
        case .list: "Korean list joining: 물 300ml, 양치, 300보"
        @unknown default: filter.rawValue
        }
    }

    /// The ids a key names: templates, routines, categories, settings, notifications, gates.
    func ids(for key: String) -> [(id: String, detail: String, documentation: String)] {
        switch key {
        case "template", "title":
            return ruleset.templates.map { ($0.id, "template · \($0.surface)", $0.source) }
        case "routine", "routines":
            return ruleset.routines.map { ($0.id, "routine · \($0.name)", "goal \(Value.formatNumber($0.goal)) \($0.unit.rawValue)") }
        case "category":
            return RoutineCategory.builtIn.map { ($0.rawValue, "category", "built in") }
                + ruleset.categories.map { ($0.id, "category", $0.description ?? "declared") }
        case "delivered", "suppressed", "notification":
            return ruleset.notifications.map { ($0.id, "notification · \($0.category)", "at \($0.at.source)") }
        case "reason":
            return GateReason.allCases.map { ($0.rawValue, "gate", "") }
        default:
            return []
        }
    }

    // MARK: Hover

    /// Markdown for the token under the cursor: a fact, a template, a routine, a setting, a
    /// notification, or the key's meaning.
    func hover(_ context: CursorContext) -> String? {
        let token = context.token
        if let row = FactDocumentation.rows(ruleset).first(where: { $0.name == token }) {
            var text = "**\(row.name)** · `\(row.type)`\n\n\(row.meaning)"
            if !row.example.isEmpty { text += "\n\ne.g. `\(row.example)`" }
            if row.sensitive { text += "\n\nSensitive: never shown on the lock screen or widget." }
            return text
        }
        if let template = ruleset.templates.first(where: { $0.id == token }) {
            let surface = ruleset.surface(template.surface)
            var text = "**template \(template.id)** · \(template.surface)\n\n> \(template.source)"
            // As the preview renders it, with each sample day's facts: the template as the last
            // whole ruleset has it (a partial ruleset lives no days).
            let lived = preview?()
            let shown = lived?.prepared.ruleset.templates.first { $0.id == template.id }
            if lived == nil || shown == nil {
                text += "\n\n(rendered previews wait until the ruleset loads without errors)"
            } else if shown?.source != template.source {
                text += "\n\nAs last loaded without errors:"
            }
            for sample in shown == nil ? [] : (lived?.samples ?? []) {
                guard let prepared = lived?.prepared, let template = shown else { break }
                switch TemplatePreview.render(template, prepared: prepared, facts: sample.facts) {
                case .text(let shown): text += "\n\n\(sample.name): \(shown)"
                case .redacted(let fallback): text += "\n\n\(sample.name): redacted — the surface shows \"\(fallback)\""
                case .unknown: text += "\n\n\(sample.name): not shown (a value is unknown then)"
                case .failed(let message): text += "\n\n\(sample.name): fails — \(message)"
                }
            }
            if surface?.sensitivity == .forbidden {
                text += "\n\nOn this surface a sensitive value is never shown: the fallback is \"\(surface?.fallback ?? "")\"."
            }
            return text
        }
        if let routine = ruleset.routine(token) {
            return
                "**routine \(routine.id)** · \(routine.name)\n\ngoal \(Value.formatNumber(routine.goal)) \(routine.unit.rawValue), \(routine.source.rawValue)"
                + (routine.core ? ", counts in completion_rate" : "")
        }
        if let rule = ruleset.notification(token) {
            return "**notification \(rule.id)** · \(rule.category)\n\nat `\(rule.at.source)`" + (rule.when.map { ", when `\($0.source)`" } ?? "")
                + ", template `\(rule.template)`"
        }
        if case .key(let parents) = context.place,
            let schema = Self.properties(Self.schema(of: context.kind), parents[...]).first(where: { $0.0 == token })?.1
        {
            return schema.member("description")?.stringValue.map { "**\(token)** — \($0)" }
        }
        if case .value(let key, let parents) = context.place, key == token,
            let schema = Self.properties(Self.schema(of: context.kind), parents[...]).first(where: { $0.0 == token })?.1
        {
            return schema.member("description")?.stringValue.map { "**\(token)** — \($0)" }
        }
        return nil
    }

    // MARK: Definition

    /// Where the token under the cursor is defined: a template, routine, notification, setting
    /// (also through `settings.<key>`) or declared category.
    func definition(_ context: CursorContext) -> Origin? {
        let token = context.token
        if let template = ruleset.templates.first(where: { $0.id == token }) { return template.origin }
        if let routine = ruleset.routine(token) { return routine.origin }
        if token.hasPrefix("routines."), let id = token.split(separator: ".").dropFirst().first, let routine = ruleset.routine(String(id)) {
            return routine.origin
        }
        if let rule = ruleset.notification(token) { return rule.origin }
        let key = token.hasPrefix("settings.") ? String(token.dropFirst("settings.".count)) : token
        if let setting = ruleset.settings.declaration(key) { return setting.origin }
        if let category = ruleset.categories.first(where: { $0.id == token }) { return category.origin }
        return nil
    }

    /// Every place that names `token` in the ruleset's files: templates by `template:`, routines,
    /// settings by `settings.<key>`, notifications by id (a text search of the files, whole words).
    func references(_ token: String, files: [(path: String, text: String)]) -> [(path: String, line: Int, column: Int, length: Int)] {
        guard !token.isEmpty, definition(CursorContext(place: .key(parents: []), word: token, token: token, kind: "rules")) != nil else { return [] }
        var found: [(String, Int, Int, Int)] = []
        for file in files {
            for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let scalars = Array(line.unicodeScalars)
                let target = Array(token.unicodeScalars)
                guard scalars.count >= target.count else { continue }
                var start = 0
                while start + target.count <= scalars.count {
                    if Array(scalars[start..<(start + target.count)]) == target,
                        start == 0 || !CursorContext.isWordScalar(scalars[start - 1]) || scalars[start - 1] == ".",
                        start + target.count == scalars.count || !CursorContext.isWordScalar(scalars[start + target.count])
                    {
                        let utf16 = scalars[..<start].reduce(0) { $0 + $1.utf16.count }
                        found.append((file.path, index, utf16, token.utf16.count))
                        start += target.count
                    } else {
                        start += 1
                    }
                }
            }
        }
        return found
    }
}
