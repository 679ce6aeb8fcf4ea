extension Ruleset {
    /// Why `fact` is sensitive (a path a designer can follow), or nil when it is not
    /// (SPEC §6): everything under `sleep.`, every fact of a sensitive routine, and
    /// `recovery.items_text` when a recovery item's routine is sensitive. Counts and rates
    /// are not.
    public func sensitivity(of fact: String) -> String? {
        if fact.hasPrefix("sleep.") { return "'\(fact)' is sleep data" }
        let parts = fact.split(separator: ".").map(String.init)
        if parts.count >= 3, parts[0] == "routines", let routine = routine(parts[1]), routine.sensitive {
            return "'\(fact)' belongs to routine '\(routine.id)', which is sensitive"
        }
        if fact == "recovery.items_text" || fact == "recovery.remaining_text" {
            for item in recovery?.items ?? [] {
                if let routine = routine(item.routine), routine.sensitive {
                    return
                        "'\(fact)' lists recovery item '\(item.routine)' (\(item.origin.file):\(item.origin.location.line)), a sensitive routine"
                }
            }
        }
        return nil
    }

    /// Sentences in a text: runs ending in `.`, `!`, `?` or `…` (a trailing run counts).
    public static func sentenceCount(_ text: String) -> Int {
        var count = 0
        var inSentence = false
        for character in text {
            if ".!?…".contains(character) {
                if inSentence { count += 1 }
                inSentence = false
            } else if !character.isWhitespace {
                inSentence = true
            }
        }
        return count + (inSentence ? 1 : 0)
    }
}
