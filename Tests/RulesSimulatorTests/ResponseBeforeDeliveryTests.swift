import Foundation
import Testing

@testable import RulesSimulator

/// A response that comes before its notice (what a notice moved later looks like in an old
/// scenario) says when the response was and when the notice did come, not "never delivered".
@Suite struct ResponseBeforeDeliveryTests {
    static let day = """
        name: answered too early
        date: 2026-06-29
        timezone: Asia/Seoul
        routines: [steps, sleep, water, study, skincare, supplement, reading, room]
        health:
          permission: { steps: granted, sleep: granted }
          sleep: { start: "01:20", end: "06:50" }
          steps: { "07:00": 0, "12:00": 1800, "18:00": 3240 }
        events:
          - { at: "08:30", app: open }
          - { at: "18:00", app: open }
          - { at: "20:00", notification: evening_underachievement, response: ignored }

        """

    @Test func aResponseBeforeItsNoticeSaysWhenTheNoticeCame() throws {
        let result = try #require(Shipped.run(Self.day))
        let messages = result.problems.map(\.message)
        #expect(
            messages.contains(
                "scenario.not_delivered: no notification 'evening_underachievement' was delivered by 20:00 that day (delivered at 20:30)"),
            "\(messages)")
        // A notice that never comes that day says only when the response was.
        let never = Self.day.replacingOccurrences(of: "evening_underachievement, response", with: "bedtime, response")
        let other = try #require(Shipped.run(never)).problems.map(\.message)
        #expect(other.contains("scenario.not_delivered: no notification 'bedtime' was delivered by 20:00 that day"), "\(other)")
    }
}
