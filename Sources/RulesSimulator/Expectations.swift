import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// The outcome of one expectation.
package struct ExpectationResult: Sendable {
    package var expectation: Expectation
    package var day: Int
    package var passed: Bool
    package var expected: String
    package var actual: String
    /// The explanation of the decision, for a failure.
    package var explanation: Explanation?
    /// For a failure: the changes to the expectation as written that make it say what the
    /// engine now does (`rules test --update`); empty when it cannot be said by changing
    /// values (a `that:` condition, a notification with several fates that day).
    package var fixes: [ExpectationFix] = []
}

/// One change to an expectation as written: a key's new value (YAML text), and the key's new
/// name when the outcome changed kind (`delivered` → `suppressed`).
package struct ExpectationFix: Sendable, Equatable {
    package var key: String
    package var value: String
    package var renamedTo: String?

    package init(_ key: String, _ value: String, renamedTo: String? = nil) {
        self.key = key
        self.value = value
        self.renamedTo = renamedTo
    }

    /// A time of day as a quoted YAML scalar.
    static func time(_ seconds: Int) -> String { "\"\(TimeFormat.clock(seconds))\"" }
}

/// Checks a scenario's `expect:` entries against a simulation.
package enum ExpectationChecker {
    package static func check(_ result: SimulationResult, ruleset: Ruleset) -> [ExpectationResult] {
        var results: [ExpectationResult] = []
        let clock = result.scenario.clock
        let dayStart = result.dayStart
        let byDay = result.recordsByDay { !Trace.isDayClose($0) }
        // Each day's close, found once (a search per expectation was quadratic in days).
        let closes = Dictionary(result.closedDays.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        for day in result.scenario.days {
            let dayRecords = byDay[day.date] ?? []
            var expectations = day.expectations
            // No problem is expected unless the day says how many: a day with problems and no
            // `problems:` expectation fails (a day without problems adds nothing to the count).
            if !expectations.contains(where: { if case .problems = $0.kind { true } else { false } }),
                dayRecords.contains(where: { if case .problem = $0.kind { true } else { false } })
            {
                expectations.append(Expectation(kind: .problems(0), seconds: nil, origin: day.origin, text: "{ problems: 0 } (implied)"))
            }
            for expectation in expectations {
                let time = expectation.seconds.map {
                    (expectation.clock ?? day.clock ?? clock).instant(logicalDay: day.date, seconds: $0, dayStart: dayStart)
                }
                var outcome = evaluate(
                    expectation, day: day, time: time, records: dayRecords, close: closes[day.date], result: result, ruleset: ruleset)
                outcome.day = day.date
                if !outcome.passed {
                    outcome.fixes = fixes(
                        expectation, time: time, records: dayRecords, close: closes[day.date], result: result,
                        clock: result.clock(at: time ?? dayRecords.last?.at ?? .distantPast))
                }
                results.append(outcome)
            }
        }
        return results
    }

    /// What a failed `notifications_delivered` count names: every delivery of the day, then
    /// the extra ones (those no `delivered:` expectation of the day names) or, when too few
    /// came, the notices refused that day with their gates.
    static func countFailure(
        _ count: Int, delivered: [(type: String, at: String)], day: ScenarioDay, records: [EngineRecord], clock: LocalClock
    ) -> String {
        var actual = String(delivered.count)
        if !delivered.isEmpty { actual += " (" + delivered.map { "\($0.type) at \($0.at)" }.joined(separator: ", ") + ")" }
        if delivered.count > count {
            var named: [String] = []
            for expectation in day.expectations { if case .delivered(let type, _) = expectation.kind { named.append(type) } }
            var extra: [String] = []
            for delivery in delivered {
                if let index = named.firstIndex(of: delivery.type) {
                    named.remove(at: index)
                } else {
                    extra.append("\(delivery.type) at \(delivery.at)")
                }
            }
            actual +=
                extra.isEmpty
                ? "; \(delivered.count - count) more than expected" : "; extra (no delivered: expectation names it): " + extra.joined(separator: ", ")
        } else {
            let refused = records.compactMap { record -> String? in
                if case .notificationSuppressed(let s) = record.kind {
                    return "\(s.type) (\(s.reason.rawValue)) at \(TimeFormat.clock(clock.local(record.at).seconds))"
                }
                return nil
            }
            actual += "; \(count - delivered.count) missing" + (refused.isEmpty ? "" : ", refused that day: " + refused.joined(separator: ", "))
        }
        return actual
    }

    static func fireMinuteMatches(_ date: Date, _ time: Date?) -> Bool {
        guard let time else { return true }
        return Int(date.timeIntervalSince1970) / 60 == Int(time.timeIntervalSince1970) / 60
    }

    static func evaluate(
        _ expectation: Expectation, day: ScenarioDay, time: Date?, records: [EngineRecord], close: DayClose?, result: SimulationResult,
        ruleset: Ruleset
    ) -> ExpectationResult {
        let check = ExpectationEvaluation(
            expectation: expectation, day: day, time: time, records: records, close: close, result: result, ruleset: ruleset)
        return check.evaluate()
    }

    /// What happened to a type that day, for reports.
    static func fateOf(_ type: String, records: [EngineRecord], clock: LocalClock) -> String {
        var fates: [String] = []
        for record in records {
            switch record.kind {
            case .notificationDelivered(let n, _) where n.type == type:
                fates.append("delivered at \(TimeFormat.clock(clock.local(record.at).seconds))")
            case .notificationSuppressed(let s) where s.type == type:
                fates.append("suppressed at \(TimeFormat.clock(clock.local(s.fireAt).seconds)) (\(s.reason.rawValue))")
            default: break
            }
        }
        return fates.isEmpty
            ? "no candidate that day (no app run before its fire time planned it, or its time was unknown)" : fates.joined(separator: ", ")
    }

    static func lastExplanation(_ key: String, _ result: SimulationResult, before time: Date?) -> Explanation? {
        let states = time.map { limit in result.states.filter { $0.at <= limit } } ?? result.states
        return states.last { $0.explanations[key] != nil }?.explanations[key]
    }

    static func matches(_ expected: Value, _ actual: JSONValue) -> Bool {
        switch (expected, actual) {
        case (.number(let e), .int(let a)): return abs(e - Double(a)) <= 1e-9
        case (.number(let e), .number(let a)): return abs(e - a) <= 1e-9
        case (.string(let e), .string(let a)): return e == a
        case (.unknown, .null): return true
        default: return false
        }
    }

    static func describe(_ value: Value) -> String {
        if case .string(let text) = value { return "\"\(text)\"" }
        return value.description
    }

    /// The changes that make a failed expectation say what happened (see `ExpectationFix`).
    static func fixes(
        _ expectation: Expectation, time: Date?, records: [EngineRecord], close: DayClose?, result: SimulationResult, clock: LocalClock
    ) -> [ExpectationFix] {
        let state = time.flatMap { result.state(at: $0) }
        func minute(_ date: Date) -> String { ExpectationFix.time(clock.local(date).seconds) }
        switch expectation.kind {
        case .route: return state?.route.map { [ExpectationFix("route", $0.rawValue)] } ?? []
        case .risk: return state?.risk.map { [ExpectationFix("risk", $0.rawValue)] } ?? []
        case .day: return close.map { [ExpectationFix("day", $0.result.rawValue)] } ?? []
        case .streak: return close.map { [ExpectationFix("streak", String($0.streak))] } ?? []
        case .xp: return close.map { [ExpectationFix("xp", String($0.xp))] } ?? []
        case .notificationsDelivered:
            return [
                ExpectationFix("notifications_delivered", String(records.count { if case .notificationDelivered = $0.kind { true } else { false } }))
            ]
        case .problems:
            return [ExpectationFix("problems", String(records.count { if case .problem = $0.kind { true } else { false } }))]
        case .delivered(let type, _):
            return notificationFixes(expectation, type: type, records: records, minute: minute)
        case .suppressed(let type, _):
            return notificationFixes(expectation, type: type, records: records, minute: minute)
        case .snapshot(let checks):
            guard let snapshot = state?.snapshot, case .object(let fields) = snapshot.json(clock: clock) else { return [] }
            return checks.compactMap { key, expected in
                let actual = fields.first { $0.0 == key }?.1 ?? .null
                return matches(expected, actual) ? nil : ExpectationFix(key, actual.rendered())
            }
        case .verdict(_, let reason):
            let verdicts = records.compactMap { record -> ToolVerdict? in
                if case .toolVerdict(let verdict, _) = record.kind, fireMinuteMatches(record.at, time) { return verdict }
                return nil
            }
            guard verdicts.count == 1, let verdict = verdicts.first, reason == nil || verdict.reason != nil else { return [] }
            return [ExpectationFix("verdict", verdict.outcome.rawValue)]
                + (reason == nil ? [] : [ExpectationFix("reason", JSONValue.string(verdict.reason ?? "").rendered())])
        default:
            return []
        }
    }

    /// A notification's one fate that day, as its expectation should say it: delivered or
    /// suppressed, at its minute (and the gate, when the expectation names one).
    static func notificationFixes(
        _ expectation: Expectation, type: String, records: [EngineRecord], minute: (Date) -> String
    ) -> [ExpectationFix] {
        var fates: [(delivered: Bool, at: Date, level: InterruptionLevel?, reason: GateReason?)] = []
        for record in records {
            switch record.kind {
            case .notificationDelivered(let n, _) where n.type == type: fates.append((true, record.at, n.interruptionLevel, nil))
            case .notificationSuppressed(let s) where s.type == type: fates.append((false, s.fireAt, nil, s.reason))
            default: break
            }
        }
        guard fates.count == 1, let fate = fates.first else { return [] }
        let wasDelivered: Bool
        let namedReason: Bool
        var namedLevel: InterruptionLevel?
        switch expectation.kind {
        case .delivered(_, let level): (wasDelivered, namedReason, namedLevel) = (true, false, level)
        case .suppressed(_, let reason): (wasDelivered, namedReason) = (false, reason != nil)
        default: return []
        }
        var fixes: [ExpectationFix] = []
        if let namedLevel, let level = fate.level, level != namedLevel { fixes.append(ExpectationFix("level", level.rawValue)) }
        if fate.delivered != wasDelivered {
            // A suppression named with its reason, or a delivery with its level, cannot change
            // kind (`reason` or `level` would stay).
            guard !namedReason, namedLevel == nil else { return [] }
            fixes.append(ExpectationFix(wasDelivered ? "delivered" : "suppressed", type, renamedTo: fate.delivered ? "delivered" : "suppressed"))
        } else if namedReason, let reason = fate.reason {
            fixes.append(ExpectationFix("reason", reason.rawValue))
        }
        if expectation.seconds != nil { fixes.append(ExpectationFix("at", minute(fate.at))) }
        return fixes
    }
}
