import Foundation

/// What a person sees of a text, for the checks of user-visible text (templates, fallbacks,
/// routine names, checklist items): characters that show nothing or steer the text are
/// refused, and sensitive words and forbidden phrases are compared in a folded form that no
/// spacing, width or invisible character can hide from.
package enum VisibleText {
    /// A character of a text that a person would not see, with its place.
    package struct Hidden: Sendable, Hashable {
        package var scalar: Unicode.Scalar
        /// Its offset in the text, in Unicode scalars (the unit of diagnostic columns).
        package var offset: Int
        /// `U+200B ZERO WIDTH SPACE`, or why a run of marks is refused.
        package var description: String
    }

    /// Combining marks one letter may carry: more is a pile that renders as a smear and
    /// still counts as one character of a surface's `max_length`.
    package static let maxCombiningMarks = 4

    /// The first hidden character of `text`, decided by Unicode property, never by a list of
    /// code points: general category control (tab, line breaks, C0/C1, DEL), format (Cf:
    /// zero-width and bidi controls, interlinear annotation, hieroglyph format controls),
    /// private use, unassigned, surrogate, line and paragraph separator (U+2028 breaks a line
    /// on the lock screen); default-ignorable code points (joiners, soft hyphen, word joiner,
    /// BOM, Hangul fillers, variation selectors, tags) — but a variation selector or
    /// zero-width joiner inside an emoji sequence (❤️, 👩‍💻) —; the two symbols Unicode defines
    /// as standing for nothing drawn (U+FFFC OBJECT REPLACEMENT CHARACTER, a placeholder, and
    /// U+2800 BRAILLE PATTERN BLANK, a cell with no dot); a combining mark on a base that
    /// takes none (the start of the text, a space or punctuation, Hangul, an ideograph: "수́"
    /// renders as a smear on 수); and more than `maxCombiningMarks` marks on one letter. Nil
    /// when there is none.
    package static func firstHidden(in text: String) -> Hidden? {
        var offset = 0
        var previous: Unicode.Scalar?
        var base: Unicode.Scalar?
        var marks = 0
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            defer {
                previous = scalar
                offset += 1
            }
            // Printable ASCII and Hangul syllables — most of a Korean ruleset — are letters,
            // digits, spaces, punctuation and symbols: never hidden, each a base for the marks
            // that follow (their properties were looked up, a table search each, for every one).
            if (0x20...0x7E).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value) {
                base = scalar
                marks = 0
                continue
            }
            let properties = scalar.properties
            let category = properties.generalCategory
            // Emoji sequences: a presentation selector after an emoji, a joiner between two (the
            // previous scalar's properties looked up only for these three).
            if scalar.value == 0xFE0F || scalar.value == 0xFE0E || scalar.value == 0x200D, previous?.properties.isEmoji == true {
                if scalar.value != 0x200D { continue }
                if index + 1 < scalars.count, scalars[index + 1].properties.isEmoji { continue }
            }
            switch category {
            case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator:
                return Hidden(scalar: scalar, offset: offset, description: name(scalar))
            default: break
            }
            // (Before the marks: variation selectors are nonspacing marks too.)
            if properties.isDefaultIgnorableCodePoint || properties.isBidiControl || standsForNothing(scalar) {
                return Hidden(scalar: scalar, offset: offset, description: name(scalar))
            }
            if category == .nonspacingMark || category == .enclosingMark || category == .spacingMark {
                guard let base, takesMarks(base) else {
                    let on = base.map { "on \(name($0)), which takes none" } ?? "with nothing to combine with"
                    return Hidden(scalar: scalar, offset: offset, description: "\(name(scalar)): a combining mark \(on)")
                }
                marks += 1
                if marks > maxCombiningMarks {
                    return Hidden(scalar: scalar, offset: offset, description: "more than \(maxCombiningMarks) combining marks on one letter")
                }
                continue
            }
            base = scalar
            marks = 0
        }
        return nil
    }

    /// Symbols Unicode defines as standing for nothing drawn: the object replacement
    /// character (a placeholder for an embedded object) and the blank Braille cell.
    static func standsForNothing(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFFFC || scalar.value == 0x2800
    }

    /// Whether a combining mark may sit on `base`: letters, numbers and symbols do (é, 1⃣,
    /// a keycap); spaces, punctuation, Hangul (its syllables and jamo, whose
    /// Hangul_Syllable_Type or block makes them Korean letters that take no marks) and
    /// ideographs do not.
    static func takesMarks(_ base: Unicode.Scalar) -> Bool {
        let properties = base.properties
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return !isHangul(base) && !properties.isIdeographic
        case .decimalNumber, .letterNumber, .otherNumber, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// Hangul: the jamo (with their extensions), compatibility and halfwidth jamo, and the
    /// syllables.
    static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF, 0xFFA0...0xFFDC: true
        default: false
        }
    }

    /// `U+200B ZERO WIDTH SPACE`.
    static func name(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        return scalar.properties.name.map { "\(code) \($0)" } ?? code
    }

    /// The form words and phrases are compared in: NFKC (full-width and compatibility forms
    /// as their plain letters), with every white space, control, bidi control and
    /// default-ignorable character removed — "수\u{200B}면", "수 면" and "수\u{00A0}면" all
    /// fold to "수면".
    package static func folded(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            let properties = scalar.properties
            if properties.isWhitespace || properties.generalCategory == .control || properties.isDefaultIgnorableCodePoint
                || properties.isBidiControl
            {
                continue
            }
            kept.append(scalar)
        }
        return String(kept)
    }

    /// Whether `text` says `phrase` as a person would read it (both folded).
    package static func says(_ text: String, _ phrase: String) -> Bool {
        Phrases([phrase]).first(in: text) != nil
    }

    /// Words or phrases folded once, to look for in many texts (each text folded once).
    package struct Phrases: Sendable {
        let phrases: [(written: String, folded: String)]

        package init(_ phrases: [String]) {
            self.phrases = phrases.map { ($0, VisibleText.folded($0)) }.filter { !$0.1.isEmpty }
        }

        /// The first phrase (as written) that `text` says, if any.
        package func first(in text: String) -> String? {
            guard !phrases.isEmpty else { return nil }
            let said = VisibleText.folded(text)
            return phrases.first { said.contains($0.folded) }?.written
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
