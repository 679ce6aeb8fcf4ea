import RulesDiagnostics
import RulesDocument
import RulesExpression

extension RulesetDecoder {
    static let routineKeys = [
        "id", "name", "category", "source", "unit", "goal", "quick_log", "core", "default_enabled",
        "sensitive", "items", "routes", "description", "version",
    ]

    mutating func decodeRoutine(_ node: YAMLNode, _ reader: inout NodeReader) {
        declare(node, kind: "routine")
        guard
            let fields = reader.fields(
                node, "a routine", allowed: RulesetDecoder.routineKeys,
                required: ["id", "name", "category", "source", "unit"])
        else { return }
        if let version = fields["version"], version.scalar != "1" {
            reader.report(RulesetDiagnostics.unsupportedVersion(reader.file, version))
        }
        guard let idNode = fields["id"], let id = reader.identifier(idNode, key: "id") else { return }
        let name = fields["name"].flatMap { reader.string($0, key: "name") }
        let categoryNode = fields["category"]
        let category = categoryNode.flatMap { reader.identifier($0, key: "category") }.map(RoutineCategory.init(rawValue:))
        let source: RoutineSource? = fields["source"].flatMap { reader.choice($0, key: "source", what: "routine source") }
        let unit: RoutineUnit? = fields["unit"].flatMap { reader.choice($0, key: "unit", what: "unit") }
        let items = fields["items"].map { Self.checklist($0, &reader) } ?? []
        var goal = fields["goal"].flatMap { reader.number($0, key: "goal") }
        if goal == nil, fields["goal"] == nil { goal = Self.defaultGoal(items: items, unit: unit, routine: id, node: node, &reader) }
        var quickLog: [Double] = []
        if let quick = fields["quick_log"], let list = reader.list(quick, key: "quick_log") {
            quickLog = list.compactMap { reader.number($0, key: "quick_log") }
        }
        var lightGoal: Double?
        if let routes = fields["routes"], let routeFields = reader.fields(routes, "routes of a routine", allowed: ["light"]),
            let light = routeFields["light"],
            let lightFields = reader.fields(light, "the light route of a routine", allowed: ["goal"], required: ["goal"])
        {
            lightGoal = lightFields["goal"].flatMap { reader.number($0, key: "goal") }
        }
        let core = fields["core"].flatMap { reader.bool($0, key: "core") } ?? true
        let defaultEnabled = fields["default_enabled"].flatMap { reader.bool($0, key: "default_enabled") } ?? true
        let sensitive = fields["sensitive"].flatMap { reader.bool($0, key: "sensitive") } ?? false
        _ = fields["description"].flatMap { reader.string($0, key: "description") }
        guard let name, let category, let source, let unit, let goal else { return }
        guard isNewID(id, kind: "routine", node: idNode, &reader) else { return }
        var routine = Routine(
            id: id, name: name, category: category, source: source, unit: unit, goal: goal, quickLog: quickLog,
            core: core, defaultEnabled: defaultEnabled, sensitive: sensitive, items: items, lightGoal: lightGoal,
            origin: reader.origin(idNode))
        routine.goalOrigin = fields["goal"].map { reader.origin($0) }
        if !RoutineCategory.builtIn.contains(category), let categoryNode {
            pendingCategories.append((ruleset.routines.count, categoryNode, NodeReader(file: reader.file, source: reader.source)))
        }
        ruleset.routines.append(routine)
    }

    /// A routine's checklist items, each once (a repeated item is reported).
    static func checklist(_ itemsNode: YAMLNode, _ reader: inout NodeReader) -> [String] {
        guard let list = reader.list(itemsNode, key: "items") else { return [] }
        var items: [String] = []
        // Looked up in a set (which compares as `==` does: canonical equivalence), not in the
        // items so far: that was quadratic (20,000 items took 4 s to check).
        var seen = Set<String>()
        for item in list {
            guard let text = reader.string(item, key: "items") else { continue }
            if !seen.insert(text).inserted {
                reader.report(
                    RulesetDiagnostics.duplicateID(reader.file, item, kind: "checklist item", id: text, first: reader.origin(itemsNode)))
            } else {
                items.append(text)
            }
        }
        return items
    }

