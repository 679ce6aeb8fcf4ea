import Foundation
import RulesDiagnostics
import RulesDocument
import RulesPopulation
import RulesSimulator
import Ruleset
import RulesetFiles

/// The examples of the reference's key tables: the first value each key has in the ruleset's
/// own files (routines, rules, templates, scenarios, populations), written on one line — or,
/// for a key those files never use, one written for the key (`written`). A test loads every
/// example into its key and checks it.
struct ReferenceExamples {
    /// Per key table (its schema's properties, rendered) and key: the example line.
    var byTable: [String: String] = [:]

    /// The file kinds: folder, schema root, schema.
    static let kinds: [(folder: String, schema: JSONValue)] = [
        ("routines", EditorSchemas.routine), ("rules", EditorSchemas.rules), ("templates", EditorSchemas.rules),
        ("scenarios", ScenarioSchema.schema), ("populations", PopulationSchema.schema),
    ]

    /// The identity of a key table: the same object met by two paths is one table.
    static func table(_ object: JSONValue) -> String { object.member("properties")?.rendered() ?? "" }

    /// Reads the files of `directory` (sorted by path, so the first value is the same every time).
    init(directory: String) {
        for kind in Self.kinds {
            var problems: [Diagnostic] = []
            let files = RulesetDirectory.files(in: directory, folders: [kind.folder], prefix: "", problems: &problems)
            for file in files.sorted(by: { $0.display < $1.display }) {
                let (parsed, _) = FileReader.yaml(file.path, display: file.display)
                guard parsed.isClean else { continue }
                for document in parsed.documents where !document.isNull { walk(document, kind.schema) }
            }
        }
    }

    /// The example of `key` in the table of `object`: the files' value, the written one, or nil.
    func example(_ key: String, in object: JSONValue, path: String) -> String? {
        byTable[Self.table(object) + "\u{1}" + key] ?? Self.written[path + " › " + key]
    }

    /// Follows the schema down the document as `SchemaReference.collect` does, keeping the
    /// first one-line value of each key of each table.
    mutating func walk(_ node: YAMLNode, _ schema: JSONValue) {
        if let items = schema.member("items") {
            if case .sequence(let elements) = node.content { for element in elements { walk(element, items) } }
            return
        }
        if case .array(let options)? = schema.member("oneOf") {
            for option in options { walk(node, option) }
            return
        }
        guard case .mapping(let pairs) = node.content else { return }
        if case .object(let properties)? = schema.member("properties") {
            let table = Self.table(schema)
            for pair in pairs {
                guard let key = pair.key.scalar, let child = properties.first(where: { $0.0 == key })?.1 else { continue }
                if byTable[table + "\u{1}" + key] == nil, let line = Self.oneLine(pair.value) { byTable[table + "\u{1}" + key] = "\(key): \(line)" }
                walk(pair.value, child)
            }
            return
        }
        guard let values = EditorSchemas.mapValues(of: schema) else { return }
        for pair in pairs { walk(pair.value, values) }
    }

    /// A node written on one line as a reader would type it (a long list by its first entry,
    /// still a valid list), or nil when that would be over 90 characters or span lines.
    static func oneLine(_ node: YAMLNode) -> String? {
        func render(_ node: YAMLNode, shorten: Bool) -> String? {
            switch node.content {
            case .scalar(let text, let style):
                guard !text.contains("\n"), !text.isEmpty || style.isQuoted else { return nil }
                if style.isQuoted || text.hasPrefix(" ") || text.hasSuffix(" ") {
                    return "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
                }
                return text
            case .sequence(let items):
                let parts = items.compactMap { render($0, shorten: shorten) }
                guard parts.count == items.count else { return nil }
                let whole = "[" + parts.joined(separator: ", ") + "]"
                return shorten && whole.count > 90 && parts.count > 1 ? "[" + parts[0] + "]" : whole
            case .mapping(let pairs):
                guard !pairs.isEmpty else { return "{}" }
                let parts = pairs.compactMap { pair in
                    render(pair.key, shorten: shorten).flatMap { key in render(pair.value, shorten: shorten).map { "\(key): \($0)" } }
                }
                return parts.count == pairs.count ? "{ " + parts.joined(separator: ", ") + " }" : nil
            }
        }
        if let line = render(node, shorten: false), line.count <= 90 { return line }
        guard let line = render(node, shorten: true), line.count <= 90 else { return nil }
        return line
    }

    /// Examples written for keys the shipped files never use, by table path and key.
    static let written: [String: String] = [
        "routine › description": "description: 하루 물 1.5리터",
        "rules › notifications[] › title": "title: checkin_ready",
        "rules › settings › <key> › description": "description: 저녁 알림을 받을지",
        "rules › categories[] › id": "id: meditation",
        "rules › categories[] › sensitive": "sensitive: false",
        "rules › categories[] › description": "description: 명상 시간",
        "scenario › description": "description: 저녁에 몰아서 한 날",
        "scenario › days[] › description": "description: 출장 첫날",
        "scenario › events[] › timezone": "timezone: America/Los_Angeles",
        "scenario › events[] › delete_log": "delete_log: log_20260720_001",
        "scenario › events[] › edit_log": "edit_log: { id: log_20260720_001, value: 500 }",
        "scenario › events[] › edit_log › id": "id: log_20260720_001",
        "scenario › events[] › edit_log › value": "value: 500",
        "scenario › events[] › uncheck": "uncheck: { routine: skincare, item: 양치 }",
        "scenario › events[] › settings": "settings: { tone: cold_persistent }",
        "population › description": "description: 평일 9시 출근",
        "population › groups[] › description": "description: 출근 전에 운동하는 사람들",
        "population › groups[] › acts": "acts: { default: { p: 0.1, within: 30m }, routine_reminder: { p: 0.3, within: 20m }, half_life: 20 }",
        // Whole sections, each the smallest value that says what the section holds.
        "rules › route": "route: [{ use: recovery, when: now >= 21:00 && completion_rate < 0.6 }]",
        "rules › judgement": "judgement: { streak_counts: [success, recovered] }",
        "rules › policy": "policy: { max_per_day: 3, category_cooldown: 90m }",
        "rules › settings": "settings: { evening_nudge: { type: bool, default: true } }",
        "rules › surfaces": "surfaces: { home: { sensitive: allowed, max_length: 80 } }",
        "rules › notifications": "notifications: [{ id: evening_nudge, category: nudge, at: \"20:00\", template: checkin_ready }]",
        "rules › categories": "categories: [{ id: meditation, sensitive: false }]",
        "scenario › health": "health: { permission: { steps: granted }, steps: { \"12:00\": 3000 } }",
        "scenario › days": "days: [{ date: 2026-07-20, events: [{ at: \"08:00\", app: open }] }]",
        "scenario › days[] › settings": "settings: { tone: cold_persistent }",
        "population › groups": "groups: [{ name: 직장인, routines: [water] }]",
    ]
}
