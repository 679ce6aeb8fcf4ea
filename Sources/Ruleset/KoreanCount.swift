/// A count of things written in Korean (`세 개`, `3개`, `두 가지`), and numbers in a
/// condition's text.
enum KoreanCount {
    static let native = ["한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10]
    static let counters = ["개", "가지"]

    /// The first count in `text` (as written) and its number.
    static func first(in text: String) -> (String, Int)? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." })
        for (index, word) in words.enumerated() {
            // `3개`, `3 개`, `세 개`, `세개`.
            for counter in counters {
                if word.hasSuffix(counter), let number = number(String(word.dropLast(counter.count))) { return (String(word), number) }
                if word.hasPrefix(counter), index > 0, let number = number(String(words[index - 1])) {
                    return (words[index - 1] + " " + counter, number)
                }
            }
        }
        return nil
    }

    static func number(_ word: String) -> Int? { Int(word) ?? native[word] }

    /// The offset (in scalars) where the last number of `text` (`60`, `0.5`) starts; 0
    /// without one.
    static func lastNumberOffset(in text: String) -> Int {
        let scalars = Array(text.unicodeScalars)
        guard let end = scalars.lastIndex(where: { ("0"..."9").contains($0) }) else { return 0 }
        var start = end
        while start > 0, ("0"..."9").contains(scalars[start - 1]) || scalars[start - 1] == "." { start -= 1 }
        return start
    }
}
