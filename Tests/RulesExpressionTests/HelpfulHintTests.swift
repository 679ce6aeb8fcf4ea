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

    @Test func anUnknownMemberListsTheMembersThatExist() {
        let hint = firstHint("sleep.hours > 6") ?? ""
        #expect(hint.contains("sleep.minutes"))
        #expect(hint.contains("sleep.start"))
    }

    @Test func twelveHourTimeSaysWriteTwentyFourHourTime() {
        #expect(firstHint("now >= 8:30pm") == "write 24-hour time: 20:30")
        #expect(firstHint("now >= 12:15am") == "write 24-hour time: 00:15")
    }
}
