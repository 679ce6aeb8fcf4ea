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
    mutating func advance(to time: Date, truth: ((Date) -> HealthReading?)? = nil, presumingDeliveries: Bool = true) -> [EngineRecord] {
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
        apply(suppressed: refused.filter { $0.fireAt <= time }.sorted { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }, upTo: time)
    }

    /// Opens the logical day of `time` when no day is open yet (before the first event
    /// ever), so that a day without any app run still closes and is judged.
    @discardableResult
    package mutating func openDay(at time: Date) -> [EngineRecord] {
        beginStep()
        if !refusesTimeOutOfRange(time), day == nil { openDay(for: time) }
        return records
    }

    /// Starts the day of `time` if no day is open (first event ever, or after a close).
    mutating func openDay(for time: Date) {
        let logical = clock.logical(time, dayStart: dayStart).day
        guard currentDay != nil else { return open(logical) }
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

extension OperatorEngine {
    /// The judgement part as it stands for this user (their day start).
    var judgement: Judgement { Judgement(prepared: prepared, dayStart: dayStart) }

    /// Closes the current day at `time` (the next `day_starts_at`): judged from what the app
    /// knew at its last run (`Judgement.close`); streak and XP carry on. A fresh day opens
    /// for the device's deliveries.
    mutating func closeDay(at time: Date) {
        // Read (once a day: the retains of its arrays cost nothing to speak of); the close's
        // apply puts a fresh day in its place.
        guard let current = day else { return }
        let closing = judgement.close(
            current, reading: closingReading(current), streak: profile.streakDays, xp: profile.xp, at: time, explains: explains)
        apply(closing, closed: current.day, at: time)
    }

    /// The day as the app knew it at its last run, which its close reads.
    private func closingReading(_ current: DayState) -> DayReading {
        let inputs = ReadingInputs(day: current.day, profile: ReadingProfile(profileBox.value), permissions: lastPermissions)
        if memoises, current.lastRun != nil, let kept = memos.reading?.value(for: inputs) {
            // What the last run read (see `KeptReading`), as a fresh reading would give it.
            var last = kept
            last.facts.patch(layout.event, cell: EnumCells.home)
            last.facts.patch(layout.sentToday, cell: .int(current.deliveries.count))
            return last
        }
        let lastSeconds = current.lastRun.map { clock.timeOfDay($0, inLogicalDay: current.day, dayStart: dayStart) } ?? dayStart
        return reader.read(current, route: current.route.route, risk: current.risk ?? .low, now: lastSeconds)
    }
}

extension OperatorEngine {
    /// Reconciles the state with the ruleset in force once after a restore or a ruleset
    /// change (`Reconciler`), each change a `state.reconciled` record and each request
    /// cancelled a `notification.cancelled` one.
    mutating func reconcileIfNeeded(at time: Date) {
        guard needsReconciliation else { return }
        apply(reconciled(), at: time)
    }

    /// The state reconciled with the ruleset in force (on copies: once after a restore).
    func reconciled() -> Reconciled {
        let reconciler = Reconciler(ruleset: ruleset)
        var outcome = Reconciled(profile: profile, day: day, pending: pending, refused: refused, delivered: delivered)
        if !stateRulesetSHA256.isEmpty, !ruleset.sha256.isEmpty, stateRulesetSHA256 != ruleset.sha256 {
            outcome.changes.append(Reconciliation(subject: .ruleset, id: String(ruleset.sha256.prefix(12)), action: .adopted))
        }
        reconciler.reconcile(&outcome.profile, fittedAtStart: settingsFittedAtStart, changes: &outcome.changes)
        if var current = outcome.day.take() {
            reconciler.reconcile(&current, changes: &outcome.changes)
            outcome.day = current
        }
        outcome.cancelled = reconciler.reconcile(
            pending: &outcome.pending, refused: &outcome.refused, delivered: &outcome.delivered, changes: &outcome.changes)
        return outcome
    }
}
