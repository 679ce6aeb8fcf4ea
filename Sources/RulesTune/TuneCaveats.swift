import Foundation
import RulesDiagnostics
import RulesPopulation

/// What a designer reading a search would miss, said before the table:
///
/// - a knob that defines the metric judged (`judgement.*` decides what a success, partial or
///   failed day is, and so the streak and XP that follow them): lowering the bar "wins"
///   without anybody doing more;
/// - a notification type the current ruleset delivers that a candidate never delivers, with
///   the gate that refused it most (quiet hours, the daily cap, its condition);
/// - candidates that behave identically (the same report for the same users): their knob
///   values change nothing here, and ranking them is the draw's, not the rules'.
///
/// The fourth — a target on what the population does not model — is `Unmodelled`'s.
package struct TuneCaveats: Sendable {
    package struct Caveat: Sendable {
        /// `defines_metric`, `never_delivered` or `identical`.
        package var kind: String
        package var text: String
        package var candidates: [Int]
    }

    package var caveats: [Caveat] = []

    package init(_ result: TuneResult) {
        caveats = Self.definitions(result.question) + Self.silenced(result) + Self.identical(result)
    }

    /// The families a `judgement.*` knob decides.
    static let judged = ["day_results.", "streak.", "xp."]

    static func definitions(_ question: TuneQuestion) -> [Caveat] {
        let asked = question.targets.map(\.metric) + [question.objective].compactMap { $0 }
        var out: [Caveat] = []
        for knob in question.knobs where knob.name.hasPrefix("judgement.") {
            for metric in asked where judged.contains(where: { metric.hasPrefix($0) }) {
                out.append(
                    Caveat(
                        kind: "defines_metric",
                        text:
                            "the knob \(knob.name) defines what \(metric) counts: a candidate can move it by moving the bar, with nobody doing more; judge by routines done (completions.all) as well",
                        candidates: []))
            }
        }
        return out
    }

    /// Types the current ruleset delivered that a candidate which lived the last round never did.
    static func silenced(_ result: TuneResult) -> [Caveat] {
        guard let baseline = result.candidates.first else { return [] }
        var out: [Caveat] = []
        let types = baseline.tally.delivered.filter { $0.value > 0 }.keys.sorted()
        for type in types {
            var byReason: [String: [Int]] = [:]
            for (index, candidate) in result.candidates.enumerated() where index > 0 && candidate.stopped == nil {
                guard (candidate.tally.delivered[type] ?? 0) == 0 else { continue }
                let refused = candidate.tally.suppressed[type] ?? [:]
                let top = refused.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first
                byReason[top.map { reason($0.key) } ?? "it was never due (no user met its trigger)", default: []].append(index)
            }
            for (why, indices) in byReason.sorted(by: { $0.value[0] < $1.value[0] }) {
                out.append(
                    Caveat(
                        kind: "never_delivered",
                        text:
                            "\(type) is never delivered under candidate\(indices.count == 1 ? "" : "s") \(list(indices)) (delivered \(PopulationReport.grouped(baseline.tally.delivered[type] ?? 0)) times now): \(why)",
                        candidates: indices))
            }
        }
        return out
    }

    /// `refused most by quiet hours`.
    static func reason(_ code: String) -> String {
        switch code {
        case "quiet_hours": "its time falls in quiet hours"
        case "daily_cap": "the daily cap is spent before it"
        case "condition_false": "its condition is never true"
        case "category_cooldown": "its category's cooldown always holds it"
        default: "refused most by \(code)"
        }
    }

    /// Candidates whose report over the same users is the same.
    static func identical(_ result: TuneResult) -> [Caveat] {
        var groups: [String: [Int]] = [:]
        for (index, candidate) in result.candidates.enumerated() where candidate.users > 0 {
            let figures = PopulationReport.json(candidate.tally, header: .blank).rendered()
            groups["\(candidate.users)\u{1}\(figures)", default: []].append(index)
        }
        return groups.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }.map { indices in
            Caveat(
                kind: "identical",
                text:
                    "candidates \(list(indices)) behave identically (the same figures for the same \(PopulationReport.grouped(result.candidates[indices[0]].users)) users): their values change nothing here, so no order among them is the rules'",
                candidates: indices)
        }
    }

    static func list(_ indices: [Int]) -> String { indices.map(String.init).joined(separator: ", ") }

    package var lines: [String] { caveats.map(\.text) }

    package var json: JSONValue {
        .array(
            caveats.map { c in
                .object([("kind", .string(c.kind)), ("text", .string(c.text)), ("candidates", .array(c.candidates.map { .int($0) }))])
            })
    }
}
