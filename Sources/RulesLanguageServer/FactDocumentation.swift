import Foundation
import RulesExpression
import Ruleset

/// What each fact of a ruleset is, for people: type, whether it is sensitive, meaning and an
/// example — the reference's fact table, the editor's completion and hover.
public enum FactDocumentation {
    public struct Row: Sendable {
        public var name: String
        public var type: String
        public var sensitive: Bool
        public var meaning: String
        public var example: String
    }

    /// A routine field's example from the routine itself: its own name, unit and goal.
    static func routineExample(_ field: String, _ routine: Routine) -> String {
        func amount(_ value: Double) -> String {
            let number = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            switch routine.unit {
            case .count: return number
            case .check: return number + " items"
            default: return number + " " + routine.unit.rawValue
            }
        }
        switch field {
        case "name": return "\"\(routine.name)\""
        case "value": return amount((routine.goal / 3).rounded())
        case "goal": return amount(routine.goal)
        case "progress": return "0.33"
        case "status": return "\"in_progress\""
        case "enabled": return routine.defaultEnabled ? "true" : "false"
        case "core": return routine.core ? "true" : "false"
        default: return ""
        }
    }

    public static func rows(_ ruleset: Ruleset) -> [Row] {
        var rows: [Row] = []
        let schema = ruleset.schema
        for fact in schema.facts {
            var meaning = ""
            var example = ""
            if let entry = FactCatalogue.entry(fact.name) {
                meaning = entry.unit + ": " + entry.meaning
                example = entry.example
            } else if fact.name.hasPrefix("routines."), let field = fact.name.split(separator: ".").last,
                let entry = FactCatalogue.routineFields.first(where: { $0.name == field })
            {
                let id = fact.name.split(separator: ".").dropFirst().first.map(String.init) ?? ""
                let routine = ruleset.routine(id)
                meaning = "routine '\(routine?.name ?? id)': \(entry.meaning)"
                example = routine.map { routineExample(String(field), $0) } ?? entry.example
            } else if fact.name.hasPrefix("settings.") {
                let key = String(fact.name.dropFirst("settings.".count))
                meaning = "user setting"
                if let value = ruleset.settings.declaration(key)?.defaultValue { meaning += ", default \(value)" }
            } else if fact.name.hasPrefix("notifications.") {
                meaning = "consecutive ignores of that notification type"
            }
            rows.append(
                Row(
                    name: fact.name, type: "\(fact.type)", sensitive: ruleset.sensitivity(of: fact.name) != nil, meaning: meaning, example: example))
        }
        return rows
    }

}
