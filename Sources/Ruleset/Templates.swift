import RulesExpression

/// Whether a surface may show sensitive facts.
public enum SurfaceSensitivity: String, Sendable, CaseIterable, Codable {
    case forbidden, allowed
}

/// Where text appears (`surfaces:`): lock screen, widget, home, chat.
public struct Surface: Sendable, Hashable {
    /// Its name (`lock_screen`, `widget`, `home`, `chat`).
    public var name: String
    /// Whether sensitive values may appear on it.
    public var sensitivity: SurfaceSensitivity
    /// Longest text, in characters (graphemes).
    public var maxLength: Int?
    /// Most sentences a text may have.
    public var maxSentences: Int?
    /// What is shown instead of a text that would reveal a sensitive fact.
    public var fallback: String?
    /// Words that must not appear literally in a text on this surface (`수면`, `영양제` …):
    /// a sensitive topic written out is as revealing as a sensitive fact.
    public var sensitiveWords: [String] = []
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
}

/// A Korean particle pair after a placeholder (SPEC §6): the form depends on whether the
/// rendered value ends in a consonant (받침).
public enum Particle: String, Sendable, CaseIterable, Codable {
    case eulReul = "을(를)"
    case iGa = "이(가)"
    case eunNeun = "은(는)"
    case gwaWa = "과(와)"
    case euroRo = "(으)로"
    case iya = "(이)야"

    /// The form after a final consonant, and after a vowel.
    public var forms: (consonant: String, vowel: String) {
        switch self {
        case .eulReul: ("을", "를")
        case .iGa: ("이", "가")
        case .eunNeun: ("은", "는")
        case .gwaWa: ("과", "와")
        case .euroRo: ("으로", "로")
        case .iya: ("이야", "야")
        }
    }
}

/// How a placeholder's value is written.
public enum TemplateFilter: String, Sendable, CaseIterable, Codable {
    /// `3,240`
    case thousands
    /// `5시간 30분` (`30분`, `2시간`) from minutes or a duration
    case hm
    /// `3.2k`
    case k
    /// `50%` from a rate 0…1
    case percent
    /// Korean list joining: `물 300ml, 양치, 300보`
    case list
}

/// A piece of template text: literal text or a placeholder.
public enum TemplateSegment: Sendable {
    case text(String)
    case placeholder(Placeholder)
}

/// `{expr|filter}` followed perhaps by a particle.
public struct Placeholder: Sendable {
    /// The value to show.
    public var expression: CompiledExpression
    /// How to format it (`percent`, `steps`, `duration`…).
    public var filter: TemplateFilter?
    /// The Korean particle that follows it, chosen by the value's last syllable.
    public var particle: Particle?
    /// Where the placeholder's `{` is.
    public var origin: Origin
}

/// One message template (`templates:`, SPEC §6).
public struct Template: Sendable {
    /// Unique id.
    public var id: String
    /// The surface it is written for.
    public var surface: String
    /// The event a character line answers (`home`, `route_changed`, …), nil for
    /// notification texts.
    public var event: String?
    /// Its condition; nil means always.
    public var when: CompiledExpression?
    /// The tone this line is written in; nil fits every tone.
    public var tone: String?
    /// The text as written.
    public var source: String
    /// Literal text and placeholders, in order.
    public var segments: [TemplateSegment]
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
    /// Where the `text:` and `when:` values start.
    public var textOrigin: Origin
    /// Where its `when:` value starts.
    public var whenOrigin: Origin?

    /// The condition and every placeholder's expression.
    public var expressions: [CompiledExpression] {
        var all: [CompiledExpression] = when.map { [$0] } ?? []
        for case .placeholder(let placeholder) in segments { all.append(placeholder.expression) }
        return all
    }

    /// Every fact any placeholder or the condition reads.
    public var factsRead: [String] {
        var names: [String] = when?.factsRead ?? []
        for case .placeholder(let placeholder) in segments {
            for name in placeholder.expression.factsRead where !names.contains(name) { names.append(name) }
        }
        return names
    }
}
