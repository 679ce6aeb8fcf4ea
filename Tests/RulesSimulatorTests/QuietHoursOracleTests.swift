import Ruleset
import Testing

@testable import RulesSimulator

/// The checks' quiet hours are their own code; the planner's gate must agree with them
/// everywhere, so a gate gone wrong is caught by the checks instead of passing them.
@Suite struct QuietHoursOracleTests {
    static func policy(_ start: Int, _ end: Int) -> NotificationPolicy { NotificationPolicy(quietHours: (start * 60, end * 60)) }

    /// The rule's words: the start is quiet, the end is not, and the window crosses midnight.
    @Test func theStartIsInsideAndTheEndOutside() {
        let night = Self.policy(22 * 60 + 30, 7 * 60)
        let quiet = [22 * 3600 + 30 * 60, 23 * 3600, 0, 3 * 3600, 7 * 3600 - 1]
        let loud = [7 * 3600, 12 * 3600, 22 * 3600 + 30 * 60 - 1]
        #expect(quiet.allSatisfy { QuietHoursOracle.holds($0, night) })
        #expect(!loud.contains { QuietHoursOracle.holds($0, night) })
        #expect(QuietHoursOracle.holds(3 * 3600, Self.policy(60, 4 * 60)))
        #expect(!QuietHoursOracle.holds(0, Self.policy(60, 4 * 60)))
        // A window that starts where it ends holds nothing; no window, likewise.
        #expect(!(0..<1_440).contains { QuietHoursOracle.holds($0 * 60, Self.policy(300, 300)) })
        #expect(!QuietHoursOracle.holds(0, NotificationPolicy()))
    }

    /// Every minute of windows of every shape (crossing midnight, ending at it, starting at
    /// it, a minute long, empty), and every second around their ends: the gate says what the
    /// checks say.
    @Test func theGateAgreesWithTheChecksEverywhere() {
        let windows = [(1_350, 420), (420, 1_350), (0, 360), (1_380, 0), (600, 601), (300, 300), (1_439, 1), (0, 1_439)]
        var compared = 0
        for (start, end) in windows {
            let policy = Self.policy(start, end)
            let edges = [start, end].flatMap { edge in (-90...90).map { (edge * 60 + $0 + 86_400) % 86_400 } }
            for seconds in (0..<1_440).map({ $0 * 60 }) + edges {
                #expect(policy.isQuiet(seconds) == QuietHoursOracle.holds(seconds, policy), "\(start)-\(end) at \(seconds)")
                compared += 1
            }
        }
        #expect(compared == windows.count * (1_440 + 2 * 181))
    }
}
