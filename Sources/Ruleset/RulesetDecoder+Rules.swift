import RulesDiagnostics
import RulesDocument
import RulesExpression

extension RulesetDecoder {
    /// The items of a table section, or nil after reporting that it is not a list.
    private func table(_ node: YAMLNode, _ name: String, _ reader: inout NodeReader) -> [YAMLNode]? {
        reader.list(node, key: name)
    }

    mutating func decodeRisk(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        for item in table(node, "risk", &reader) ?? [] {
            guard let fields = reader.fields(item, "a risk entry", allowed: ["level", "when"], required: ["level", "when"]) else { continue }
            let level: RiskLevel? = fields["level"].flatMap { reader.choice($0, key: "level", what: "risk level") }
            let when = fields["when"].flatMap { reader.expression($0, key: "when", schema: ruleset.schema, expecting: .condition) }
            if let level, let when, let whenNode = fields["when"] {
                ruleset.risk.append(RiskEntry(level: level, when: when, origin: reader.origin(item), whenOrigin: reader.origin(whenNode)))
            }
        }
    }

    mutating func decodeRoute(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        for item in table(node, "route", &reader) ?? [] {
            guard let fields = reader.fields(item, "a route entry", allowed: ["use", "when", "reason"], required: ["use", "when"]) else { continue }
            let route: RouteKind? = fields["use"].flatMap { reader.choice($0, key: "use", what: "route") }
            let when = fields["when"].flatMap { reader.expression($0, key: "when", schema: ruleset.schema, expecting: .condition) }
            let reason = fields["reason"].flatMap { reader.identifier($0, key: "reason") } ?? "default"
            if let route, let when, let whenNode = fields["when"] {
                ruleset.route.append(
                    RouteEntry(
                        route: route, when: when, reason: reason, origin: reader.origin(item), whenOrigin: reader.origin(whenNode)))
            }
        }
    }

    mutating func decodeSticky(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        for item in reader.list(node, key: "sticky") ?? [] {
            if let route: RouteKind = reader.choice(item, key: "sticky", what: "route"), !ruleset.sticky.contains(route) {
                ruleset.sticky.append(route)
            }
        }
    }

    mutating func decodeLight(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        guard let fields = reader.fields(node, "light", allowed: ["scale"], required: ["scale"]),
            let scale = fields["scale"].flatMap({ reader.number($0, key: "scale") })
        else { return }
        ruleset.light = LightRoute(scale: scale, origin: reader.origin(fields["scale"] ?? node))
    }

    mutating func decodeRecovery(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        guard let fields = reader.fields(node, "recovery", allowed: ["max_items", "items"], required: ["items"]) else { return }
        let maxItems = fields["max_items"].flatMap { reader.int($0, key: "max_items", minimum: 1) } ?? 3
        var items: [RecoveryItem] = []
        for item in fields["items"].flatMap({ reader.list($0, key: "items") }) ?? [] {
            if let decoded = decodeRecoveryItem(item, &reader) { items.append(decoded) }
        }
        ruleset.recovery = RecoveryRoute(maxItems: maxItems, items: items, origin: reader.origin(node))
    }

    private mutating func decodeRecoveryItem(_ node: YAMLNode, _ reader: inout NodeReader) -> RecoveryItem? {
        guard let fields = reader.fields(node, "a recovery item", allowed: ["routine", "target", "item", "delta"], required: ["routine"]),
            let routineNode = fields["routine"], let id = reader.identifier(routineNode, key: "routine")
        else { return nil }
        guard let routine = ruleset.routine(id) else {
            if !isWithheld(id, kind: "routine") {
                reader.report(
                    RulesetDiagnostics.unknownReference(reader.file, routineNode, kind: "routine", name: id, known: ruleset.routines.map(\.id)))
            }
            return nil
        }
        let given = ["target", "item", "delta"].filter { fields[$0] != nil }
        guard given.count == 1, let kind = given.first, let valueNode = fields[kind] else {
            reader.report(
                RulesetDiagnostics.missingKey(
                    reader.file, node, key: "target, item or delta", in: "a recovery item",
                    hint: "give exactly one: target (an amount to log), item (a checklist item) or delta (steps to walk)"))
            return nil
        }
        let requirement: RecoveryItem.Requirement
        switch kind {
        case "item":
            guard let item = reader.string(valueNode, key: "item") else { return nil }
            guard routine.items.contains(item) else {
                reader.report(
                    RulesetDiagnostics.unknownReference(
                        reader.file, valueNode, kind: "checklist item of '\(id)'", name: item, known: routine.items))
                return nil
            }
            requirement = .item(item)
        case "delta":
            guard let delta = reader.int(valueNode, key: "delta") else { return nil }
            guard routine.unit == .steps else {
                reader.report(
                    RulesetDiagnostics.wrongType(
                        reader.file, valueNode, expected: "a target",
                        hint: "delta is for a steps routine (a walking quest); '\(id)' counts \(routine.unit.rawValue): use target"))
                return nil
            }
            requirement = .delta(delta)
        default:
            guard let target = reader.number(valueNode, key: "target") else { return nil }
            if !routine.items.isEmpty {
                reader.report(
                    RulesetDiagnostics.wrongType(
                        reader.file, valueNode, expected: "an item",
                        hint: "'\(id)' is a checklist: name one of \(routine.items.joined(separator: ", "))"))
                return nil
            }
            requirement = .target(target)
        }
        return RecoveryItem(routine: id, requirement: requirement, origin: reader.origin(node))
    }

