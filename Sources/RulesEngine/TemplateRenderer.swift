import Foundation
import RulesExpression
import Ruleset

/// Renders templates (SPEC §6): placeholders with filters, Korean particles, static and
/// run-time redaction, and the reproducible choice among matching lines.
final class TemplateRenderer: Sendable {
    let ruleset: Ruleset
    let dayStart: Int
    /// What the ruleset's templates need worked out once (the engine's).
    let derived: RulesetDerived

    /// A class, made once per ruleset and day start: a renderer holds the whole ruleset,
    /// and copying that struct costs a retain per field.
    init(ruleset: Ruleset, dayStart: Int, derived: RulesetDerived) {
        self.ruleset = ruleset
        self.dayStart = dayStart
        self.derived = derived
    }

    enum Outcome {
        case rendered(String)
        /// A placeholder's value is unknown: the template is skipped for this moment.
        case unknown
        /// A sensitive value would reach a surface that forbids it.
        case refused
        /// A placeholder failed to evaluate (the message names the file, line and error).
        case failed(String)
    }

    /// The first segment of `template` that reads a sensitive fact on a surface that forbids
    /// them (rendering stops there, refused), nil when none does.
    static func refusedSegment(_ template: Template, in ruleset: Ruleset) -> Int? {
        guard ruleset.surface(template.surface)?.sensitivity == .forbidden else { return nil }
        return template.segments.firstIndex { segment in
            guard case .placeholder(let placeholder) = segment else { return false }
            return placeholder.expression.factsRead.contains { ruleset.sensitivity(of: $0) != nil }
        }
    }

    /// Whether rendering `template` can report a problem: its `when` or a placeholder can
    /// fail to evaluate on some values (the only problems a rendering reports).
    static func canFailOnValues(_ template: Template) -> Bool {
        if template.when?.canFailOnValues == true { return true }
        return template.segments.contains { segment in
            if case .placeholder(let placeholder) = segment { return placeholder.expression.canFailOnValues }
            return false
        }
    }

    /// Renders `template` with `facts`; `refusedAt`: its refused segment (see
    /// `refusedSegment`), worked out by the caller once per ruleset.
    func render(_ template: Template, refusedAt: Int?, facts: FactValues) -> Outcome {
        // A text without placeholders (most notification texts) is its one segment.
        if template.segments.count == 1, case .text(let literal) = template.segments[0] { return .rendered(literal) }
        var text = ""
        var context = EvaluationContext(facts: facts, dayStart: dayStart)
        for (index, segment) in template.segments.enumerated() {
            switch segment {
            case .text(let literal):
                text += literal
            case .placeholder(let placeholder):
                if index == refusedAt { return .refused }
                let value: Value
                do {
                    value = try placeholder.expression.value(&context)
                } catch {
                    let place = "\(placeholder.origin.file):\(placeholder.origin.location.line)"
                    return .failed("\(place): '{\(placeholder.expression.source)}' of template '\(template.id)' could not be evaluated: \(error)")
                }
                if value.isUnknown { return .unknown }
                let written = TemplateRenderer.format(value, placeholder.filter)
                text += written
                if let particle = placeholder.particle { text += KoreanParticles.form(particle, after: written) }
            }
        }
        return .rendered(text)
    }

    /// Writes a value for text: ints plainly, numbers with up to two decimals, times
    /// `21:30`, durations `1h 30m`, lists joined with `, ` (Korean list joining).
    static func format(_ value: Value, _ filter: TemplateFilter?) -> String {
        switch filter {
        case .thousands?:
            return thousands(value.numeric ?? 0)
        case .hm?:
            let minutes: Int
            if case .duration(let seconds) = value { minutes = seconds / 60 } else { minutes = Int(saturating: value.numeric ?? 0) }
            // Korean, as the lines around it: 5시간 30분, 30분, 2시간.
            let (hours, rest) = (minutes / 60, minutes % 60)
            if hours == 0 { return "\(rest)분" }
            return rest == 0 ? "\(hours)시간" : "\(hours)시간 \(rest)분"
        case .k?:
            let number = value.numeric ?? 0
            if abs(number) < 1000 { return plain(number) }
            let tenths = (number / 100).rounded() / 10
            return plain(tenths) + "k"
        case .percent?:
            return plain(((value.numeric ?? 0) * 100).rounded()) + "%"
        case .list?, nil:
            switch value {
            case .int(let v): return String(v)
            case .number(let v): return plain((v * 100).rounded() / 100)
            case .string(let v): return v
            case .time(let seconds): return TimeFormat.clock(seconds)
            case .duration(let seconds):
                let minutes = seconds / 60
                return minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
            case .date(let days): return DateFormat.string(days)
            case .bool(let v): return v ? "true" : "false"
            case .list(let items): return items.map { format($0, nil) }.joined(separator: ", ")
            case .map, .unknown: return ""
            }
        }
    }

