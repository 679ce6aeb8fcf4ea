import Foundation
import RulesDiagnostics
import RulesExpression

/// One lint check: its own type in a file of `Lint/Checks` (numbered in the order the checks
/// run), listed by `LintCatalogue.rules`.
package protocol LintRule: SendableMetatype {
    static var check: LintCheck { get }
}

/// What several checks share: their examples' lock-screen template and readings of templates
/// and times.
extension LintRule {
    /// The lock-screen template of several checks' examples.
    static var lockScreenTemplate: String {
        """
        surfaces:
          lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어. }
        templates:
          - id: checkin_ready
            surface: lock_screen
            text: 오늘 루트가 준비됐어.
        """
    }

    /// Characters a template shows at the least: its literal text plus one per placeholder.
    static func minimumLength(_ template: Template) -> Int {
        template.segments.reduce(0) { total, segment in
            switch segment {
            case .text(let text): total + text.count
            case .placeholder(let placeholder): total + 1 + (placeholder.particle.map { _ in 1 } ?? 0)
            }
        }
    }

    /// The template's text with each placeholder standing as one word.
    static func literalText(_ template: Template) -> String {
        template.segments.map { segment in
            switch segment {
            case .text(let text): text
            case .placeholder: "x"
            }
        }.joined()
    }

    /// The values a placeholder can show, when they are known at check time.
    static func knownValues(_ expression: CompiledExpression, _ ruleset: Ruleset) -> [String] {
        switch expression.typed.kind {
        case .fact(_, let name):
            let parts = name.split(separator: ".").map(String.init)
            if parts.count == 3, parts[0] == "routines", parts[2] == "name" { return ruleset.routine(parts[1]).map { [$0.name] } ?? [] }
            if case .enumeration(let type) = expression.type.unwrapped { return type.cases }
            return []
        case .constant(.string(let text)):
            return [text]
        default:
            return []
        }
    }

    /// The first time literal of `source` with a one-digit hour (`8:30`), nil when none.
    static func oneDigitHour(_ source: String) -> String? {
        let scalars = Array(source.unicodeScalars)
        func digit(_ index: Int) -> Bool { index >= 0 && index < scalars.count && ("0"..."9").contains(scalars[index]) }
        for index in scalars.indices where scalars[index] == ":" {
            guard digit(index - 1), !digit(index - 2), digit(index + 1), digit(index + 2), !digit(index + 3) else { continue }
            if index >= 2, scalars[index - 2] == ":" || scalars[index - 2].properties.isAlphabetic || scalars[index - 2] == "." { continue }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[(index - 1)...(index + 2)])
            return String(text)
        }
        return nil
    }
}
