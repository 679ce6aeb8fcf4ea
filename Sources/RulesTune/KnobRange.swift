import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// `KNOB=RANGE` of `--vary`: a range `A..B` with a step (`/15`, `/30m`; whole numbers step by
/// 1 unless told), or a list `2,3,5`, in the knob's own notation (numbers, `21:30`, `90m`,
/// `true`). Every value must lie within what the knob's key allows.
package enum KnobRange {
    /// The most values one knob may take.
    package static let maxValues = 1_000

    /// The knob and its values (sorted, each once), or what is wrong.
    package static func parse(_ text: String, catalogue: KnobCatalogue) -> Result<(Knob, [Double]), KnobProblem> {
        let shown = TuneQuestion.shown(text)
        guard text.unicodeScalars.count <= 400 else {
            return .failure(
                KnobProblem(
                    "--vary '\(shown)…' is \(text.unicodeScalars.count) characters long, over the limit of 400",
                    hint: "a knob and its values fit in far less; give a list of a few values or a range A..B/STEP"))
        }
        guard let equals = text.firstIndex(of: "=") else {
            return .failure(KnobProblem("--vary '\(shown)' has no '='", hint: "write KNOB=RANGE, e.g. policy.max_per_day=2..4"))
        }
        let name = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        let range = String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        let knob: Knob
        switch catalogue.knob(name) {
        case .success(let found): knob = found
        case .failure(let problem): return .failure(problem)
        }
        switch values(range, knob: knob) {
        case .success(let values): return .success((knob, values))
        case .failure(let problem): return .failure(problem)
        }
    }

    /// The values `range` gives `knob`.
    static func values(_ range: String, knob: Knob) -> Result<[Double], KnobProblem> {
        guard !range.isEmpty else { return .failure(KnobProblem("--vary \(knob.name)= gives no values", hint: example(knob))) }
        let listed: Result<[Double], KnobProblem> = range.contains("..") ? stepped(range, knob: knob) : list(range, knob: knob)
        guard case .success(let values) = listed else { return listed }
        if knob.kind == .count, let broken = values.first(where: { $0 != $0.rounded() }) {
            return .failure(KnobProblem("--vary \(knob.name): \(Knob.decimal(broken)) is not a whole number", hint: example(knob)))
        }
        if let outside = values.first(where: { !knob.bounds.contains($0) }) {
            return .failure(
                KnobProblem(
                    "--vary \(knob.name): \(knob.literal(outside)) is outside what its key allows (\(knob.boundsText))",
                    hint: "keep the range within \(knob.boundsText)"))
        }
        return .success(Array(Set(values.map { ($0 * 1e9).rounded() / 1e9 })).sorted())
    }

    /// `A..B/STEP` (whole numbers step by 1 unless told).
    static func stepped(_ range: String, knob: Knob) -> Result<[Double], KnobProblem> {
        let shown = TuneQuestion.shown(range)
        guard let dots = range.range(of: "..") else { return .failure(KnobProblem("--vary \(knob.name)=\(shown) is not a range")) }
        let from = String(range[..<dots.lowerBound])
        var rest = String(range[dots.upperBound...])
        var stepText: String?
        if let slash = rest.firstIndex(of: "/") {
            stepText = String(rest[rest.index(after: slash)...])
            rest = String(rest[..<slash])
        }
        guard let a = value(from, knob: knob), let b = value(rest, knob: knob) else {
            return .failure(KnobProblem("--vary \(knob.name)=\(shown): the ends are not \(noun(knob))", hint: example(knob)))
        }
        guard a <= b else {
            return .failure(KnobProblem("--vary \(knob.name)=\(shown) is empty: \(knob.literal(a)) is after \(knob.literal(b))", hint: example(knob)))
        }
        let step: Double
        if let stepText {
            guard let parsed = stepValue(stepText, knob: knob), parsed > 0 else {
                return .failure(
                    KnobProblem(
                        "--vary \(knob.name)=\(shown): the step '\(TuneQuestion.shown(stepText))' is not a positive \(stepNoun(knob))",
                        hint: example(knob)))
            }
            step = parsed
        } else if knob.kind == .count {
            step = 1
        } else {
            return .failure(KnobProblem("--vary \(knob.name)=\(shown) needs a step", hint: example(knob)))
        }
        let count = ((b - a) / step).rounded()
        guard abs(count * step - (b - a)) <= 1e-9 * Swift.max(1, abs(b - a)) else {
            return .failure(
                KnobProblem(
                    "--vary \(knob.name)=\(shown): the step \(stepText ?? "1") does not divide \(knob.literal(a))..\(knob.literal(b))",
                    hint: "make the range a whole number of steps long"))
        }
        guard count < Double(maxValues) else {
            return .failure(KnobProblem("--vary \(knob.name)=\(shown) gives more than \(maxValues) values", hint: "take a larger step"))
        }
        return .success((0...Int(count)).map { a + Double($0) * step })
    }

    /// `2,3,5`: each value in the knob's notation.
    static func list(_ range: String, knob: Knob) -> Result<[Double], KnobProblem> {
        let items = range.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.count <= maxValues else { return .failure(KnobProblem("--vary \(knob.name) lists more than \(maxValues) values")) }
        var values: [Double] = []
        for item in items {
            guard let parsed = value(item, knob: knob) else {
                return .failure(
                    KnobProblem(
                        "--vary \(knob.name)=\(TuneQuestion.shown(range)): '\(TuneQuestion.shown(item))' is not \(noun(knob))", hint: example(knob)))
            }
            values.append(parsed)
        }
        return .success(values)
    }

    /// One value in the knob's notation.
    static func value(_ text: String, knob: Knob) -> Double? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.count <= 40 else { return nil }
        switch knob.kind {
        case .count:
            return Int(text).map(Double.init)
        case .number:
            guard let x = Double(text), x.isFinite, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
            return x
        case .time:
            return NodeReader.readTime(text).flatMap { $0 >= 86_400 ? nil : Double($0) }
        case .duration:
            return duration(text)
        case .bool:
            return text == "true" ? 1 : text == "false" ? 0 : nil
        }
    }

    /// A step: a number, or a duration for times and durations.
    static func stepValue(_ text: String, knob: Knob) -> Double? {
        switch knob.kind {
        case .time, .duration: return duration(text)
        case .count: return Int(text.trimmingCharacters(in: .whitespaces)).map(Double.init)
        case .number: return value(text, knob: knob)
        case .bool: return nil
        }
    }

    /// `90m`, `1h30m`, `45s` in seconds.
    static func duration(_ text: String) -> Double? {
        let (tokens, problems) = Lexer.tokenize(text.trimmingCharacters(in: .whitespaces))
        guard problems.isEmpty, tokens.count == 2, case .duration(let seconds) = tokens[0].kind, seconds >= 0 else { return nil }
        return Double(seconds)
    }

    static func noun(_ knob: Knob) -> String {
        switch knob.kind {
        case .count: "whole numbers"
        case .number: "numbers"
        case .time: "times of day like 21:30"
        case .duration: "durations like 90m"
        case .bool: "true or false"
        }
    }

    static func stepNoun(_ knob: Knob) -> String {
        switch knob.kind {
        case .time, .duration: "duration like 30m"
        case .count: "whole number"
        default: "number"
        }
    }

    /// A range for this knob that works, around its current value.
    static func example(_ knob: Knob) -> String {
        switch knob.kind {
        case .count:
            return
                "e.g. \(knob.name)=\(knob.literal(Swift.max(knob.bounds.lowerBound, knob.current - 1)))..\(knob.literal(Swift.min(knob.bounds.upperBound, knob.current + 1)))"
        case .number: return "e.g. \(knob.name)=\(knob.literal(knob.current))..\(knob.literal(knob.current + 0.1))/0.05, or a list 0.5,0.6"
        case .time: return "e.g. \(knob.name)=\(knob.literal(knob.current))..\(knob.literal(Swift.min(86_340, knob.current + 3_600)))/30m"
        case .duration: return "e.g. \(knob.name)=\(knob.literal(knob.current))..\(knob.literal(knob.current + 3_600))/30m"
        case .bool: return "e.g. \(knob.name)=true,false"
        }
    }
}
