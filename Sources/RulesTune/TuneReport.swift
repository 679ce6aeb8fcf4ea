import Foundation
import RulesDiagnostics
import RulesPopulation

/// A search's report: the candidates that meet every target with confidence (best first),
/// every candidate with the round it stopped in and why, the Pareto set of the objective and
/// the first target, and the best candidate's edit. Text and JSON here; the page in
/// `TuneReportHTML`.
package struct TuneReport: Sendable {
    package var result: TuneResult
    /// The population file as given.
    package var file: String
    /// The best candidate's edit as a unified diff ("" when it is the current ruleset).
    package var edit: String
    /// What a designer would miss: a knob that defines the metric, a type a candidate never
    /// delivers, candidates that behave identically.
    package var caveats: TuneCaveats
    /// What the edit did to comments that stated an old value (`file:line: …`).
    package var editNotes: [String] = []

    package init(result: TuneResult, file: String, edit: String) {
        self.result = result
        caveats = TuneCaveats(result)
        self.file = file
        self.edit = edit
    }

    /// The best candidate: the first that meets every target.
    package var best: Int? { result.meeting.first }

    /// The Pareto set of the objective and the first target among the candidates that lived
    /// the last round (the same users, so their figures compare; the others stopped as worse
    /// or ruled out): none is better on one and at least as good on the other.
    package var pareto: [Int] {
        guard let axes = axes else { return [] }
        let points = result.candidates.indices.filter { result.candidates[$0].stopped == nil }.compactMap { index -> (Int, Double, Double)? in
            guard let x = result.candidates[index].estimates[axes.x.metric], let y = result.candidates[index].estimates[axes.y.metric] else {
                return nil
            }
            return (index, axes.x.sign * x.value, axes.y.sign * y.value)
        }
        return points.filter { p in !points.contains { q in q.1 >= p.1 && q.2 >= p.2 && (q.1 > p.1 || q.2 > p.2) } }.map(\.0)
    }

    /// The two metrics the report draws: the objective (else the second target) across, the
    /// first target up; each with +1 when more is better.
    package var axes: (x: (metric: String, sign: Double), y: (metric: String, sign: Double))? {
        let question = result.question
        guard let first = question.targets.first else { return nil }
        let targetSign: Double = first.op == .atMost || first.op == .below ? -1 : 1
        if let objective = question.objective, objective != first.metric {
            return ((objective, question.maximise ? 1 : -1), (first.metric, targetSign))
        }
        guard question.targets.count > 1 else { return nil }
        let second = question.targets[1]
        return ((second.metric, second.op == .atMost || second.op == .below ? -1 : 1), (first.metric, targetSign))
    }

    /// `policy.max_per_day=2` or `(the current ruleset)`.
    package func settingText(_ index: Int) -> String {
        let text = result.candidates[index].setting.text(result.question.knobs)
        return index == 0 ? "\(text) (now)" : text
    }

    package func text() -> String {
        var out = header()
        if !caveats.caveats.isEmpty {
            out += "\nwhat the figures alone would not tell you:\n"
            for line in caveats.lines { out += "  - \(line)\n" }
        }
        let meeting = result.meeting
        if meeting.isEmpty {
            out += "\nno candidate meets every target with confidence\n"
            if let finding = TuneFinding(result) {
                for line in finding.lines(self) { out += "  \(line)\n" }
                out += "  (widen the knobs' ranges, loosen a target, or live more users for narrower intervals)\n"
            }
        } else {
            out += "\nmeet every target with confidence, best first:\n"
            for (rank, index) in meeting.enumerated() {
                out += "  \(rank + 1). candidate \(index): \(settingText(index))\n"
                for metric in result.metrics.prefix(result.question.targets.count + (result.question.objective == nil ? 0 : 1)) {
                    if let e = result.candidates[index].estimates[metric] { out += "       \(line(metric, e))\n" }
                }
            }
        }
        let tied = result.tied
        if let objective = result.question.objective, let best, !tied.isEmpty {
            out += "\nindistinguishable from candidate \(best) by \(objective) (the paired difference covers 0): a tie, not a pick\n"
            for (index, d) in tied {
                out +=
                    "  candidate \(index) (\(settingText(index))): \(MetricWords.signed(d.difference, objective)) (95 % \(MetricWords.signed(d.differenceLow, objective)) … \(MetricWords.signed(d.differenceHigh, objective)))\n"
            }
        }
        out += "\ncandidates (users lived; how each ended):\n"
        for (index, candidate) in result.candidates.enumerated() {
            let fate =
                candidate.stopped ?? (meeting.contains(index) ? "meets every target" : "lived the last round; not every target met with confidence")
            out += "  \(index). \(settingText(index)) — \(PopulationReport.grouped(candidate.users)) users; \(fate)\n"
        }
        let front = pareto
        if let axes, !front.isEmpty {
            out += "\nPareto set (\(axes.x.metric) against \(axes.y.metric)): candidates \(front.map(String.init).joined(separator: ", "))\n"
        }
        if let best {
            out += "\nbest: candidate \(best) (\(settingText(best)))\n"
            // The targets and the objective, then the headline metrics the edit moves.
            let asked = result.question.targets.count + (result.question.objective == nil ? 0 : 1)
            for (position, metric) in result.metrics.enumerated() {
                guard let e = result.candidates[best].estimates[metric], position < asked || e.difference != 0 else { continue }
                out += "  \(line(metric, e))\n"
            }
            out += edit.isEmpty ? "\nthe best candidate is the current ruleset: nothing to edit\n" : "\nthe edit:\n" + edit
            for note in editNotes { out += "note: \(note)\n" }
        }
        return out
    }

    func header() -> String {
        let q = result.question
        let sizes = result.schedule.users.prefix(result.roundsRun).map { PopulationReport.grouped($0) }.joined(separator: " → ")
        let full = TuneSchedule.fullCost(candidates: result.candidates.count, users: result.population, days: result.days)
        let share = full == 0 ? 0 : Double(result.userDays) / Double(full) * 100
        var out =
            "rules tune \(PopulationReport.line(file)): \(result.candidates.count) candidates, \(result.roundsRun) round\(result.roundsRun == 1 ? "" : "s") "
        out += "(\(sizes) users × \(result.days) days), seed \(result.seed)\n"
        for (knob, values) in zip(q.knobs, q.values) {
            out += "  vary \(knob.name) (\(knob.place)) over \(values.map(knob.literal).joined(separator: ", ")); now \(knob.literal(knob.current))\n"
        }
        for target in q.targets { out += "  target \(target.text)\n" }
        if q.targetLevel > 0.95 {
            out +=
                "  each target is judged on its \(q.levelText(q.targets[0].metric)) interval, so that all \(Set(q.targets.map(\.metric)).count) hold together at 95 % (Bonferroni)\n"
        }
        if let objective = q.objective { out += "  \(q.maximise ? "maximise" : "minimise") \(objective)\n" }
        out +=
            "  lived \(PopulationReport.grouped(result.userDays)) user-days: \(String(format: "%.1f", share)) % of living every candidate at full size (\(PopulationReport.grouped(full)))\n"
        out += unmodelledLines()
        if result.budgetEnded {
            out += "  the budget ended before the last round: the last round ran at \(sizes.split(separator: " ").last ?? "") users\n"
        }
        return out
    }

    /// What the population does not model, and each target or objective that turns on it.
    func unmodelledLines() -> String {
        guard let unmodelled = result.unmodelled, let line = unmodelled.line else { return "" }
        var out = "  \(line)\n"
        let q = result.question
        let asked = q.targets.map { ("target '\($0.text)'", $0.metric) } + (q.objective.map { [("the objective \($0)", $0)] } ?? [])
        for (what, metric) in asked {
            guard let key = unmodelled.key(for: metric) else { continue }
            out +=
                "  warning: \(what) turns on \(key.key), which the population does not model (\(key.meaning)): its figures are the file's, not users'\n"
        }
        return out
    }

    /// `notices a user-day (mean): 1.91 (95 % 1.88 … 1.94); −0.31 against now (95 % −0.33 … −0.29) [notifications.per_user_day.mean]`.
    func line(_ metric: String, _ e: TuneEstimate) -> String {
        let words = MetricWords.words(metric)
        return
            "\(words == metric ? metric : words): \(MetricWords.number(e.value, metric)) (\(result.question.levelText(metric)) \(MetricWords.number(e.low, metric)) … \(MetricWords.number(e.high, metric))); "
            + "\(MetricWords.signed(e.difference, metric)) against now (95 % \(MetricWords.signed(e.differenceLow, metric)) … \(MetricWords.signed(e.differenceHigh, metric)))"
            + (words == metric ? "" : " [\(metric)]")
    }

    package func json() -> JSONValue {
        let q = result.question
        func estimate(_ metric: String, _ e: TuneEstimate) -> JSONValue {
            .object([
                ("metric", .string(metric)), ("value", .number(MetricWords.rounded(e.value, metric))),
                ("low", .number(MetricWords.rounded(e.low, metric))),
                ("high", .number(MetricWords.rounded(e.high, metric))), ("difference", .number(MetricWords.rounded(e.difference, metric))),
                ("difference_low", .number(MetricWords.rounded(e.differenceLow, metric))),
                ("difference_high", .number(MetricWords.rounded(e.differenceHigh, metric))),
            ])
        }
        let candidates: [JSONValue] = result.candidates.enumerated().map { index, c in
            .object([
                ("candidate", .int(index)), ("baseline", .bool(index == 0)),
                ("values", .object(zip(q.knobs, c.setting.values).map { ($0.name, .string($0.literal($1))) })),
                ("users", .int(c.users)), ("last_round", .int(c.round + 1)), ("stopped", c.stopped.map(JSONValue.string) ?? .null),
                ("meets_targets", .bool(result.meeting.contains(index))),
                ("metrics", .array(result.metrics.compactMap { m in c.estimates[m].map { estimate(m, $0) } })),
                ("rounds", .array(c.rounds.map { r in .array(r.keys.sorted().compactMap { m in r[m].map { estimate(m, $0) } }) })),
            ])
        }
        let knobs: [JSONValue] = zip(q.knobs, q.values).map { knob, values in
            .object([
                ("knob", .string(knob.name)), ("file", .string(knob.file)), ("line", .int(knob.line)), ("now", .string(knob.literal(knob.current))),
                ("values", .array(values.map { .string(knob.literal($0)) })),
            ])
        }
        return .object([
            ("population", .string(file)), ("users", .int(result.population)), ("days", .int(result.days)),
            ("seed", .int(Int(clamping: result.seed))),
            ("knobs", .array(knobs)), ("targets", .array(q.targets.map { .string($0.text) })),
            ("target_level", .number(q.targetLevel)),
            (
                "objective",
                q.objective.map { .object([("metric", .string($0)), ("direction", .string(q.maximise ? "maximise" : "minimise"))]) } ?? .null
            ),
            ("rounds", .array(result.schedule.users.prefix(result.roundsRun).map { .int($0) })), ("budget_ended", .bool(result.budgetEnded)),
            ("user_days", .int(result.userDays)),
            ("full_size_user_days", .int(TuneSchedule.fullCost(candidates: result.candidates.count, users: result.population, days: result.days))),
            ("meeting", .array(result.meeting.map { .int($0) })), ("best", best.map { .int($0) } ?? .null),
            ("finding", TuneFinding(result)?.json ?? .null),
            (
                "tied_with_best",
                .array(
                    result.tied.map { index, d in
                        let metric = q.objective ?? ""
                        return .object([
                            ("candidate", .int(index)), ("difference", .number(MetricWords.rounded(d.difference, metric))),
                            ("low", .number(MetricWords.rounded(d.differenceLow, metric))),
                            ("high", .number(MetricWords.rounded(d.differenceHigh, metric))),
                        ])
                    })
            ),
            ("pareto", .array(pareto.map { .int($0) })), ("unmodelled", result.unmodelled?.json ?? .array([])), ("caveats", caveats.json),
            ("candidates", .array(candidates)), ("edit", .string(edit)),
            ("edit_notes", .array(editNotes.map { .string($0) })),
        ])
    }
}
