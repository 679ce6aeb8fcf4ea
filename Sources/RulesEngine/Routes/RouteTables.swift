import Foundation
import RulesExpression
import Ruleset

/// The risk and route tables: decision tables with hit policy FIRST, evaluated at every app
/// run with `now` = the run's time — risk first, then route, each with the goals of the
/// route in force. A user's request, a sticky route and a skipped day keep the route.
///
/// A part with its own inputs (the tables, the sticky routes, the day start; the day's
/// route, risk and skip; the run's facts) and outputs (what it decided, how to explain it,
/// the conditions that failed to evaluate). What a new route starts (recovery items, the
/// walking quest) is `RecoveryRoute`'s; the engine composes the two.
struct RouteTables {
    let risk: [RiskEntry]
    let route: [RouteEntry]
    let sticky: [RouteKind]
    let dayStart: Int

    init(_ ruleset: Ruleset, dayStart: Int) {
        risk = ruleset.risk
        route = ruleset.route
        sticky = ruleset.sticky
        self.dayStart = dayStart
    }

    /// What the risk table decided.
    struct RiskDecision {
        var level: RiskLevel
        /// Nil when the table was not consulted (a skipped day keeps its risk).
        var explanation: PendingExplanation?
        var problems: [String] = []
    }

    /// Risk by the first matching `risk:` entry (`low` when none); a skipped day keeps the
    /// risk it had. The explanation only when `explains` (it holds the table and the facts:
    /// made at every run, it retained and released both).
    func decideRisk(kept: RiskLevel?, skipped: Bool, facts: FactValues, at time: Date, explains: Bool = true) -> RiskDecision {
        if skipped, let kept { return RiskDecision(level: kept, explanation: nil) }
        var problems: [String] = []
        var tried: [Explanation.Result]? = explains ? [] : nil
        let index = FirstMatch.index(risk, { $0.when }, { $0.origin }, facts: facts, dayStart: dayStart, problems: &problems, tried: &tried)
        return RiskDecision(
            level: index.map { risk[$0].level } ?? .low, explanation: tried.map { .table(.risk(risk), tried: $0, facts: facts, at: time) },
            problems: problems)
    }

    /// What the route table decided.
    struct RouteDecision {
        /// The route and reason the table chose; nil when the route in force stays without it.
        var chosen: (route: RouteKind, reason: String)?
        /// Nil when not asked for (`explains`).
        var explanation: PendingExplanation?
        var problems: [String] = []
    }

    /// The route: kept on a skipped day, after a user's request, or when sticky; otherwise
    /// the first matching `route:` entry (`regular` when none). The explanation only when
    /// `explains`.
    func decideRoute(_ state: RouteState, decided: Bool, skipped: Bool, facts: FactValues, at time: Date, explains: Bool = true) -> RouteDecision {
        if skipped, decided { return RouteDecision(chosen: nil, explanation: .routeKept(state.route, because: .skippedDay, at: time)) }
        if state.requestedByUser { return RouteDecision(chosen: nil, explanation: .routeKept(state.route, because: .userRequest, at: time)) }
        if decided, sticky.contains(state.route) {
            return RouteDecision(chosen: nil, explanation: .routeKept(state.route, because: .sticky, at: time))
        }
        var problems: [String] = []
        var tried: [Explanation.Result]? = explains ? [] : nil
        let index = FirstMatch.index(route, { $0.when }, { $0.origin }, facts: facts, dayStart: dayStart, problems: &problems, tried: &tried)
        let chosen = (index.map { route[$0].route } ?? .regular, index.map { route[$0].reason } ?? "default")
        return RouteDecision(
            chosen: chosen, explanation: tried.map { .table(.route(route), tried: $0, facts: facts, at: time) }, problems: problems)
    }
}

/// How a route started (`OperatorEngine.startRoute`).
enum RouteStart {
    /// The day's first route, `regular`: no `route_changed` event.
    case first
    /// A change the run's `event` fact announces (`route_changed`).
    case announced
}