    mutating func decodeJudgement(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        guard let fields = reader.fields(node, "judgement", allowed: ["routine", "day", "streak_counts", "xp"]) else { return }
        var routineEntries: [RoutineJudgementEntry] = []
        let routineSchema = ruleset.judgementSchema
        for item in fields["routine"].flatMap({ reader.list($0, key: "routine") }) ?? [] {
            guard let entry = reader.fields(item, "a routine judgement", allowed: ["status", "when"], required: ["status", "when"]) else { continue }
            let status: RoutineStatus? = entry["status"].flatMap { reader.choice($0, key: "status", what: "status") }
            let when = entry["when"].flatMap { reader.expression($0, key: "when", schema: routineSchema, expecting: .condition) }
            if let status, let when, let whenNode = entry["when"] {
                routineEntries.append(
                    RoutineJudgementEntry(status: status, when: when, origin: reader.origin(item), whenOrigin: reader.origin(whenNode)))
            }
        }
        var dayEntries: [DayJudgementEntry] = []
        for item in fields["day"].flatMap({ reader.list($0, key: "day") }) ?? [] {
            guard let entry = reader.fields(item, "a day judgement", allowed: ["result", "when"], required: ["result", "when"]) else { continue }
            let result: DayResult? = entry["result"].flatMap { reader.choice($0, key: "result", what: "day result") }
            let when = entry["when"].flatMap { reader.expression($0, key: "when", schema: ruleset.schema, expecting: .condition) }
            if let result, let when, let whenNode = entry["when"] {
                dayEntries.append(DayJudgementEntry(result: result, when: when, origin: reader.origin(item), whenOrigin: reader.origin(whenNode)))
            }
        }
        var streakCounts: [DayResult] = [.success, .recovered]
        if let counts = fields["streak_counts"], let list = reader.list(counts, key: "streak_counts") {
            streakCounts = list.compactMap { reader.choice($0, key: "streak_counts", what: "day result") }
        }
        var xp = ExperiencePoints()
        if let xpNode = fields["xp"], let xpFields = reader.fields(xpNode, "xp", allowed: ["completed", "partial", "recovery_completed"]) {
            xp.completed = xpFields["completed"].flatMap { reader.int($0, key: "completed", minimum: 0) } ?? xp.completed
            xp.partial = xpFields["partial"].flatMap { reader.int($0, key: "partial", minimum: 0) } ?? xp.partial
            xp.recoveryCompleted =
                xpFields["recovery_completed"].flatMap { reader.int($0, key: "recovery_completed", minimum: 0) } ?? xp.recoveryCompleted
        }
        ruleset.judgement = Judgement(routine: routineEntries, day: dayEntries, streakCounts: streakCounts, xp: xp, origin: reader.origin(node))
    }

    mutating func decodePolicy(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        let keys = ["max_per_day", "category_cooldown", "quiet_hours", "weaken", "cancel_when_completed", "max_pending"]
        guard let fields = reader.fields(node, "policy", allowed: keys) else { return }
        var policy = NotificationPolicy(origin: reader.origin(node))
        policy.maxPerDay = fields["max_per_day"].flatMap { reader.int($0, key: "max_per_day", minimum: 0) } ?? policy.maxPerDay
        policy.categoryCooldown = fields["category_cooldown"].flatMap { reader.duration($0, key: "category_cooldown") } ?? policy.categoryCooldown
        ruleset.cooldownOrigin = fields["category_cooldown"].map { reader.origin($0) }
        if let quiet = fields["quiet_hours"],
            let quietFields = reader.fields(quiet, "quiet_hours", allowed: ["start", "end"], required: ["start", "end"]),
            let start = quietFields["start"].flatMap({ reader.time($0, key: "start") }),
            let end = quietFields["end"].flatMap({ reader.time($0, key: "end") })
        {
            policy.quietHours = (start % 86_400, end % 86_400)
        }
        if let weaken = fields["weaken"], let weakenFields = reader.fields(weaken, "weaken", allowed: ["after_ignored", "effect"]) {
            policy.weakenAfterIgnored =
                weakenFields["after_ignored"].flatMap { reader.int($0, key: "after_ignored", minimum: 1) } ?? policy.weakenAfterIgnored
            policy.weakenEffect = weakenFields["effect"].flatMap { reader.choice($0, key: "effect", what: "weakening effect") } ?? policy.weakenEffect
        }
        policy.cancelWhenCompleted =
            fields["cancel_when_completed"].flatMap { reader.bool($0, key: "cancel_when_completed") } ?? policy.cancelWhenCompleted
        policy.maxPending = fields["max_pending"].flatMap { reader.int($0, key: "max_pending", minimum: 1, maximum: 64) } ?? policy.maxPending
        ruleset.policy = policy
    }

