import Foundation
import RulesDiagnostics
import RulesExpression
import TestSupport
import Testing

@testable import RulesEngine

@Suite struct ClockTests {
    let seoul = LocalClock(identifier: "Asia/Seoul")!
    let newYork = LocalClock(identifier: "America/New_York")!

    /// A zone's fixed offset (the clock's fast path) is what reading its offset every 15 days
    /// from 1990 to 2050 says, for every zone the time-zone data knows.
    @Test func aFixedOffsetIsOneTheZoneKeptFrom1990To2050() throws {
        func read(_ zone: TimeZone) -> Int? {
            let first = zone.secondsFromGMT(for: LocalClock.fixedSpan.start)
            var instant = LocalClock.fixedSpan.start
            while instant <= LocalClock.fixedSpan.end {
                if zone.secondsFromGMT(for: instant) != first { return nil }
                instant = instant.addingTimeInterval(15 * 86_400)
            }
            return zone.secondsFromGMT(for: LocalClock.fixedSpan.end) == first ? first : nil
        }
        var fixed = 0
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            let zone = try #require(TimeZone(identifier: identifier))
            #expect(LocalClock.fixedOffset(of: zone) == read(zone), "\(identifier)")
            if read(zone) != nil { fixed += 1 }
        }
        #expect(TimeZone.knownTimeZoneIdentifiers.count > 300 && fixed > 50, "\(fixed) fixed")
        func offset(_ identifier: String) throws -> Int? { LocalClock.fixedOffset(of: try #require(TimeZone(identifier: identifier))) }
        #expect(try offset("Asia/Seoul") == 9 * 3600 && offset("Asia/Kolkata") == 19_800 && offset("UTC") == 0)
        // Daylight saving, and a change of standard time without it (+9 to +8:30 in 2015, back in 2018).
        #expect(try offset("America/New_York") == nil && offset("Asia/Pyongyang") == nil)
    }

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

    /// Any instant reads without trapping: outside the days the engine lives it reads as the
    /// nearest end of them (the engine refuses such times before it reads them).
    @Test(arguments: [1e300, -1e300, 1e19, -1e19, Double.infinity, -Double.infinity, Double.nan, 9.3e18])
    func everyInstantReadsWithoutTrapping(seconds: Double) {
        let instant = Date(timeIntervalSince1970: seconds)
        for clock in [seoul, newYork] {
            let (day, time) = clock.local(instant)
            #expect(day >= InputLimits.engineDays.lowerBound - 2 && day <= InputLimits.engineDays.upperBound + 2)
            #expect((0..<86_400).contains(time))
            #expect(!clock.iso8601(instant).isEmpty)
        }
        #expect(seoul.instant(day: Int.max, seconds: Int.min).timeIntervalSince1970.isFinite)
    }

    /// The engine lives 2000-01-01 to 2199-12-31: an event, a clock tick or a run at any
    /// other time (a device clock far off) is one `problem` record and changes nothing; the
    /// first and last days themselves are lived.
    @Test func timesOutsideTheEngineDaysAreRefusedAndChangeNothing() throws {
        let ruleset = Shipped.ruleset
        var engine = OperatorEngine(ruleset: ruleset, clock: seoul, profile: OperatorProfile(ruleset: ruleset))
        let first = seoul.instant(day: DateFormat.days("2000-01-01")!, seconds: 9 * 3600)
        #expect(engine.handle(.appOpened(health: nil), at: first).allSatisfy { if case .problem = $0.kind { false } else { true } })
        let before = engine.state
        let outside = [
            seoul.instant(day: DateFormat.days("2200-01-01")!, seconds: 9 * 3600), Date(timeIntervalSince1970: 1e19), .distantFuture,
            Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: .nan),
        ]
        for time in outside {
            for records in [engine.handle(.appOpened(health: nil), at: time), engine.advance(to: time)] {
                let codes = records.compactMap { record -> String? in if case .problem(let code, _) = record.kind { code.rawValue } else { nil } }
                #expect(codes == ["event.out_of_range"], "\(time): \(records)")
                #expect(records.count == 1)
            }
            let run = OperatorEngine.run(state: before, event: .appOpened(health: nil), ruleset: ruleset, at: time)
            #expect(run.state == before)
            #expect(run.effects.records.count == 1)
        }
        #expect(engine.state == before)
        // Before the first day: refused too (an event earlier than the last run would be, anyway).
        var fresh = OperatorEngine(ruleset: ruleset, clock: seoul, profile: OperatorProfile(ruleset: ruleset))
        let early = fresh.handle(.appOpened(health: nil), at: seoul.instant(day: DateFormat.days("1999-12-31")!, seconds: 9 * 3600))
        #expect(early.count == 1)
        #expect(fresh.state == OperatorEngine(ruleset: ruleset, clock: seoul, profile: OperatorProfile(ruleset: ruleset)).state)
        // The last day is lived.
        let last = fresh.handle(.appOpened(health: nil), at: seoul.instant(day: DateFormat.days("2199-12-31")!, seconds: 9 * 3600))
        #expect(last.allSatisfy { if case .problem = $0.kind { false } else { true } })
    }
}