    static func plain(_ value: Double) -> String { Value.formatNumber(value) }

    /// `3,240`.
    static func thousands(_ value: Double) -> String {
        // Past 10^15 a number has no exact digits to group: written plainly.
        guard value.isFinite, abs(value) < 1e15 else { return plain(value) }
        let rounded = Int(value.rounded())
        let digits = String(abs(rounded))
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return (rounded < 0 ? "-" : "") + out
    }

    /// The line for `event` on `surface`: templates of that event whose `when` holds, those
    /// in the user's tone preferred over toneless ones, then the one at
    /// (day number) mod (count) in file order. Templates whose value is unknown are skipped;
    /// a refused one yields the surface's fallback, marked redacted.
    /// Evaluation errors (a `when` or a placeholder) skip the template and go to `problems`.
    func line(
        surface: String, event: String, tone: String?, day: Int, facts: FactValues, problems: inout [String]
    ) -> RenderedText? {
        guard let index = derived.lineIndex[LineKey(surface: surface, event: event)] else { return nil }
        var untraced: [Explanation.Result]?
        return line(derived.lines[index], tone: tone, day: day, facts: facts, problems: &problems, tried: &untraced)
    }

    /// The same for a line worked out with the ruleset (`RulesetDerived.lines`). With `tried`
    /// (when the engine explains), what each of the line's templates' `when` evaluated to is
    /// traced there, in file order (a template without one matches).
    func line(
        _ spec: LineSpec, tone: String?, day: Int, facts: FactValues, problems: inout [String], tried: inout [Explanation.Result]?
    ) -> RenderedText? {
        let surface = spec.key.surface
        var context = EvaluationContext(facts: facts, dayStart: dayStart)
        // By index: a template copied out of the ruleset costs a retain per field.
        let templates = ruleset.templates
        var matching: [Int] = []
        matching.reserveCapacity(spec.templates.count)
        for index in spec.templates {
            if let when = templates[index].when {
                do {
                    let holds = try when.isTrue(&context)
                    tried?.append(holds ? .matched : .notMatched)
                    guard holds else { continue }
                } catch {
                    tried?.append(.failed(error.description))
                    let place = templates[index].whenOrigin.map { "\($0.file):\($0.location.line): " } ?? ""
                    problems.append("\(place)'\(when.source)' of template '\(templates[index].id)' could not be evaluated: \(error)")
                    continue
                }
            } else {
                tried?.append(.matched)
            }
            matching.append(index)
        }
        let toned = matching.filter { templates[$0].tone != nil && templates[$0].tone == tone }
        var candidates = toned.isEmpty ? matching.filter { templates[$0].tone == nil } : toned
        while !candidates.isEmpty {
            let index = ((day % candidates.count) + candidates.count) % candidates.count
            let templateIndex = candidates[index]
            let template = templates[templateIndex]
            let refusedAt = templateIndex < derived.refusedSegment.count ? derived.refusedSegment[templateIndex] : nil
            switch render(template, refusedAt: refusedAt, facts: facts) {
            case .rendered(let text):
                return RenderedText(templateID: template.id, surface: surface, text: text, redacted: false)
            case .refused:
                return RenderedText(templateID: template.id, surface: surface, text: spec.fallback, redacted: true)
            case .unknown:
                candidates.remove(at: index)
            case .failed(let message):
                problems.append(message)
                candidates.remove(at: index)
            }
        }
        return nil
    }
}

/// Guards for any text, including lines a chat model writes (SPEC §6): length, sentences
/// and forbidden phrases. A line that fails is replaced by a template line.
public struct TextGuard: Sendable {
    /// The ruleset whose surfaces and templates it renders.
    public let ruleset: Ruleset
    /// The forbidden phrases, folded once.
    let phrases: VisibleText.Phrases

    /// A renderer for `ruleset`.
    public init(ruleset: Ruleset) {
        self.ruleset = ruleset
        phrases = VisibleText.Phrases(ruleset.forbiddenPhrases)
    }

    /// Why `text` may not appear on `surface`, or nil when it may.
    public func violation(_ text: String, surface: String) -> String? {
        if let phrase = phrases.first(in: text) {
            return "forbidden_phrase:\(phrase)"
        }
        guard let limits = ruleset.surface(surface) else { return nil }
        if let maxLength = limits.maxLength, text.count > maxLength { return "too_long" }
        if let maxSentences = limits.maxSentences, Ruleset.sentenceCount(text) > maxSentences { return "too_many_sentences" }
        return nil
    }

}

/// The renderer's value formatting, for tests and tools that show values as lines do.
public enum TemplateRendererProbe {
    /// A value as a filter formats it (`percent`: 42%, `steps`: 3,240보, …).
    public static func format(_ value: Value, _ filter: TemplateFilter?) -> String {
        TemplateRenderer.format(value, filter)
    }
}
