import Foundation
import Ruleset

/// A notification type's run of ignores (SPEC §5.6 "weakened"): each ignore adds one; the
/// ignore that reaches `weaken_after_ignored` marks the day the type became weakened; any
/// other answer ends the run. A pure rule: the run so far and the answer in, the run out.
struct IgnoreRun: Equatable {
    var streak: Int
    var weakenedSince: Int?

    /// The run after the user ignored a delivery on `today`.
    func ignored(today: Int?, weakenAfter: Int) -> IgnoreRun {
        let streak = Swift.min(streak + 1, OperatorProfile.maxCount)
        return IgnoreRun(streak: streak, weakenedSince: (streak == weakenAfter ? today : nil) ?? weakenedSince)
    }

    /// The run after an answer other than ignoring: ended.
    static let ended = IgnoreRun(streak: 0, weakenedSince: nil)
}
