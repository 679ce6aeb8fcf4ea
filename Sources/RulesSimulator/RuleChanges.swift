import Foundation
import RulesDiagnostics
import RulesEngine
import Ruleset

/// The entries that differ between two rulesets, each with where the new one is written:
/// what `rules diff` names as the cause of a behaviour change ("evening_underachievement
/// changed at rules/notifications.yaml:19"). Entries are compared by meaning (ids, times,
/// conditions as written, texts), not by line: a comment added above moves no entry.
public struct RuleChanges: Sendable {
    public struct Entry: Sendable, Hashable {
        /// `notification`, `template`, `policy`, `route`, `risk`, `light`, `recovery`, `settings`.
        public var kind: String
        public var id: String
        public var origin: Origin
        /// What the entry is about: a notification type, a surface, a route, a risk level.
        public var subject: String

        /// `notification 'x' (rules/notifications.yaml:19)`.
        public var label: String {
            let place = origin.file.isEmpty ? "" : " (\(origin.file):\(origin.location.line))"
            return "\(kind) '\(id)'\(place)"
        }
    }

    public var entries: [Entry]

    public init(old: Ruleset, new: Ruleset) {
        var entries: [Entry] = []
        func notificationKey(_ rule: NotificationRule) -> String {
            [
                rule.category, rule.at.source, rule.when?.source ?? "", rule.template, rule.title ?? "", rule.deepLink ?? "",
                rule.actions.map(\.rawValue).joined(separator: ","), String(rule.priority), rule.inQuietHours.rawValue,
                String(rule.expiresAfter ?? -1), rule.interruptionLevel.rawValue, String(rule.perRoutine),
            ].joined(separator: "\u{1}")
        }
        let oldRules = Dictionary(old.notifications.map { ($0.id, notificationKey($0)) }, uniquingKeysWith: { a, _ in a })
        for rule in new.notifications where oldRules[rule.id] != notificationKey(rule) {
            entries.append(Entry(kind: "notification", id: rule.id, origin: rule.origin, subject: rule.id))
        }
        func templateKey(_ template: Template) -> String {
            [template.surface, template.event ?? "", template.when?.source ?? "", template.tone ?? "", template.source].joined(separator: "\u{1}")
        }
        let oldTemplates = Dictionary(old.templates.map { ($0.id, templateKey($0)) }, uniquingKeysWith: { a, _ in a })
        for template in new.templates where oldTemplates[template.id] != templateKey(template) {
            entries.append(Entry(kind: "template", id: template.id, origin: template.origin, subject: template.surface))
        }
        let a = old.policy
        let b = new.policy
        if a.maxPerDay != b.maxPerDay || a.categoryCooldown != b.categoryCooldown || a.quietHours?.start != b.quietHours?.start
            || a.quietHours?.end != b.quietHours?.end || a.weakenAfterIgnored != b.weakenAfterIgnored
            || a.cancelWhenCompleted != b.cancelWhenCompleted
            || a.maxPending != b.maxPending
        {
            entries.append(Entry(kind: "policy", id: "policy", origin: b.origin, subject: "policy"))
        }
        // Tables: an entry changed when the entry at its position (or its condition) differs.
        for (index, entry) in new.route.enumerated() {
            let before = index < old.route.count ? old.route[index] : nil
            if before?.when.source != entry.when.source || before?.route != entry.route || before?.reason != entry.reason {
                entries.append(Entry(kind: "route", id: entry.reason, origin: entry.origin, subject: entry.route.rawValue))
            }
        }
        for (index, entry) in new.risk.enumerated() {
            let before = index < old.risk.count ? old.risk[index] : nil
            if before?.when.source != entry.when.source || before?.level != entry.level {
                entries.append(Entry(kind: "risk", id: entry.level.rawValue, origin: entry.origin, subject: entry.level.rawValue))
            }
        }
        if old.light?.scale != new.light?.scale, let light = new.light {
            entries.append(Entry(kind: "light", id: "light", origin: light.origin, subject: RouteKind.light.rawValue))
        }
        let oldSettings = Dictionary(old.settings.map { ($0.key, $0.defaultValue.description) }, uniquingKeysWith: { a, _ in a })
        for setting in new.settings where oldSettings[setting.key] != setting.defaultValue.description {
            entries.append(
                Entry(kind: "setting", id: setting.key, origin: setting.origin, subject: setting.key))
        }
        self.entries = entries
    }

    /// The changed entries that can explain a change of `kind` about `subject` (a
    /// notification type, a route, a risk level, a surface), most direct first.
    public func causes(kind: String, subject: String, ruleset: Ruleset) -> [Entry] {
        switch kind {
        case "notification":
            let template = ruleset.notification(subject)?.template
            let direct = entries.filter {
                ($0.kind == "notification" && $0.id == subject) || ($0.kind == "template" && $0.id == template) || $0.kind == "policy"
                    || $0.kind == "setting"
            }
            if !direct.isEmpty { return direct }
            // Another notification changed: they share the cap and the cooldowns.
            let others = entries.filter { $0.kind == "notification" }
            if !others.isEmpty { return others }
            // A notification whose condition reads the route or risk moves with the tables.
            return entries.filter { ["route", "risk", "light"].contains($0.kind) }
        case "route":
            let direct = entries.filter { ($0.kind == "route" && $0.subject == subject) || $0.kind == "light" }
            return direct.isEmpty ? entries.filter { ["route", "risk", "setting"].contains($0.kind) } : direct
        case "risk":
            return entries.filter { ["risk", "setting"].contains($0.kind) }
        case "text":
            // A line changes with its template, or with the route or risk that chooses it.
            let direct = entries.filter { $0.kind == "template" && $0.subject == subject }
            return direct.isEmpty ? entries.filter { ["route", "risk", "light", "setting"].contains($0.kind) } : direct
        default:
            return entries.filter { ["route", "risk", "light", "setting"].contains($0.kind) }
        }
    }
}
