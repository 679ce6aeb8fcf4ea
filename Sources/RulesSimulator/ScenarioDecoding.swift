import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// What the decoders of a scenario share: the ruleset, and reading its settings, routine
/// and notification names and an entry's one kind key — each with the document's reader
/// (its diagnostics), passed in.
protocol ScenarioDecoding {
    var ruleset: Ruleset { get }
}

extension ScenarioDecoding {
    func settings(_ node: YAMLNode, _ reader: inout NodeReader) -> [String: Value] {
        guard let pairs = node.pairs else {
            reader.report(RulesetDiagnostics.wrongType(reader.file, node, expected: "a mapping of settings"))
            return [:]
        }
        var values: [String: Value] = [:]
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            guard let declaration = ruleset.settings.declaration(key) else {
                reader.report(RulesetDiagnostics.unknownKey(reader.file, pair.key, in: "settings", allowed: ruleset.settings.map(\.key)))
                continue
            }
            if let value = ruleset.value(of: pair.value, type: declaration.type, key: key, reader: &reader) { values[key] = value }
        }
        return values
    }

    func routineID(_ node: YAMLNode, key: String, _ reader: inout NodeReader) -> String? {
        ScenarioLoader.routineID(node, key: key, ruleset: ruleset, &reader)
    }

    func notificationID(_ node: YAMLNode, key: String, _ reader: inout NodeReader) -> String? {
        ScenarioLoader.knownID(
            node, key: key, known: { ruleset.notification($0) != nil }, ids: { ruleset.notifications.map(\.id) },
            code: "scenario.unknown_notification", what: "notification type", listed: "types", &reader)
    }

    /// The one kind key of an event or expectation mapping.
    func kind(_ fields: Fields, _ node: YAMLNode, among kinds: [String], what: String, _ reader: inout NodeReader) -> String? {
        let present = kinds.filter { fields[$0] != nil }
        guard present.count == 1, let kind = present.first else {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.event_kind", reader.file, node,
                    present.isEmpty ? "\(what) says nothing to do" : "\(what) has several kinds: \(present.joined(separator: ", "))",
                    hint: "give exactly one of: \(kinds.joined(separator: ", "))"))
            return nil
        }
        return kind
    }
}
