import Foundation
import RulesExpression
import Ruleset

/// A request's condition at its fire time (`OperatorEngine.conditionAtFire`).
public struct ConditionAtFire: Sendable, Hashable {
    /// The condition holds (false also when it could not be evaluated).
    public var holds: Bool
    /// Evaluations that failed, each naming the expression's file and line.
    public var problems: [String]
}

/// What iOS did with the plan, as the app learns it: deliveries (reported by the device,
/// or presumed when nobody reports them) and the user's responses.
extension OperatorEngine {
    /// Whether a request's `when` still holds at its fire time for the real health data
    /// (`truth`) and what the app knows otherwise. A request whose condition went false
    /// after the last app run is still delivered, marked `stale_condition`: the device model
    /// asks this before it reports the delivery. A per-routine request reads `routine.*` of
    /// the routine it was made for, with the reminder time it was scheduled at when the
    /// user's settings no longer name one. An evaluation that fails does not hold and comes
    /// with its problem (the expression's file and line), never as a silent `false`.
    public func conditionAtFire(of request: ScheduledNotification, truth: HealthReading?) -> ConditionAtFire {
        guard let box = prepared.ruleBox(request.type), let when = box.value.when, var current = day else {
            return ConditionAtFire(holds: true, problems: [])
        }
        if let truth { current.health = truth.bounded }
        let seconds = clock.local(request.scheduledAt).seconds
        let reading = reader.read(current, route: current.route.route, risk: current.risk ?? .low, now: seconds)
        var facts = reading.facts
        if let routine = request.routine, let routineReading = reading.routines.first(where: { prepared.routine(of: $0).value.id == routine }) {
            NotificationPlanner.bind(
                &facts, routineReading, of: prepared.routine(of: routineReading), reminder: profile.reminder(for: routine, in: ruleset) ?? seconds,
                layout: layout)
        }
        var problems: [String] = []
        let atFire = GateContext.atFire(facts, fireSeconds: seconds, ruleset: ruleset, layout: layout, dayStart: dayStart, problems: &problems)
        var context = EvaluationContext(facts: atFire, dayStart: dayStart)
        do {
            return ConditionAtFire(holds: try when.isTrue(&context), problems: problems)
        } catch {
            return ConditionAtFire(holds: false, problems: problems + [evaluationProblem(when, origin: box.value.whenOrigin, error)])
        }
    }

    /// With no device reporting deliveries, iOS is presumed to deliver the soonest pending
    /// request at its time; `truth` flags a stale condition.
    mutating func presumeNextDelivery(truth: ((Date) -> HealthReading?)?) {
        guard let next = pending.first else { return }
        let condition = truth.map { conditionAtFire(of: next, truth: $0(next.scheduledAt)) }
        for message in condition?.problems ?? [] { problem(at: next.scheduledAt, .evaluation, message) }
        deliver(next, staleCondition: condition.map { !$0.holds } ?? false)
    }

    /// The user's answer to a delivered notification.
    mutating func respond(id: String, response: NotificationResponse, health: HealthReading?, at time: Date) {
        // By request id, else the latest delivery of that type today (never dictionary order).
        // The search by type only when the id is not a request's (it walks every delivery).
        guard
            let notification = delivered[id]
                ?? delivered.values.lazy.filter({ $0.type == id }).max(by: { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) })
        else {
            return problem(at: time, .notDelivered, "no notification '\(id)' was delivered today")
        }
        let label: String
        switch response {
        case .opened: label = "opened"
        case .ignored: label = "ignored"
        case .action(let action): label = action.rawValue
        }
        note(at: time, .notificationResponse(id: notification.id, type: notification.type, response: label))
        switch response {
        case .ignored:
            countIgnored(notification.type)
        case .opened, .action(.openApp):
            resetIgnored(notification.type)
            note(at: time, .appRun(cause: .notification(type: notification.type), synced: true))
            act { $0.sync(health, at: time) }
            decide(at: time)
        case .action(let action):
            resetIgnored(notification.type)
            note(at: time, .appRun(cause: .notificationAction(action), synced: false))
            let routeRequested = act { actions in
                switch action {
                case .startRecovery: return actions.request(.startRecovery, at: time)
                case .skipToday: actions.request(.skipToday, at: time)
                case .logWater250: actions.logWater(source: .notificationAction, at: time)
                case .completeSupplement: actions.complete(category: .supplement, source: .notificationAction, at: time)
                case .completeSkincare: actions.complete(category: .skincare, source: .notificationAction, at: time)
                case .openApp: break
                }
                return false
            }
            decide(at: time, routeRequested: routeRequested)
        }
    }

    /// One more ignore of `type` (`IgnoreRun`). Its own method: inside `respond(…)` these
    /// reads of the engine crashed Swift 6.3.1's optimiser (release builds, CopyPropagation).
    private mutating func countIgnored(_ type: String) {
        let today = day?.day
        let run = IgnoreRun(streak: profile.ignoredStreaks[type] ?? 0, weakenedSince: profile.weakenedSince[type])
        let next = run.ignored(today: today, weakenAfter: ruleset.policy.weakenAfterIgnored)
        setIgnores(type, streak: next.streak, weakenedSince: next.weakenedSince)
    }

    /// An answer other than ignoring ends a type's run of ignores; the profile changes (and
    /// tomorrow's cached plan with it) only when it holds something else.
    private mutating func resetIgnored(_ type: String) {
        guard profile.ignoredStreaks[type] != 0 || profile.weakenedSince[type] != nil else { return }
        let ended = IgnoreRun.ended
        setIgnores(type, streak: ended.streak, weakenedSince: ended.weakenedSince)
    }
}
