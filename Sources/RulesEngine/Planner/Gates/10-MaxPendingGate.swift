/// `max_pending`: iOS holds at most `max_pending` requests of an app. Applied to the whole
/// plan after every candidate went through the other gates: the soonest are kept, the rest
/// refused.
enum MaxPendingGate {
    static let reason = GateReason.maxPending

    /// Sorts `accepted` soonest first (then by id) and moves what is over the limit to
    /// `refusals`.
    static func apply(_ accepted: inout [ScheduledNotification], _ refusals: inout [SuppressedNotification], limit: Int) {
        accepted.sort { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        guard accepted.count > limit else { return }
        for extra in accepted[limit...] {
            refusals.append(
                SuppressedNotification(
                    id: extra.id, type: extra.type, routine: extra.routine, fireAt: extra.scheduledAt, day: extra.day, reason: reason))
        }
        accepted.removeSubrange(limit...)
    }
}
