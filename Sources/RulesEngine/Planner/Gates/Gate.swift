import Foundation
import RulesExpression
import Ruleset

/// A notification candidate on its way through the gates: where and when it would fire,
/// the facts at that moment, and how it would be presented. Gates may move it (quiet-hours
/// deferral) or change its presentation (passive weakening).
struct GatedCandidate {
    let candidate: Candidate
    var fireSeconds: Int
    var fireAt: Date
    /// The logical day it fires on (a deferred candidate's is the next day's).
    var fireDay: Int
    var facts: FactValues
    /// Seconds it was deferred out of quiet hours (0: not deferred).
    var deferredBy = 0
    var level: InterruptionLevel
    var relevance = 1.0
    /// The gates passed so far and the refusing one, for explanations.
    var outcome = GateOutcome()
    /// Evaluation errors met on the way (reported as `problem` records).
    var problems: [String] = []
}

/// How a candidate went through the gates: enough to explain it when asked (explanations
/// are read rarely; candidates are gated at every plan).
struct GateOutcome: Sendable {
    /// Gates passed, in `GateReason.planOrder`.
    var passed = 0
    /// What refused it (the gate after those passed), if one did.
    var refusal: String?
    /// Where quiet hours deferred it to (seconds since midnight), if they did.
    var deferredTo: Int?

    /// The explanation entries: each gate passed, then the refusing one.
    func entries(for rule: NotificationRule) -> [Explanation.Entry] {
        var entries: [Explanation.Entry] = []
        for gate in GateReason.planOrder.prefix(passed) {
            switch gate {
            case .conditionFalse where rule.when != nil:
                entries.append(Explanation.Entry(label: gate.rawValue, condition: rule.when?.source, origin: rule.whenOrigin, result: .matched))
            case .quietHours where deferredTo != nil:
                let to = TimeFormat.clock(deferredTo ?? 0)
                entries.append(Explanation.Entry(label: gate.rawValue, condition: "deferred to \(to)", origin: nil, result: .matched))
            default:
                entries.append(Explanation.Entry(label: gate.rawValue, condition: nil, origin: nil, result: .matched))
            }
        }
        if let refusal, passed < GateReason.planOrder.count {
            entries.append(Explanation.Entry(label: GateReason.planOrder[passed].rawValue, condition: refusal, origin: nil, result: .notMatched))
        }
        return entries
    }
}

/// What one gate decided.
enum GateResult: Equatable {
    case passed
    /// Refused, with what refused it.
    case refused(String)
}

/// What the gates read besides the candidate: today's deliveries and this plan's requests.
struct GateInputs {
    var accepted: [ScheduledNotification]
    var skipped: Bool
    /// Today's recovery route and its reason, while it is in force (a request of today's
    /// gives that reason; others the route table's at their fire time).
    var recovery: TodaysRecovery?
}

/// The day and reason of the recovery route in force today.
struct TodaysRecovery {
    var day: Int
    var reason: String
}

/// What every gate of one plan reads, made once per plan: the ruleset (its policy, routines
/// and risk table), the fact layout, what the profile says of each type, today's deliveries
/// and the user's clock. The gates read nothing else: each is a function of this, the
/// candidate and the plan's inputs.
struct GateContext {
    /// The ruleset and its layout, behind one reference (a `Ruleset` value copied into each
    /// context retained every one of its fields).
    let prepared: PreparedRuleset
    /// Per rule index: the type's own bool setting is false.
    let typeOff: [Bool]
    /// Per rule index: ignores in a row.
    let ignoredStreaks: [Int]
    /// The day each weakened type was first weakened, by type.
    let weakenedSince: [String: Int]
    /// The current logical day and its deliveries.
    let today: Int?
    let deliveries: [Delivery]
    let clock: LocalClock
    let dayStart: Int

    var ruleset: Ruleset { prepared.ruleset }
    var layout: FactLayout { prepared.layout }

    /// `facts` moved to a fire time: `now` set there and risk re-derived (a risk entry that
    /// cannot be evaluated there is told in `problems`).
    func atFire(_ facts: FactValues, fireSeconds: Int, problems: inout [String]) -> FactValues {
        Self.atFire(facts, fireSeconds: fireSeconds, ruleset: ruleset, layout: layout, dayStart: dayStart, problems: &problems)
    }

    static func atFire(
        _ facts: FactValues, fireSeconds: Int, ruleset: Ruleset, layout: FactLayout, dayStart: Int, problems: inout [String]
    ) -> FactValues {
        var facts = facts
        if let now = layout.now { facts.patch(now, cell: .time(fireSeconds)) }
        let index = FirstMatch.index(ruleset.risk, \.when, \.origin, facts: facts, dayStart: dayStart, problems: &problems)
        if let risk = layout.risk { facts.patch(risk, cell: (index.map { ruleset.risk[$0].level } ?? .low).cell) }
        return facts
    }
}

/// One gate of the planner: a check of one candidate in the order of `Gates.planOrder`,
/// which may refuse it, move it (quiet-hours deferral) or change how it is presented
/// (passive weakening).
protocol Gate: SendableMetatype {
    /// The reason a refusal by this gate is given.
    static var reason: GateReason { get }
    static func check(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateResult
}

/// The gates in order.
enum Gates {
    /// The gates a candidate passes, in order (`max_pending` is iOS's limit, applied to the
    /// whole plan afterwards: `MaxPendingGate`).
    static let planOrder: [any Gate.Type] = [
        DisabledGate.self, SkippedGate.self, ConditionGate.self, CompletedGate.self, QuietHoursGate.self, DailyCapGate.self,
        CooldownGate.self, WeakeningGate.self, StaleGate.self,
    ]

    /// Runs the gates in order; nil when the candidate passes them all, else the refusing one.
    static func run(_ gated: inout GatedCandidate, _ inputs: GateInputs, _ context: GateContext) -> GateReason? {
        for gate in planOrder {
            switch gate.check(&gated, inputs, context) {
            case .passed:
                gated.outcome.passed += 1
            case .refused(let detail):
                gated.outcome.refusal = detail
                return gate.reason
            }
        }
        return nil
    }
}

extension GateReason {
    /// The reasons of the gates a candidate passes, in order.
    static let planOrder: [GateReason] = Gates.planOrder.map { $0.reason }
}

/// The message of an evaluation error: the expression's file and line and the error.
func evaluationProblem(_ expression: CompiledExpression, origin: Origin?, _ error: any Error) -> String {
    let place = origin.map { "\($0.file):\($0.location.line): " } ?? ""
    return "\(place)'\(expression.source)' could not be evaluated: \(error)"
}
