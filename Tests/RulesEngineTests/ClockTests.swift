import Foundation
import RulesEngine
import RulesExpression
import Testing

@Suite struct ClockTests {
    let seoul = LocalClock(identifier: "Asia/Seoul")!
    let newYork = LocalClock(identifier: "America/New_York")!

    @Test func formatsISO8601WithTheDaysOffset() {
        let instant = seoul.instant(day: DateFormat.days("2026-06-29")!, seconds: 21 * 3600 + 10 * 60)
        #expect(seoul.iso8601(instant) == "2026-06-29T21:10:00+09:00")
    }

    @Test func aSkippedTimeMovesForwardByTheGap() {
        // 2026-03-08 02:30 does not exist in New York (clocks jump 02:00 → 03:00).
        let instant = newYork.instant(day: DateFormat.days("2026-03-08")!, seconds: 2 * 3600 + 30 * 60)
        #expect(newYork.iso8601(instant) == "2026-03-08T03:30:00-04:00")
    }

    @Test func aRepeatedTimeTakesItsFirstOccurrence() {
        // 2026-11-01 01:30 happens twice in New York; the first is EDT (-04:00).
        let instant = newYork.instant(day: DateFormat.days("2026-11-01")!, seconds: 3600 + 30 * 60)
        #expect(newYork.iso8601(instant) == "2026-11-01T01:30:00-04:00")
    }

    @Test func logicalDayStartsAtDayStartsAt() {
        let day = DateFormat.days("2026-07-03")!
        let late = seoul.instant(day: day + 1, seconds: 3 * 3600 + 59 * 60)
        let early = seoul.instant(day: day + 1, seconds: 4 * 3600)
        #expect(seoul.logical(late, dayStart: 4 * 3600).day == day)
        #expect(seoul.logical(early, dayStart: 4 * 3600).day == day + 1)
        #expect(seoul.instant(logicalDay: day, seconds: 70 * 60, dayStart: 4 * 3600) == seoul.instant(day: day + 1, seconds: 70 * 60))
    }
}
