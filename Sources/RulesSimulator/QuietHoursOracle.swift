import Ruleset

/// Quiet hours as the checks judge them — invariants, the reach of a changed window, boundary
/// days — by code of their own, not the planner's gate (`NotificationPolicy.isQuiet`): a check
/// that asked the gate would pass whatever the gate got wrong. From the rule's words: the
/// window runs from its start (included) to its end (excluded), across midnight when the end
/// comes first; a window that starts where it ends holds nothing. Here a time is quiet when
/// the way forward from the start to it is shorter than the way from the start to the end.
package enum QuietHoursOracle {
    static let day = 86_400

    /// Whether `seconds` (since local midnight) lies inside `policy`'s quiet hours.
    package static func holds(_ seconds: Int, _ policy: NotificationPolicy) -> Bool {
        guard let window = policy.quietHours else { return false }
        return forward(window.start, seconds) < forward(window.start, window.end)
    }

    /// Seconds from `from` forward to `to` on a 24-hour clock (0 ..< a day).
    static func forward(_ from: Int, _ to: Int) -> Int { ((to - from) % day + day) % day }
}
