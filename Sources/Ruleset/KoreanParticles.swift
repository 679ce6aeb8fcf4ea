/// Korean particle choice (SPEC §6): `을/를`, `이/가`, `은/는`, `과/와`, `으로/로`, `이야/야`
/// depend on whether the word before ends in a consonant (받침). Hangul by Unicode
/// arithmetic, digits in Sino-Korean (trailing zeros by their unit: 10 십, 100 백,
/// 1000 천, 10000 만), Latin letters and common units by their Korean reading.
public enum KoreanParticles {
    /// How a word ends, for particle choice.
    public enum Ending: Sendable, Hashable {
        case vowel
        /// ㄹ: a consonant, except before `(으)로`, where it behaves like a vowel.
        case rieul
        case consonant
    }

    /// The particle form that fits `text`, or the pair as written (`을(를)`) when the
    /// ending cannot be decided.
    public static func form(_ particle: Particle, after text: String) -> String {
        guard let ending = ending(of: text) else { return particle.rawValue }
        let forms = particle.forms
        switch ending {
        case .vowel: return forms.vowel
        case .consonant: return forms.consonant
        case .rieul: return particle == .euroRo ? forms.vowel : forms.consonant
        }
    }

    /// How `text` ends when read aloud, or nil when that cannot be decided.
    public static func ending(of text: String) -> Ending? {
        var scalars = Array(text.unicodeScalars)
        // Closing brackets, quotes and spaces are not read.
        while let last = scalars.last, " )]}\"'’”»".unicodeScalars.contains(last) { scalars.removeLast() }
        guard let last = scalars.last else { return nil }
        if (0xAC00...0xD7A3).contains(last.value) {
            let final = (last.value - 0xAC00) % 28
            return final == 0 ? .vowel : final == 8 ? .rieul : .consonant
        }
        if last >= "0", last <= "9" { return numberEnding(scalars) }
        if let unit = unitEnding(scalars) { return unit }
        if let letter = latinLetterEnding(last) { return letter }
        return nil
    }

    /// Sino-Korean reading of the number the text ends with: the last digit, or for
    /// trailing zeros their unit (10 십, 100 백, 1000 천, 10000 만, 10⁸ 억) — all of which,
    /// like 0 영, end in a consonant.
    private static func numberEnding(_ scalars: [Unicode.Scalar]) -> Ending {
        guard let last = scalars.last, last != "0" else { return .consonant }
        return digitEnding(last)
    }

    /// 일(ㄹ) 이 삼(ㅁ) 사 오 육(ㄱ) 칠(ㄹ) 팔(ㄹ) 구.
    private static func digitEnding(_ digit: Unicode.Scalar) -> Ending {
        switch digit {
        case "1", "7", "8": .rieul
        case "2", "4", "5", "9": .vowel
        default: .consonant  // 0 영, 3 삼, 6 육
        }
    }

    /// Common units written after numbers: ml 밀리리터, h 시간, m 분, k 천, % 퍼센트, …
    private static func unitEnding(_ scalars: [Unicode.Scalar]) -> Ending? {
        let text = String(String.UnicodeScalarView(scalars.suffix(3))).lowercased()
        let units: [(String, Ending)] = [
            ("ml", .vowel), ("km", .vowel), ("kg", .consonant), ("kcal", .vowel), ("%", .vowel),
        ]
        for (unit, ending) in units where text.hasSuffix(unit) {
            return ending
        }
        // Single-letter units only directly after a digit: 5h 시간, 30m 분, 45s 초, 3.2k 천.
        guard scalars.count >= 2, scalars[scalars.count - 2] >= "0", scalars[scalars.count - 2] <= "9" else { return nil }
        switch scalars[scalars.count - 1] {
        case "h", "m", "k": return .consonant
        case "s", "l", "L": return .vowel
        case "g": return .consonant
        default: return nil
        }
    }

    /// Latin letters read by name: L 엘 and R 알 end in ㄹ, M 엠 and N 엔 in a consonant,
    /// the rest in a vowel.
    private static func latinLetterEnding(_ letter: Unicode.Scalar) -> Ending? {
        let upper = String(letter).uppercased()
        guard upper.count == 1, let scalar = upper.unicodeScalars.first, scalar >= "A", scalar <= "Z" else { return nil }
        switch scalar {
        case "L", "R": return .rieul
        case "M", "N": return .consonant
        default: return .vowel
        }
    }
}
