import RulesDiagnostics
import RulesDocument
import RulesExpression

extension RulesetDecoder {
    static let notificationKeys = [
        "id", "category", "at", "when", "template", "title", "deep_link", "actions", "priority",
        "in_quiet_hours", "expires_after", "interruption_level", "for_each",
    ]

    mutating func decodeNotifications(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        for item in reader.list(node, key: "notifications") ?? [] {
            guard
                let fields = reader.fields(
                    item, "a notification", allowed: RulesetDecoder.notificationKeys,
                    required: ["id", "category", "at", "template"]),
                let idNode = fields["id"], let id = reader.identifier(idNode, key: "id")
            else { continue }
            var perRoutine = false
            if let forEach = fields["for_each"] {
                perRoutine = reader.choice(forEach, key: "for_each", what: "for_each", allowed: ["routine"]) != nil
            }
            if perRoutine, perRoutineSchema == nil { perRoutineSchema = ruleset.perRoutineSchema }
            let schema = perRoutine ? (perRoutineSchema ?? ruleset.schema) : ruleset.schema
            let category = fields["category"].flatMap { reader.identifier($0, key: "category") }
            let at = fields["at"].flatMap { reader.expression($0, key: "at", schema: schema, expecting: .value(.optional(.time))) }
            let when = fields["when"].flatMap { reader.expression($0, key: "when", schema: schema, expecting: .condition) }
            let template = fields["template"].flatMap { reader.identifier($0, key: "template") }
            let title = fields["title"].flatMap { reader.identifier($0, key: "title") }
            let deepLink = fields["deep_link"].flatMap { reader.string($0, key: "deep_link") }
            var actions: [NotificationAction] = []
            if let actionsNode = fields["actions"] {
                actions = (reader.list(actionsNode, key: "actions") ?? []).compactMap {
                    reader.choice($0, key: "actions", what: "notification action")
                }
            }
            var level = InterruptionLevel.active
            if let levelNode = fields["interruption_level"] {
                if levelNode.scalar == "critical" {
                    reader.report(
                        RulesetDiagnostics.unknownValue(
                            reader.file, levelNode, what: "interruption level (critical alerts need Apple's entitlement and are never used)",
                            allowed: InterruptionLevel.allCases.map(\.rawValue)))
                } else if let read: InterruptionLevel = reader.choice(levelNode, key: "interruption_level", what: "interruption level") {
                    level = read
                }
            }
            guard let category, let at, let template,
                isNewID(id, kind: "notification", node: idNode, &reader)
            else { continue }
            let rule = NotificationRule(
                id: id, category: category, at: at, when: when, template: template, title: title, deepLink: deepLink,
                actions: actions, priority: fields["priority"].flatMap { reader.int($0, key: "priority") } ?? 0,
                inQuietHours: fields["in_quiet_hours"].flatMap { reader.choice($0, key: "in_quiet_hours", what: "quiet-hours handling") } ?? .drop,
                expiresAfter: fields["expires_after"].flatMap { reader.duration($0, key: "expires_after") },
                interruptionLevel: level, perRoutine: perRoutine, origin: reader.origin(idNode),
                atOrigin: reader.origin(fields["at"] ?? idNode), whenOrigin: fields["when"].map { reader.origin($0) },
                templateOrigin: fields["template"].map { reader.origin($0) }, titleOrigin: fields["title"].map { reader.origin($0) })
            ruleset.notifications.append(rule)
            notificationNodes[id] = fields
        }
    }

    mutating func decodeTemplates(_ node: YAMLNode, _ start: NodeReader) {
        var reader = start
        defer { merge(reader) }
        for item in reader.list(node, key: "templates") ?? [] {
            declare(item, kind: "template")
            guard
                let fields = reader.fields(
                    item, "a template", allowed: ["id", "surface", "event", "when", "tone", "text"],
                    required: ["id", "surface", "text"]),
                let idNode = fields["id"], let id = reader.identifier(idNode, key: "id")
            else { continue }
            let surfaceNode = fields["surface"]
            let surface = surfaceNode.flatMap { reader.identifier($0, key: "surface") }
            if let surface, let surfaceNode, ruleset.surface(surface) == nil {
                reader.report(
                    RulesetDiagnostics.unknownReference(reader.file, surfaceNode, kind: "surface", name: surface, known: ruleset.surfaces.map(\.name))
                )
            }
            let event = fields["event"].flatMap { reader.choice($0, key: "event", what: "template event", allowed: EnumType.event.cases) }
            var tone: String?
            if let toneNode = fields["tone"], let value = reader.identifier(toneNode, key: "tone") {
                if ruleset.tones.contains(value) {
                    tone = value
                } else {
                    reader.report(RulesetDiagnostics.unknownReference(reader.file, toneNode, kind: "tone", name: value, known: ruleset.tones))
                }
            }
            let when = fields["when"].flatMap { reader.expression($0, key: "when", schema: ruleset.schema, expecting: .condition) }
            guard let textNode = fields["text"], let text = reader.scalar(textNode, key: "text", expected: "text") else { continue }
            let segments = TemplateText.parse(text, node: textNode, schema: ruleset.schema, &reader)
            guard let surface, let segments, let textNode = fields["text"],
                isNewID(id, kind: "template", node: idNode, &reader)
            else { continue }
            ruleset.templates.append(
                Template(
                    id: id, surface: surface, event: event, when: when, tone: tone, source: text, segments: segments,
                    origin: reader.origin(idNode), textOrigin: reader.origin(textNode), whenOrigin: fields["when"].map { reader.origin($0) }))
        }
    }

    /// References that need every section decoded first: notification templates and titles.
    mutating func checkReferences() {
        let templateIDs = Set(ruleset.templates.map(\.id))
        for rule in ruleset.notifications {
            guard let fields = notificationNodes[rule.id] else { continue }
            var reader = NodeReader(file: rule.origin.file, source: nil)
            for (key, id) in [("template", rule.template), ("title", rule.title)] {
                guard let id, let node = fields[key], !templateIDs.contains(id), !isWithheld(id, kind: "template") else { continue }
                reader.report(RulesetDiagnostics.unknownReference(reader.file, node, kind: "template", name: id, known: ruleset.templates.map(\.id)))
            }
            merge(reader)
        }
    }
}