    mutating func decodeTools(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        for item in reader.list(node, key: "tools") ?? [] {
            guard let fields = reader.fields(item, "a tool", allowed: ["name", "description", "params"], required: ["name", "description"]),
                let nameNode = fields["name"], let name = reader.identifier(nameNode, key: "name")
            else { continue }
            let description = fields["description"].flatMap { reader.string($0, key: "description") } ?? ""
            var parameters: [ToolParameter] = []
            if let params = fields["params"] {
                if let pairs = params.pairs {
                    for pair in pairs { if let parameter = decodeToolParameter(pair, &reader) { parameters.append(parameter) } }
                } else if !params.isNull {
                    reader.report(RulesetDiagnostics.wrongType(reader.file, params, expected: "a mapping of parameters"))
                }
            }
            guard isNewID(name, kind: "tool", node: nameNode, &reader) else { continue }
            ruleset.tools.append(Tool(name: name, description: description, parameters: parameters, origin: reader.origin(nameNode)))
        }
    }

    private mutating func decodeToolParameter(_ pair: YAMLPair, _ reader: inout NodeReader) -> ToolParameter? {
        guard let name = reader.identifier(pair.key, key: "params") else { return nil }
        guard
            let fields = reader.fields(
                pair.value, "parameter '\(name)'",
                allowed: ["type", "required", "min", "max", "values", "max_length", "description"], required: ["type"]),
            let type: ToolParameterType = fields["type"].flatMap({ reader.choice($0, key: "type", what: "parameter type") })
        else { return nil }
        var values: [String] = []
        if let valuesNode = fields["values"] {
            values = (reader.list(valuesNode, key: "values") ?? []).compactMap { reader.string($0, key: "values") }
        }
        if type == .enum, values.isEmpty {
            reader.report(RulesetDiagnostics.missingKey(reader.file, pair.value, key: "values", in: "enum parameter '\(name)'"))
        }
        let minimum = fields["min"].flatMap { reader.number($0, key: "min") }
        let maximum = fields["max"].flatMap { reader.number($0, key: "max") }
        if let minimum, let maximum, minimum > maximum, let node = fields["max"] {
            reader.report(RulesetDiagnostics.outOfRange(reader.file, node, "'max' is below 'min' (\(Value.formatNumber(minimum)))"))
        }
        return ToolParameter(
            name: name, type: type, required: fields["required"].flatMap { reader.bool($0, key: "required") } ?? false,
            minimum: minimum, maximum: maximum, values: values,
            maxLength: fields["max_length"].flatMap { reader.int($0, key: "max_length", minimum: 1) },
            description: fields["description"].flatMap { reader.string($0, key: "description") },
            origin: reader.origin(pair.key))
    }

    mutating func decodeSurfaces(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        guard let pairs = node.pairs else {
            reader.report(RulesetDiagnostics.wrongType(reader.file, node, expected: "a mapping of surfaces"))
            return
        }
        for pair in pairs {
            guard let name = reader.identifier(pair.key, key: "surfaces"),
                let fields = reader.fields(
                    pair.value, "surface '\(name)'", allowed: ["sensitive", "max_length", "max_sentences", "fallback", "sensitive_words"],
                    required: ["sensitive"]),
                let sensitivity: SurfaceSensitivity = fields["sensitive"].flatMap({ reader.choice($0, key: "sensitive", what: "surface sensitivity") }
                )
            else { continue }
            let fallback = fields["fallback"].flatMap { reader.string($0, key: "fallback") }
            if sensitivity == .forbidden, fields["fallback"] == nil {
                reader.report(
                    RulesetDiagnostics.missingKey(
                        reader.file, pair.value, key: "fallback", in: "surface '\(name)'",
                        hint: "a surface that forbids sensitive facts needs a fallback text for lines it must refuse"))
            }
            ruleset.surfaces.append(
                Surface(
                    name: name, sensitivity: sensitivity,
                    maxLength: fields["max_length"].flatMap { reader.int($0, key: "max_length", minimum: 1) },
                    maxSentences: fields["max_sentences"].flatMap { reader.int($0, key: "max_sentences", minimum: 1) },
                    fallback: fallback,
                    sensitiveWords: (fields["sensitive_words"].flatMap { reader.list($0, key: "sensitive_words") } ?? []).compactMap {
                        reader.string($0, key: "sensitive_words")
                    }, origin: reader.origin(pair.key)))
        }
    }

    mutating func decodeForbiddenPhrases(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        // Duplicates by one set kept across documents: a list of 300,000 phrases, or 16,000
        // documents of one phrase each, stay linear.
        for item in reader.list(node, key: "forbidden_phrases") ?? [] {
            guard let phrase = reader.string(item, key: "forbidden_phrases") else { continue }
            if forbiddenPhrasesSeen.insert(phrase).inserted {
                ruleset.forbiddenPhrases.append(phrase)
                ruleset.forbiddenPhraseOrigins.append(reader.origin(item))
            }
        }
    }
}
