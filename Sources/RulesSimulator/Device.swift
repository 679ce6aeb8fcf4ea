import Foundation
import RulesEngine

/// iOS as the simulator plays it: holds the requests the app scheduled (applying every
/// `schedule` and `cancel` the engine emits), keeps at most 64 pending, soonest first, and
/// delivers each at its fire time, reporting it to the engine as the app would learn it
/// from the notification center — with `stale_condition` when the request's condition no
/// longer holds for the true health data at that moment.
struct Device {
    /// iOS keeps at most this many pending local notifications.
    static let maxPending = 64

    /// Pending requests, soonest first (then by id).
    private(set) var pending: [ScheduledNotification] = []
    /// The host's switch the app runs of deliveries go through (`Verification`).
    var verification = Verification.memoised

    /// A device with nothing pending.
    init() {}

    /// A device holding what a saved state says the app scheduled (a resumed run).
    init(pending: [ScheduledNotification], verification: Verification = .memoised) {
        self.verification = verification
        self.pending = Array(pending.sorted { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }.prefix(Self.maxPending))
    }

    /// Applies the schedule and cancel operations among `records`.
    mutating func apply(_ records: [EngineRecord]) {
        var changed = false
        for record in records {
            switch record.kind {
            case .notificationScheduled(let request):
                pending.removeAll { $0.sameID(as: request) }
                pending.append(request)
                changed = true
            case .notificationCancelled(let request, _):
                pending.removeAll { $0.sameID(as: request) }
            default:
                break
            }
        }
        guard changed else { return }
        pending.sort { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        if pending.count > Self.maxPending { pending.removeSubrange(Self.maxPending...) }
    }

    /// Lets time pass until `time`: the engine's clock (day closes, refusals reported) and,
    /// in order, every delivery due by then.
    mutating func run(
        _ engine: inout OperatorEngine, until time: Date, truth: @escaping (Date) -> HealthReading?, after: (inout OperatorEngine) -> Void
    ) -> [EngineRecord] {
        var records: [EngineRecord] = []
        while let next = pending.first, next.scheduledAt <= time {
            records += verification.run(&engine, [], now: next.scheduledAt, presumingDeliveries: false).records
            pending.removeFirst()
            let condition = engine.conditionAtFire(of: next, truth: truth(next.scheduledAt))
            // A condition that could not be evaluated is a problem of the ruleset's, told.
            records += condition.problems.map { EngineRecord(at: next.scheduledAt, kind: .problem(code: .evaluation, message: $0)) }
            let delivered = EngineEvent.notificationDelivered(id: next.id, staleCondition: !condition.holds)
            records += verification.run(&engine, [delivered], now: next.scheduledAt).records
            after(&engine)
        }
        records += verification.run(&engine, [], now: time, presumingDeliveries: false).records
        apply(records)
        return records
    }
}
