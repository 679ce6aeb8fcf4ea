import Foundation
import RulesExpression
import Ruleset

/// Fits a saved state to the ruleset it now runs under (an app update or a hot reload):
/// what no longer exists is dropped, pending requests of removed notification types or
/// templates are cancelled, settings take their declared types, and a route the table no
/// longer uses is decided afresh. Nothing here traps on a state written by any ruleset.
///
/// A part with its own input (the ruleset) working on the state's slices it is given
/// (profile, day, requests), returning each change it made (`Reconciliation`) and the
/// requests it cancelled; the engine records them.
/// The engine's state reconciled with a ruleset (`OperatorEngine.reconciled`, applied by the engine): the changes
/// in order and the requests cancelled.
struct Reconciled {
    var profile: OperatorProfile
    var day: DayState?
    var pending: [ScheduledNotification]
    var refused: [SuppressedNotification]
    var delivered: [String: ScheduledNotification]
    var changes: [Reconciliation] = []
    var cancelled: [ScheduledNotification] = []
}

struct Reconciler {
    let ruleset: Ruleset

    /// The requests' part: pending requests of notification types or templates that are
    /// gone are cancelled (returned), refusals and deliveries of removed types dropped.
    func reconcile(
        pending: inout [ScheduledNotification], refused: inout [SuppressedNotification], delivered: inout [String: ScheduledNotification],
        changes: inout [Reconciliation]
    ) -> [ScheduledNotification] {
        let ruleset = ruleset
        func exists(_ request: ScheduledNotification) -> Bool {
            guard let rule = ruleset.notification(request.type) else { return false }
            if let routine = request.routine, ruleset.routine(routine) == nil { return false }
            return ruleset.template(request.templateID) != nil && rule.template == request.templateID
        }
        var kept: [ScheduledNotification] = []
        var cancelled: [ScheduledNotification] = []
        for request in pending { if exists(request) { kept.append(request) } else { cancelled.append(request) } }
        pending = kept
        for request in cancelled {
            changes.append(
                Reconciliation(subject: ruleset.notification(request.type) == nil ? .notification : .template, id: request.id, action: .cancelled))
        }
        refused.removeAll { ruleset.notification($0.type) == nil }
        for id in delivered.keys.sorted() where delivered[id].map({ ruleset.notification($0.type) == nil }) ?? false {
            delivered[id] = nil
            changes.append(Reconciliation(subject: .notification, id: id, action: .dropped))
        }
        return cancelled
    }

    /// The profile's part: routines that are gone, settings that no longer fit (with those
    /// fitted when the engine was made), ignore counts of removed types.
    func reconcile(_ profile: inout OperatorProfile, fittedAtStart: [Reconciliation], changes: inout [Reconciliation]) {
        let known = Set(ruleset.routines.map(\.id))
        for id in profile.enabledRoutines.sorted() where !known.contains(id) {
            profile.enabledRoutines.remove(id)
            changes.append(Reconciliation(subject: .routine, id: id, action: .dropped))
        }
        var settings = profile.settings
        changes += fittedAtStart + OperatorEngine.fit(&settings, to: ruleset)
        if settings != profile.settings { profile.settings = settings }
        let types = Set(ruleset.notifications.map(\.id))
        for type in profile.ignoredStreaks.keys.sorted() where !types.contains(type) { profile.ignoredStreaks[type] = nil }
        for type in profile.weakenedSince.keys.sorted() where !types.contains(type) { profile.weakenedSince[type] = nil }
    }

    /// The day's part: logs, ticks, goal overrides, statuses and route items of what is
    /// gone; a route the table no longer names (and the user did not ask for) is decided
    /// afresh.
    func reconcile(_ current: inout DayState, changes: inout [Reconciliation]) {
        let ruleset = ruleset
        func note(_ subject: Reconciliation.Subject, _ id: String, _ action: Reconciliation.Action) {
            changes.append(Reconciliation(subject: subject, id: id, action: action))
        }
        for log in current.logs where ruleset.routine(log.routine) == nil { note(.log, log.id, .dropped) }
        current.removeLogs { ruleset.routine($0.routine) == nil }
        // Ticks of items the routine no longer has are dropped; the rest keep the ruleset's own
        // spelling of their items (a saved state may spell one in another Unicode normal
        // form): counting them compares bytes.
        current.ticks = current.ticks.compactMap { tick in
            guard let spelled = ruleset.routine(tick.routine)?.items.first(where: { $0 == tick.item }) else {
                note(.item, "\(tick.routine).\(tick.item)", .dropped)
                return nil
            }
            var kept = tick
            kept.item = spelled
            return kept
        }
        for id in current.goalOverrides.keys.sorted() where ruleset.routine(id) == nil { current.goalOverrides[id] = nil }
        current.completedRoutines.removeAll { ruleset.routine($0) == nil }
        current.partialRoutines.removeAll { ruleset.routine($0) == nil }
        let items = current.route.items.filter { item in
            guard let routine = ruleset.routine(item.routine) else { return false }
            if case .item(let name) = item.requirement { return routine.items.contains(name) }
            return true
        }
        for item in current.route.items where !items.contains(item) { note(.item, item.id, .dropped) }
        current.route.items = items
        let tableRoutes = Set(ruleset.route.map(\.route))
        let available = ruleset.route.isEmpty ? [RouteKind.regular] : tableRoutes
        if current.routeDecided, !current.route.requestedByUser, !current.skipped, !available.contains(current.route.route) {
            note(.route, current.route.route.rawValue, .decidedAfresh)
            current.routeDecided = false
            current.route = RouteState(route: .regular, reason: "default", startedAt: nil, requestedByUser: false, items: [])
            current.quest = nil
        }
    }
}
