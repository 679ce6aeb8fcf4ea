import Foundation
import Ruleset

/// Time passing between app runs: deliveries, suppressions and day closes as the clock
/// reaches them, and the day a moment belongs to.
extension OperatorEngine {
    /// The clock ticks: lets the device act until `time` — deliveries and suppressions whose
    /// fire time has come, and day closes at `day_starts_at`. `truth` gives the real health data at a
    /// moment, to flag deliveries whose condition no longer holds (`stale_condition`).
    /// With `presumingDeliveries` false, pending requests stay pending: a device model
    /// reports each delivery as `.notificationDelivered` instead (as the app learns them from
    /// the notification center).
    @discardableResult
    package mutating func advance(to time: Date, truth: ((Date) -> HealthReading?)? = nil, presumingDeliveries: Bool = true) -> [EngineRecord] {
        verified(at: time) { $0.advanceStep(to: time, truth: truth, presumingDeliveries: presumingDeliveries) }
    }

    private mutating func advanceStep(to time: Date, truth: ((Date) -> HealthReading?)?, presumingDeliveries: Bool) -> [EngineRecord] {
        beginStep()
        if refusesTimeOutOfRange(time) { return records }
        reconcileIfNeeded(at: time)
        moveTime(to: time, truth: truth, presumingDeliveries: presumingDeliveries)
        return records
    }

    mutating func moveTime(to time: Date, truth: ((Date) -> HealthReading?)?, presumingDeliveries: Bool = true) {
        while true {
            // At the same instant a day closes first (a delivery at 04:00 belongs to the
            // new day), then refusals are reported, then deliveries made.
            var next: (at: Date, kind: Int)?
            func consider(_ at: Date?, _ kind: Int) {
                guard let at, at <= time else { return }
                if let current = next, (current.at, current.kind) <= (at, kind) { return }
                next = (at, kind)
            }
            let open = currentDay
            if let open { consider(clock.instant(day: open + 1, seconds: dayStart), 0) }
            consider(refused.lazy.map(\.fireAt).min(), 1)
            if presumingDeliveries { consider(pending.first?.scheduledAt, 2) }
            guard let next else { return }
            switch next.kind {
            case 0: closeDay(at: next.at)
            case 1: reportSuppressions(upTo: next.at)
            default: presumeNextDelivery(truth: truth)
            }
        }
    }

    private mutating func reportSuppressions(upTo time: Date) {
        let due = refused.filter { $0.fireAt <= time }.sorted { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }
        refused.removeAll { $0.fireAt <= time }
        for item in due { records.append(EngineRecord(at: item.fireAt, kind: .notificationSuppressed(item))) }
    }

    /// Opens the logical day of `time` when no day is open yet (before the first event
    /// ever), so that a day without any app run still closes and is judged.
    package mutating func openDay(at time: Date) {
        _ = verified(at: time) { engine in
            engine.beginStep()
            if !engine.refusesTimeOutOfRange(time), engine.day == nil { engine.openDay(for: time) }
            return engine.records
        }
    }

    /// Starts the day of `time` if no day is open (first event ever, or after a close).
    mutating func openDay(for time: Date) {
        let logical = clock.logical(time, dayStart: dayStart).day
        guard currentDay != nil else {
            day = DayState(day: logical)
            delivered = [:]
            return
        }
        // A day still open although the time belongs to a later one: its close fell into a
        // DST gap (a `day_starts_at` of 02:30 on a spring-forward night moves to 03:30, after
        // a 03:00 event). It closes now, never silently replaced; each close opens the next
        // day, so this ends at the logical day of `time`.
        // (The day number through a read-out: in this mutating method, reading the optional
        // day copied all of it at every event.)
        while let current = currentDay, current < logical { closeDay(at: time) }
    }

    // MARK: events
}
