import Foundation
import RulesExpression
import Ruleset

/// The risk and route tables: decision tables with hit policy FIRST, evaluated at every app
/// run with `now` = the run's time — risk first, then route, each with the goals of the
/// route in force. A user's request, a sticky route and a skipped day keep the route.
extension OperatorEngine {
    /// Risk by the first matching `risk:` entry (`low` when none); a skipped day keeps the
    /// risk it had. Records a change.
    mutating func decideRisk(_ current: inout DayState, facts: FactValues, at time: Date) -> RiskLevel {
        let risk: RiskLevel
        if current.skipped, let kept = current.risk {
            risk = kept
        } else {
            let table = ruleset.risk
            let riskIndex = decideTable(table, { $0.when }, { $0.origin }, facts: facts, at: time)
            risk = riskIndex.map { table[$0].level } ?? .low
            decided.risk = .table(.risk(table), facts: facts, at: time)
        }
        if risk != current.risk {
            note(at: time, .riskChanged(from: current.risk, to: risk))
            current.risk = risk
        }
        return risk
    }

    /// The route: kept on a skipped day, after a user's request, or when sticky; otherwise
    /// the first matching `route:` entry (`regular` when none). A new route starts here:
    /// its recovery items and walking quest with it.
    /// Returns whether the route changed (a new route state, its items and quest).
    @discardableResult
    mutating func decideRoute(_ current: inout DayState, facts: FactValues, at time: Date) -> Bool {
        if current.skipped, current.routeDecided {
            decided.route = .routeKept(current.route.route, because: .skippedDay, at: time)
        } else if current.route.requestedByUser {
            decided.route = decided.route?.at(time)
        } else if current.routeDecided, ruleset.sticky.contains(current.route.route) {
            decided.route = .routeKept(current.route.route, because: .sticky, at: time)
        } else {
            let table = ruleset.route
            let routeIndex = decideTable(table, { $0.when }, { $0.origin }, facts: facts, at: time)
            decided.route = .table(.route(table), facts: facts, at: time)
            let route = routeIndex.map { table[$0].route } ?? .regular
            let reason = routeIndex.map { table[$0].reason } ?? "default"
            if !current.routeDecided || route != current.route.route {
                let from = current.routeDecided ? current.route.route : nil
                current.route = RouteState(
                    route: route, reason: reason, startedAt: time, requestedByUser: false, items: [], logsBefore: current.nextLogNumber - 1)
                if route == .recovery {
                    var leftOut: [RouteItemLeftOut] = []
                    current.route.items = startRecoveryItems(current, leftOut: &leftOut)
                    for item in leftOut { note(at: time, .routeItemLeftOut(item)) }
                    current.quest = startQuest(current)
                }
                current.routeDecided = true
                records.append(EngineRecord(at: time, kind: .routeChanged(from: from, to: route, reason: reason)))
                if from != nil || route != .regular { routeChangedThisRun = true }
                return true
            }
        }
        return false
    }
}
