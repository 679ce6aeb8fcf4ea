import Foundation
import RulesDiagnostics
import RulesDocument
import Ruleset

/// How a group's users answer the operator beyond opening or ignoring a notice: what a seen
/// notice makes them do (`acts`), how that wears off with the deliveries of its type
/// (`half_life`, `floor`), how extra notices in a day tire them (`fatigue`) and when they
/// switch notices off (`opt_out`). Empty: users only open or ignore, as before.
package struct Behaviour: Sendable, Equatable {
    /// What a notice of a type (or category) makes a user do: with probability `p`, within
    /// `within` seconds, one of `does` (nil: the target the ruleset gives).
    package struct Act: Sendable, Equatable {
        package var p: Double
        package var within: Int
        package var does: [String]?

        package init(p: Double, within: Int, does: [String]?) {
            self.p = p
            self.within = within
            self.does = does
        }
    }

    /// By notification type or category; `default` for the rest.
    package var acts: [String: Act] = [:]
    package var defaultAct: Act?
    /// Deliveries of a type after which its act probability has halved; nil: no wearing off.
    package var halfLife: Double?
    /// The act probability never wears below this.
    package var floor: Double = 0
    /// Deliveries a day after which each more raises the chance to ignore by `perExtra`.
    package var fatigueAfter: Int?
    package var fatiguePerExtra: Double = 0
    /// Per ignored delivery: the chance the user turns that type off in the app's settings.
    package var optOutType: Double = 0
    /// Per delivery above `optOutAbove` that day: the chance the user turns every notice off
    /// at the system level.
    package var optOutAll: Double = 0
    package var optOutAbove: Int = 0

    package init() {}

    package var isEmpty: Bool { self == Behaviour() }

    /// The act of a notice of `type` in `category`: its own, its category's, or the default.
    package func act(type: String, category: String) -> Act? { acts[type] ?? acts[category] ?? defaultAct }

    /// `p · 2^(-k / half_life)`, never below the floor (nor above `p`): the chance after `k`
    /// earlier deliveries of the type.
    package func wornOff(_ p: Double, deliveries k: Int) -> Double {
        guard let halfLife, halfLife > 0 else { return p }
        return Swift.min(p, Swift.max(floor, p * pow(2, -Double(k) / halfLife)))
    }

    /// The extra chance to ignore the `n`-th delivery of a day (1-based), at most 1.
    package func fatigue(_ n: Int) -> Double {
        guard let after = fatigueAfter, n > after else { return 0 }
        return Swift.min(1, Double(n - after) * fatiguePerExtra)
    }

    /// The bounds of the keys.
    package static let maxWithin = 86_400
    package static let maxHalfLife = 1_000_000.0
    package static let maxActs = 100
}

extension PopulationLoader {
    package static let behaviourKeys = ["acts", "fatigue", "opt_out"]

    /// `acts:`, `fatigue:` and `opt_out:` of a group.
    mutating func behaviour(_ fields: Fields) -> Behaviour {
        var behaviour = Behaviour()
        if let node = fields["acts"] { acts(node, into: &behaviour) }
        if let node = fields["fatigue"], let pair = reader.fields(node, "'fatigue'", allowed: ["after", "per_extra"], required: ["after"]) {
            behaviour.fatigueAfter = pair["after"].flatMap { reader.int($0, key: "after", minimum: 0, maximum: 1_000) }
            behaviour.fatiguePerExtra = pair["per_extra"].flatMap { reader.number($0, key: "per_extra", minimum: 0, maximum: 1) } ?? 0
        }
        if let node = fields["opt_out"], let pair = reader.fields(node, "'opt_out'", allowed: ["type", "all", "above"]) {
            behaviour.optOutType = pair["type"].flatMap { reader.number($0, key: "type", minimum: 0, maximum: 1) } ?? 0
            behaviour.optOutAll = pair["all"].flatMap { reader.number($0, key: "all", minimum: 0, maximum: 1) } ?? 0
            behaviour.optOutAbove = pair["above"].flatMap { reader.int($0, key: "above", minimum: 0, maximum: 1_000) } ?? 0
        }
        return behaviour
    }

    /// `acts:` — `default`, `half_life`, `floor`, and an act per notification type or category.
    private mutating func acts(_ node: YAMLNode, into behaviour: inout Behaviour) {
        guard let pairs = node.pairs else {
            reader.report(RulesetDiagnostics.wrongType(reader.file, node, expected: "a mapping of notification types to acts"))
            return
        }
        guard pairs.count <= Behaviour.maxActs else {
            reader.report(RulesetDiagnostics.outOfRange(reader.file, node, "more than \(Behaviour.maxActs) entries in 'acts'"))
            return
        }
        let types = ruleset.notifications.map(\.id)
        let categories = Array(Set(ruleset.notifications.map(\.category))).sorted()
        for pair in pairs {
            guard let key = pair.key.scalar else { continue }
            switch key {
            case "half_life":
                guard let value = reader.number(pair.value, key: "half_life", minimum: 0, maximum: Behaviour.maxHalfLife) else { continue }
                guard value > 0 else {
                    reader.report(
                        RulesetDiagnostics.outOfRange(
                            reader.file, pair.value, "'half_life' must be above 0 deliveries", hint: "leave it out for acts that never wear off"))
                    continue
                }
                behaviour.halfLife = value
            case "floor": behaviour.floor = reader.number(pair.value, key: "floor", minimum: 0, maximum: 1) ?? 0
            case "default": behaviour.defaultAct = act(pair.value, key: "default")
            default:
                guard types.contains(key) || categories.contains(key) else {
                    reader.report(
                        RulesetDiagnostics.unknownReference(
                            reader.file, pair.key, kind: "notification type or category", name: key, known: types + categories))
                    continue
                }
                behaviour.acts[key] = act(pair.value, key: key)
            }
        }
    }

    /// `{ p: 0.3, within: 20m, does: [water] }`.
    private mutating func act(_ node: YAMLNode, key: String) -> Behaviour.Act? {
        guard let fields = reader.fields(node, "the act of '\(key)'", allowed: ["p", "within", "does"], required: ["p"]) else { return nil }
        let p = fields["p"].flatMap { reader.number($0, key: "p", minimum: 0, maximum: 1) }
        var within = 30 * 60
        if let node = fields["within"], let seconds = reader.duration(node, key: "within") {
            if seconds <= 0 || seconds > Behaviour.maxWithin {
                reader.report(
                    RulesetDiagnostics.outOfRange(
                        reader.file, node, "'within' must be more than 0 and at most a day (24h)", hint: "the trial measures 30m by default"))
            } else {
                within = seconds
            }
        }
        var does: [String]?
        if let node = fields["does"], let items = reader.list(node, key: "does") {
            does = items.compactMap { item in
                let id = routineID(item, key: "does")
                if let id { actedRoutines.append((id, item)) }
                return id
            }
        }
        guard let p else { return nil }
        return Behaviour.Act(p: p, within: within, does: does)
    }
}
