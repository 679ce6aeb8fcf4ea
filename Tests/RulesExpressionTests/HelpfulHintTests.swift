import RulesDiagnostics
import RulesExpression
import Testing

/// Help lines that name the real fix, as a designer met them.
@Suite struct HelpfulHintTests {
    func firstHint(_ text: String) -> String? {
        TestSchema.compile(text).1.first?.hint
    }

    @Test func aMinutesFactComparedWithADurationSaysWhichNumberToWrite() {
        #expect(firstHint("(sleep.minutes ?? 420) < 6h30m") == "'sleep.minutes' counts minutes: write 390")
        #expect(firstHint("water.ml > 1h") == "'water.ml' counts ml: compare it with a number in that unit")
    }

    /// The sleep typos of a designer's afternoon: each hint says what to write.
    @Test(arguments: [
        ("(sleep.minutes ?? 420) < 6h 30m", "write a duration without spaces: 6h30m, or 390 where a fact counts minutes (sleep.minutes)"),
        ("(sleep.minutes ?? 420) < 6.5h", "durations take whole units: write 6h30m, or 390 where a fact counts minutes (sleep.minutes)"),
        ("(sleep.minutes ?? 420) < 06:30", "'sleep.minutes' counts minutes: write 390 (06:30 is a time of day)"),
        ("(sleep.minutes ?? 420) < 6시간", "write 6h"),
        ("(sleep.minutes ?? 420) < 390분", "write 6h30m"),
        ("now >= 20시", "write a time of day as 20:00; a duration of hours as 20h"),
        ("now >= 30초", "write 30s"),
    ])
    func sleepAndClockTyposSayWhatToWrite(text: String, hint: String) {
        #expect(firstHint(text) == hint)
        // One error, not a cascade.
        #expect(TestSchema.compile(text).1.filter { $0.severity == .error }.count == 1, "\(TestSchema.compile(text).1.map(\.message))")
    }

    @Test func anUnknownMemberListsTheMembersThatExist() {
        let hint = firstHint("sleep.hours > 6") ?? ""
        #expect(hint.contains("sleep.minutes"))
        #expect(hint.contains("sleep.start"))
    }

    /// There is no null to compare with: the hint shows the `??` form instead (not a
    /// did-you-mean toward some fact that happens to be near `null`).
    @Test(arguments: ["null", "nil", "None", "undefined"])
    func comparingWithNullShowsTheDefaultForm(word: String) {
        #expect(
            firstHint("quest.steps.target == \(word)")
                == "the rule language has no '\(word)': a fact that may be unknown compares through a default, e.g. (quest.steps.target ?? 0) == 0")
    }

    /// `routine.*` outside a per-routine notification (a route, a template) says where it is bound.
    @Test func theRoutineBindingOutsideItsNotificationSaysWhereItIsBound() {
        #expect(
            firstHint("routine.progress < 1.0")
                == "'routine' is bound only inside a notification with 'for_each: routine' (its 'at' and 'when'); elsewhere name one: routines.<id>.progress"
        )
    }

    @Test func twelveHourTimeSaysWriteTwentyFourHourTime() {
        #expect(firstHint("now >= 8:30pm") == "write 24-hour time: 20:30")
        #expect(firstHint("now >= 12:15am") == "write 24-hour time: 00:15")
    }
}
