import Foundation
import RulesExpression
import Ruleset

/// Why a decision came out as it did (SPEC §7 `explain`): the entries tried in order, the
/// one that decided, and the values of the facts they read.
package struct Explanation: Sendable {
    package enum Result: Sendable, Hashable {
        case matched
        case notMatched
        /// The condition could not be evaluated (counts as not matched).
        case failed(String)
    }

    package struct Entry: Sendable {
        /// What the entry would decide (`recovery`, `high`, a gate name, a template id).
        package var label: String
        /// The condition as written, nil for gates without one.
        package var condition: String?
        package var origin: Origin?
        package var result: Result
    }

    /// `risk`, `route`, `notification <id>`, `template <surface>`, `tool`.
    package var decision: String
    package var outcome: String
    package var at: Date
    package var entries: [Entry]
    /// Why no table was consulted (a sticky route, a user request), if so.
    package var note: String?
    /// Names of the facts read, resolved against `values` only when asked (explanations are
    /// made at every app run and read rarely).
    var factNames: [String] = []
    var factValues: FactValues?
    var schema: FactSchema?

    package init(decision: String, outcome: String, at: Date, entries: [Entry], facts: [(name: String, value: Value)], note: String? = nil) {
        self.decision = decision
        self.outcome = outcome
        self.at = at
        self.entries = entries
        self.note = note
        self.explicitFacts = facts
    }

    init(
        decision: String, outcome: String, at: Date, entries: [Entry], reading names: [String], in values: FactValues, schema: FactSchema,
        note: String? = nil
    ) {
        self.init(decision: decision, outcome: outcome, at: at, entries: entries, facts: [], note: note)
        factNames = names
        factValues = values
        self.schema = schema
    }

    private var explicitFacts: [(name: String, value: Value)]

    /// Everything the explanation says, in one line (for comparing explanations: the CLI
    /// renders them for people).
    package var transcript: String {
        let tried = entries.map { "\($0.label) [\($0.condition ?? "-")] \($0.result)" }.joined(separator: ", ")
        let read = facts.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        return "\(decision) at \(at.timeIntervalSince1970) → \(outcome) (\(note ?? "")) tried: \(tried) read: \(read)"
    }

    /// Explanations by decision name in one text, a line each in the names' order (to
    /// compare what two engines explain).
    package static func transcript(of explanations: [String: Explanation]) -> String {
        explanations.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.transcript)" }.joined(separator: "\n")
    }

    /// Facts read by the entries tried, with their values.
    package var facts: [(name: String, value: Value)] {
        guard let factValues, let schema else { return explicitFacts }
        return factNames.compactMap { name in schema.fact(named: name).map { (name, factValues[$0.slot]) } }
    }
}

/// A decision kept to be explained on demand: explanations are asked for rarely, while
/// tables decide at every app run.
/// A ready explanation sits behind one reference (`indirect`): inline, it made every kept
/// decision as large as an explanation, copied and destroyed through the runtime's generic
/// witnesses.
enum PendingExplanation: Sendable {
    indirect case ready(Explanation)
    /// A table decided with `facts` at `at`: `tried` is its trace, what each entry tried in
    /// order evaluated to as the engine decided (the last one matched, or none did).
    /// Explaining reads the trace; nothing is evaluated again.
    case table(DecisionTable, tried: [Explanation.Result], facts: FactValues, at: Date)
    /// The route in force stays, without the table: `because` says why (explained when asked;
    /// a sticky route is kept at every run of the rest of the day).
    case routeKept(RouteKind, because: KeptRouteReason, at: Date)

    /// The same decision, seen again at `time`.
    func at(_ time: Date) -> PendingExplanation {
        switch self {
        case .ready(var explanation):
            explanation.at = time
            return .ready(explanation)
        case .table(let table, let tried, let facts, _): return .table(table, tried: tried, facts: facts, at: time)
        case .routeKept(let route, let reason, _): return .routeKept(route, because: reason, at: time)
        }
    }
}

/// Why a route stays without the table deciding.
enum KeptRouteReason: Sendable {
    case skippedDay, sticky
    /// The user asked for the route (`reduce_route` → light, `start_recovery` → recovery):
    /// read off the route state, so a restored engine explains it as the living one does.
    case userRequest
}

/// The rows of a decision table as they were when it decided.
enum DecisionTable: Sendable {
    case risk([RiskEntry])
    case route([RouteEntry])
    case day([DayJudgementEntry])
}

/// A decision the engine explains: a table's (`risk`, `route`, `day`), the last tool
/// call's, a notification candidate's (by type, or by request id) or a surface's line.
/// `name` is how scenarios, `--explain` and traces spell it.
package enum DecisionID: Sendable, Hashable {
    case risk, route, day, tool
    /// Today's candidate of a notification type, or any candidate by its request id.
    case notification(String)
    /// The last line made for a surface.
    case template(String)

    /// The tables among the decisions.
    package static let tables: [DecisionID] = [.risk, .route, .day]

    /// `risk`, `route`, `day`, `tool`, `notification <type or id>`, `template <surface>`.
    package var name: String {
        switch self {
        case .risk: "risk"
        case .route: "route"
        case .day: "day"
        case .tool: "tool"
        case .notification(let id): "notification " + id
        case .template(let surface): "template " + surface
        }
    }

    /// The decision a name spells, nil for a name that spells none.
    package init?(name: String) {
        switch name {
        case "risk": self = .risk
        case "route": self = .route
        case "day": self = .day
        case "tool": self = .tool
        default:
            let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else { return nil }
            switch parts[0] {
            case "notification": self = .notification(parts[1])
            case "template": self = .template(parts[1])
            default: return nil
            }
        }
    }
}
