import Foundation
import RulesDiagnostics
import RulesPopulation

/// When no candidate meets every target with confidence, that is the search's finding, not a
/// mistyped command: for each target no candidate of the last round met, the candidate whose
/// interval came closest to meeting it (among every candidate, over the users it lived), its
/// interval and the round it ended in and why — that target's own figures, never another's.
package struct TuneFinding: Sendable {
    package struct Closest: Sendable {
        package var target: String
        package var metric: String
        package var candidate: Int
        package var estimate: TuneEstimate
        /// 1-based; and why it ended there (nil: it lived the last round).
        package var round: Int
        package var stopped: String?
    }

    package var closest: [Closest]
    /// Every target is met by some candidate of the last round, but none meets them all.
    package var notAtOnce: Bool

    /// Nil when some candidate meets every target.
    package init?(_ result: TuneResult) {
        guard result.meeting.isEmpty else { return nil }
        let finals = result.candidates.indices.filter { result.candidates[$0].stopped == nil }
        var closest: [Closest] = []
        for target in result.question.targets {
            guard !finals.contains(where: { result.candidates[$0].estimates[target.metric].map(target.met) ?? false }) else { continue }
            let all = result.candidates.indices.compactMap { index in result.candidates[index].estimates[target.metric].map { (index, $0) } }
            func nearness(_ e: TuneEstimate) -> Double { target.margin(e.high) + target.margin(e.low) }
            guard let best = all.max(by: { nearness($0.1) < nearness($1.1) || (nearness($0.1) == nearness($1.1) && $0.0 > $1.0) }) else {
                continue
            }
            let candidate = result.candidates[best.0]
            closest.append(
                Closest(
                    target: target.text, metric: target.metric, candidate: best.0, estimate: best.1, round: candidate.round + 1,
                    stopped: candidate.stopped))
        }
        self.closest = closest
        notAtOnce = closest.isEmpty
    }

    /// The lines the text report and standard error give.
    package func lines(_ report: TuneReport) -> [String] {
        if notAtOnce { return ["every target is met by some candidate, but none meets them all at once with confidence"] }
        return closest.map { c in
            let e = c.estimate
            let figures =
                "\(MetricWords.number(e.value, c.metric)), \(report.result.question.levelText(c.metric)) \(MetricWords.number(e.low, c.metric)) … \(MetricWords.number(e.high, c.metric))"
            let ended = c.stopped.map { "stopped in \($0)" } ?? "lived the last round (round \(c.round))"
            return
                "no candidate met '\(c.target)' with confidence; the closest was candidate \(c.candidate) (\(report.settingText(c.candidate))): \(figures); it \(ended)"
        }
    }

    package var json: JSONValue {
        .object([
            ("not_at_once", .bool(notAtOnce)),
            (
                "closest",
                .array(
                    closest.map { c in
                        .object([
                            ("target", .string(c.target)), ("candidate", .int(c.candidate)),
                            ("value", .number(MetricWords.rounded(c.estimate.value, c.metric))),
                            ("low", .number(MetricWords.rounded(c.estimate.low, c.metric))),
                            ("high", .number(MetricWords.rounded(c.estimate.high, c.metric))), ("round", .int(c.round)),
                            ("stopped", c.stopped.map(JSONValue.string) ?? .null),
                        ])
                    })
            ),
        ])
    }
}