    /// The goal of a routine that gives none: its checklist's length, 1 for a check, else
    /// nil after a diagnostic (a unit needs a goal).
    static func defaultGoal(items: [String], unit: RoutineUnit?, routine id: String, node: YAMLNode, _ reader: inout NodeReader) -> Double? {
        if !items.isEmpty { return Double(items.count) }
        if unit == .check { return 1 }
        if unit != nil {
            reader.report(
                RulesetDiagnostics.missingKey(
                    reader.file, node, key: "goal", in: "routine '\(id)'",
                    hint: "a goal in \(unit?.rawValue ?? "its unit"); checklists and checks may leave it out"))
        }
        return nil
    }

    // MARK: categories

    /// Reads `categories:` and resolves each routine's category that is not built in: a
    /// declared one lends its sensitivity, an undeclared one is an error.
    mutating func decodeCategories() {
        var declared: [String: DeclaredCategory] = [:]
        for (start, node) in lists["categories"] ?? [] {
            var reader = start
            defer { merge(reader) }
            for item in reader.list(node, key: "categories") ?? [] {
                guard
                    let fields = reader.fields(
                        item, "a routine category", allowed: ["id", "sensitive", "description"], required: ["id", "sensitive"]),
                    let idNode = fields["id"], let id = reader.identifier(idNode, key: "id"),
                    let sensitive = fields["sensitive"].flatMap({ reader.bool($0, key: "sensitive") })
                else { continue }
                let description = fields["description"].flatMap { reader.string($0, key: "description") }
                if RoutineCategory.builtIn.contains(RoutineCategory(rawValue: id)) {
                    reader.report(
                        RulesetDiagnostics.error(
                            "ruleset.duplicate_id", reader.file, idNode, "'\(id)' is a built-in category",
                            hint: "use it without declaring it, or pick another id"))
                    continue
                }
                guard isNewID(id, kind: "category", node: idNode, &reader) else { continue }
                let category = DeclaredCategory(id: id, sensitive: sensitive, description: description, origin: reader.origin(idNode))
                declared[id] = category
                ruleset.categories.append(category)
            }
        }
        for pending in pendingCategories {
            var reader = pending.reader
            let id = ruleset.routines[pending.routine].category.rawValue
            if let category = declared[id] {
                if category.sensitive { ruleset.routines[pending.routine].sensitive = true }
            } else {
                reader.report(
                    RulesetDiagnostics.unknownValue(
                        reader.file, pending.node, what: "routine category",
                        allowed: RoutineCategory.builtIn.map(\.rawValue) + ruleset.categories.map(\.id),
                        hint: "declare it in a rules file: categories: [{ id: \(id), sensitive: false }]"))
            }
            merge(reader)
        }
    }

    // MARK: settings

