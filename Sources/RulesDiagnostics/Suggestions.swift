/// "Did you mean" support: the nearest candidate by edit distance.
public enum Suggestions {
    /// Edit distance over Unicode scalars where swapping two neighbours counts as one
    /// edit (optimal string alignment): `mni` is one edit from `min`.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var beforePrevious = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var best = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    best = Swift.min(best, beforePrevious[j - 2] + 1)
                }
                current[j] = best
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[y.count]
    }

    /// The candidate closest to `word`, if it is close enough to be a plausible typo:
    /// at most a third of the word's length (at least 1, at most 3 edits), and never every
    /// character replaced (`을` suggests nothing, not the one-letter `k`). Ties go to the
    /// candidate that comes first in `candidates`, so the answer is deterministic.
    public static func nearest(to word: String, among candidates: some Sequence<String>) -> String? {
        let allowed = Swift.max(1, Swift.min(3, word.unicodeScalars.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            let whole = Swift.max(word.unicodeScalars.count, candidate.unicodeScalars.count)
            if distance <= allowed, distance < whole, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }
}
