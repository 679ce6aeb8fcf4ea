import Foundation
import RulesDiagnostics
import RulesExpression
import RulesPopulation
import Ruleset

/// `METRIC OP VALUE`: a bound a candidate must meet with confidence (its interval on the right
/// side of VALUE: 95 %, or 1 − 0.05 / k with k metrics under targets).
package struct TuneTarget: Sendable, Equatable {
    package enum Op: String, Sendable, CaseIterable {
        case atMost = "<="
        case below = "<"
        case atLeast = ">="
        case above = ">"
    }

    package var metric: String
    package var op: Op
    package var bound: Double
    package var text: String

    /// Whether `value` meets the target.
    package func holds(_ value: Double) -> Bool {
        switch op {
        case .atMost: value <= bound + 1e-12
        case .below: value < bound
        case .atLeast: value >= bound - 1e-12
        case .above: value > bound
        }
    }

    /// Met with confidence: the whole interval meets it.
    package func met(_ e: TuneEstimate) -> Bool { holds(e.low) && holds(e.high) }
    /// Ruled out with confidence: no value of the interval meets it.
    package func ruledOut(_ e: TuneEstimate) -> Bool { !holds(e.low) && !holds(e.high) }

    /// How far inside the bound `value` lies (negative: outside), for ranking without an objective.
    package func margin(_ value: Double) -> Double {
        switch op {
        case .atMost, .below: bound - value
        case .atLeast, .above: value - bound
        }
    }

    /// Reads `notifications.per_user_day.max <= 2`, `busiest_day.at_least_3.share < 10%`;
    /// `metrics` are the names the ruleset and population have.
    package static func parse(_ text: String, metrics: [String]) -> Result<TuneTarget, KnobProblem> {
        guard text.count <= 200,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isDefaultIgnorableCodePoint })
        else {
            return .failure(
                KnobProblem(
                    "--target '\(TuneQuestion.shown(text))' is not a target",
                    hint: "write METRIC OP VALUE, e.g. 'notifications.per_user_day.max <= 2'"))
        }
        for op in [Op.atMost, .atLeast, .below, .above] {
            guard let range = text.range(of: op.rawValue) else { continue }
            let metric = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            var number = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard metrics.contains(metric) else {
                let near = Suggestions.nearest(to: metric, among: metrics)
                return .failure(
                    KnobProblem(
                        "--target names an unknown metric '\(TuneQuestion.shown(metric))'",
                        hint: near.map { "did you mean '\($0)'? (rules tune --list-metrics lists them all)" }
                            ?? "rules tune --list-metrics lists them all"))
            }
            var percent = false
            if number.hasSuffix("%") {
                number = String(number.dropLast()).trimmingCharacters(in: .whitespaces)
                percent = true
            }
            guard let value = Double(number), value.isFinite, abs(value) <= 1e12 else {
                return .failure(
                    KnobProblem(
                        "--target '\(TuneQuestion.shown(text))' compares with '\(TuneQuestion.shown(number))', not a number",
                        hint: "e.g. 2, 0.1 or 10%"))
            }
            if percent && !PopulationMetric.isShare(metric) {
                return .failure(
                    KnobProblem("--target '\(TuneQuestion.shown(text))': \(metric) is not a share, so it takes no percent", hint: "write the number"))
            }
            let bound = percent ? value / 100 : value
            if PopulationMetric.isShare(metric), !(0...1).contains(bound) {
                return .failure(
                    KnobProblem(
                        "--target '\(TuneQuestion.shown(text))': \(metric) is a share, from 0 to 1 (0 % to 100 %), so \(percent ? "\(Knob.decimal(value)) %" : Knob.decimal(value)) can never be its bound",
                        hint: "write a share such as 0.02 or 2 %"))
            }
            return .success(
                TuneTarget(
                    metric: metric, op: op, bound: bound,
                    text: "\(metric) \(op.rawValue) \(percent ? "\(Knob.decimal(value)) %" : Knob.decimal(value))"))
        }
        return .failure(
            KnobProblem("--target '\(TuneQuestion.shown(text))' has no comparison", hint: "write METRIC OP VALUE with OP one of <=, <, >=, >"))
    }
}

/// What a search asks: the knobs and their values, the targets, the objective.
package struct TuneQuestion: Sendable {
    package var knobs: [Knob]
    /// Each knob's values, in order.
    package var values: [[Double]]
    package var targets: [TuneTarget]
    /// The metric to maximise (or minimise when `maximise` is false); nil: rank by the first
    /// target's margin.
    package var objective: String?
    package var maximise: Bool

    package init(knobs: [Knob], values: [[Double]], targets: [TuneTarget], objective: String?, maximise: Bool) {
        self.knobs = knobs
        self.values = values
        self.targets = targets
        self.objective = objective
        self.maximise = maximise
    }

    /// The confidence of each target's interval: with k metrics under targets, each is judged
    /// at 1 − 0.05 / k (Bonferroni), so that "meets every target" holds for all of them together
    /// at 95 % (97.5 % each for two). The objective and the other figures stay at 95 %.
    package var targetLevel: Double {
        let k = Set(targets.map(\.metric)).count
        return k > 1 ? 1 - 0.05 / Double(k) : 0.95
    }

    /// `95 %`, or a target's level among several (`97.5 %`).
    package func levelText(_ metric: String) -> String {
        let level = targets.contains { $0.metric == metric } ? targetLevel : 0.95
        return String(format: "%g %%", (level * 1_000).rounded() / 10)
    }

    /// Whether estimates meet every target with confidence (no target: yes).
    package func meetsAll(_ estimates: [String: TuneEstimate]) -> Bool {
        targets.allSatisfy { target in estimates[target.metric].map(target.met) ?? false }
    }

    /// The most grid points a search accepts, and the most candidates it lives.
    package static let maxGrid = 100_000
    package static let maxCandidates = 1_000

    /// How many points the grid holds (saturating).
    package var gridSize: Int { values.reduce(1) { $0.multipliedReportingOverflow(by: Swift.max(1, $1.count)).partialValue } }

    /// A contradiction among the targets: two on one metric that no value meets both of.
    package var contradiction: String? {
        for (i, a) in targets.enumerated() {
            for b in targets[(i + 1)...] where a.metric == b.metric {
                let lowest = [a, b].filter { $0.op == .atLeast || $0.op == .above }.map(\.bound).max()
                let highest = [a, b].filter { $0.op == .atMost || $0.op == .below }.map(\.bound).min()
                guard let low = lowest, let high = highest else { continue }
                if low > high || (low == high && !(a.holds(low) && b.holds(low))) {
                    return "'\(a.text)' and '\(b.text)' cannot both hold"
                }
            }
        }
        return nil
    }

    /// Text safe to show in a message: control characters and invisible ones as `\u{…}`.
    package static func shown(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(120) {
            if scalar.properties.generalCategory == .control || scalar.properties.isDefaultIgnorableCodePoint || scalar == "'" {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