    mutating func decodeSettings() {
        guard let entry = singletons["settings"] else { return }
        var reader = entry.reader
        let node = entry.node
        defer { merge(reader) }
        guard let pairs = node.pairs else {
            reader.report(RulesetDiagnostics.wrongType(reader.file, node, expected: "a mapping of settings"))
            return
        }
        for pair in pairs {
            guard let key = pair.key.scalar, NodeReader.isIdentifier(key) else {
                reader.report(RulesetDiagnostics.invalidID(reader.file, pair.key, pair.key.scalar ?? "?"))
                continue
            }
            guard
                let fields = reader.fields(
                    pair.value, "setting '\(key)'", allowed: ["type", "default", "values", "description"], required: ["type"]),
                let typeNode = fields["type"], let typeText = reader.scalar(typeNode, key: "type", expected: "a type")
            else { continue }
            var type: ExpressionType
            if typeText == "enum" || typeText == "enum?" {
                guard let valuesNode = fields["values"] else {
                    reader.report(RulesetDiagnostics.missingKey(reader.file, pair.value, key: "values", in: "enum setting '\(key)'"))
                    continue
                }
                let values = (reader.list(valuesNode, key: "values") ?? []).compactMap { reader.identifier($0, key: "values") }
                type = .enumeration(EnumType(name: key, cases: values))
                if typeText.hasSuffix("?") { type = .optional(type) }
            } else if let parsed = ExpressionType.parse(typeText) {
                type = parsed
                if let values = fields["values"] {
                    reader.report(
                        RulesetDiagnostics.unknownKey(
                            reader.file, fields.keys["values"] ?? values, in: "a \(typeText) setting", allowed: ["type", "default", "description"]))
                }
            } else {
                reader.report(
                    RulesetDiagnostics.unknownValue(
                        reader.file, typeNode, what: "setting type",
                        allowed: [
                            "bool", "int", "number", "string", "time", "duration", "enum", "routine_id", "list<…>", "map<routine_id, time>",
                            "T? (optional)",
                        ]))
                continue
            }
            var value: Value = .unknown
            if let defaultNode = fields["default"] {
                guard let read = readValue(defaultNode, type: type, key: "default", &reader) else { continue }
                value = read
            } else if !type.isOptional {
                reader.report(
                    RulesetDiagnostics.missingKey(
                        reader.file, pair.value, key: "default", in: "setting '\(key)'",
                        hint: "only optional settings (type \"\(type)?\") may leave out their default"))
                continue
            }
            ruleset.settings.append(SettingDeclaration(key: key, type: type, defaultValue: value, origin: reader.origin(pair.key)))
        }
    }

    /// A value of `type` written as YAML (defaults of settings, scenario overrides).
    func readValue(_ node: YAMLNode, type: ExpressionType, key: String, _ reader: inout NodeReader) -> Value? {
        switch type {
        case .optional(let wrapped):
            if node.isNull, node.scalarStyle?.isQuoted != true { return .unknown }
            return readValue(node, type: wrapped, key: key, &reader)
        case .bool: return reader.bool(node, key: key).map(Value.bool)
        case .int: return reader.int(node, key: key).map(Value.int)
        case .number: return reader.number(node, key: key).map(Value.number)
        case .string: return reader.scalar(node, key: key, expected: "text").map(Value.string)
        case .time: return reader.time(node, key: key).map(Value.time)
        case .duration: return reader.duration(node, key: key).map(Value.duration)
        case .enumeration(let enumType):
            return reader.choice(node, key: key, what: enumType.name, allowed: enumType.cases).map(Value.string)
        case .routineID:
            guard let id = reader.identifier(node, key: key) else { return nil }
            guard ruleset.routines.contains(where: { $0.id == id }) else {
                if !isWithheld(id, kind: "routine") {
                    reader.report(
                        RulesetDiagnostics.unknownReference(reader.file, node, kind: "routine", name: id, known: ruleset.routines.map(\.id)))
                }
                return nil
            }
            return .string(id)
        case .list(let element):
            guard let items = reader.list(node, key: key) else { return nil }
            var values: [Value] = []
            for item in items {
                guard let value = readValue(item, type: element, key: key, &reader) else { return nil }
                values.append(value)
            }
            return .list(values)
        case .map(let keyType, let valueType):
            guard let pairs = node.pairs else {
                reader.report(RulesetDiagnostics.wrongType(reader.file, node, expected: "a mapping for '\(key)'"))
                return nil
            }
            var entries: [String: Value] = [:]
            for pair in pairs {
                guard case .string(let mapKey)? = readValue(pair.key, type: keyType, key: key, &reader),
                    let value = readValue(pair.value, type: valueType, key: key, &reader)
                else { return nil }
                entries[mapKey] = value
            }
            return .map(entries)
        default:
            reader.report(RulesetDiagnostics.wrongType(reader.file, node, expected: "a value of type \(type)"))
            return nil
        }
    }
}
