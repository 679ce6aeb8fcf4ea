/// A surface's `sensitive_words:` as a person reads them: a noun (`수면`) as written, and a
/// verb or adjective in its dictionary form (`자다`, `복용하다`) in the forms Korean writes it —
/// its past (`잤`, `복용했`), its connective and adnominal forms (`자고`, `자는`, `자면`, `자지`,
/// `자서`) and its noun (`잠`). "어젯밤 6시간도 못 잤지만" says sleep as plainly as "수면" does.
/// Common words that merely contain a generated form (`잠깐`, `잠금`, `잠시`) are not the topic
/// and are read past. Texts are compared folded (`VisibleText.folded`), so no spacing, width or
/// invisible character hides a form.
package struct SensitiveWords: Sendable {
    /// Each form looked for, folded, with the word it is a form of.
    let forms: [(folded: String, form: String, word: String)]

    /// Everyday words that contain a generated form without being about its topic.
    static let innocent = [
        "잠깐", "잠금", "잠시", "잠재", "잠잠", "자고로", "자지러", "자서전", "남자", "여자", "혼자", "숫자", "글자", "의자", "과자", "부자", "모자",
        "자주", "자기", "자신", "자리", "자세", "자료", "자동", "자유", "자랑",
    ]

    package init(_ words: [String]) {
        var forms: [(String, String, String)] = []
        for word in words {
            for form in Self.forms(of: word) {
                let folded = VisibleText.folded(form)
                if !folded.isEmpty, !forms.contains(where: { $0.0 == folded }) { forms.append((folded, form, word)) }
            }
        }
        self.forms = forms
    }

    /// The first form `text` says, with the word it is a form of.
    package func first(in text: String) -> (form: String, word: String)? {
        guard !forms.isEmpty else { return nil }
        var said = VisibleText.folded(text)
        for word in Self.innocent { said = said.replacingOccurrences(of: word, with: "·") }
        return forms.first { said.contains($0.folded) }.map { ($0.form, $0.word) }
    }

    /// The forms of `word`: itself for a noun or a phrase; for a dictionary form (two or more
    /// Hangul syllables ending in 다), the forms its stem is written in.
    package static func forms(of word: String) -> [String] {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count >= 2, scalars.last == "다", scalars.allSatisfy({ Syllable($0) != nil }) else { return [word] }
        let stem = Array(scalars.dropLast())
        guard let last = stem.last.flatMap(Syllable.init) else { return [word] }
        let head = String(String.UnicodeScalarView(stem.dropLast()))
        let whole = String(String.UnicodeScalarView(stem))
        var forms = [past(head, last), whole + "고", whole + "는", whole + "면", whole + "지"]
        if last.final == 0 {
            // 자 → 잠 (its noun), 자서 (its -아서 form); a stem with a final takes 음 and 어서.
            forms += [head + last.with(final: 16), whole + "서"]
        } else {
            forms += [whole + "음", whole + (last.medial == 0 || last.medial == 8 ? "아" : "어")]
        }
        return forms
    }

    /// The past stem: 자 → 잤, 보 → 봤, 주 → 줬, 마시 → 마셨, 쓰 → 썼, 하 → 했, 먹 → 먹었.
    static func past(_ head: String, _ last: Syllable) -> String {
        let ss = 20
        guard last.final == 0 else { return head + last.text + (last.medial == 0 || last.medial == 8 ? "았" : "었") }
        if last.initial == 18, last.medial == 0 { return head + last.with(medial: 1, final: ss) }  // 하 → 했
        switch last.medial {
        case 0, 4: return head + last.with(final: ss)  // ㅏ, ㅓ: 잤, 섰
        case 8: return head + last.with(medial: 9, final: ss)  // ㅗ → ㅘ: 봤
        case 13: return head + last.with(medial: 14, final: ss)  // ㅜ → ㅝ: 줬
        case 20: return head + last.with(medial: 6, final: ss)  // ㅣ → ㅕ: 셨
        case 18: return head + last.with(medial: 4, final: ss)  // ㅡ → ㅓ: 썼
        default: return head + last.text + "었"
        }
    }

    /// A Hangul syllable as its three parts (Unicode's composition: initial × 588 + medial × 28
    /// + final, from U+AC00).
    struct Syllable {
        var initial: Int
        var medial: Int
        var final: Int

        init?(_ scalar: Unicode.Scalar) {
            guard (0xAC00...0xD7A3).contains(scalar.value) else { return nil }
            let index = Int(scalar.value) - 0xAC00
            (initial, medial, final) = (index / 588, index % 588 / 28, index % 28)
        }

        var text: String { with(final: final) }

        func with(medial: Int? = nil, final: Int) -> String {
            let value = 0xAC00 + initial * 588 + (medial ?? self.medial) * 28 + final
            return Unicode.Scalar(UInt32(value)).map { String(Character($0)) } ?? ""
        }
    }
}
