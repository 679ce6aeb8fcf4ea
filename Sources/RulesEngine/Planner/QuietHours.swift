import Foundation

/// Quiet hours in wall-clock time: they include their start and exclude their end
/// (`NotificationPolicy.isQuiet`); a deferred candidate fires at their next end.
enum QuietHours {
    /// The next wall-clock `end` (seconds since midnight) after `instant`, DST-correct: over
    /// a spring-forward night 23:00 → 07:00 is seven hours, not eight.
    static func end(after instant: Date, end: Int, clock: LocalClock) -> Date {
        let local = clock.local(instant)
        return clock.instant(day: end > local.seconds ? local.day : local.day + 1, seconds: end)
    }
}
