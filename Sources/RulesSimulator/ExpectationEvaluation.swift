import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// One expectation checked against the day it belongs to: the day's records, its close, the
/// app's state at the expectation's time and the run's explanations. Each kind is a method.
struct ExpectationEvaluation {
    let expectation: Expectation
    let day: ScenarioDay
    let time: Date?
    let records: [EngineRecord]
    let close: DayClose?
    let result: SimulationResult
    let ruleset: Ruleset
    /// Times shown in the zone in force at the expectation's time (or the day's end).
    let clock: LocalClock
    /// The app's state at the expectation's time.
    let state: AppState?

    init(
        expectation: Expectation, day: ScenarioDay, time: Date?, records: [EngineRecord], close: DayClose?, result: SimulationResult,
        ruleset: Ruleset
    ) {
        self.expectation = expectation
        self.day = day
        self.time = time
        self.records = records
        self.close = close
        self.result = result
        self.ruleset = ruleset
        clock = result.clock(at: time ?? records.last?.at ?? .distantPast)
        state = time.flatMap { result.state(at: $0) }
    }

    /// The outcome; the explanation is looked for only when the expectation failed.
    func outcome(_ passed: Bool, _ expected: String, _ actual: String, _ explanation: @autoclosure () -> Explanation? = nil) -> ExpectationResult {
        ExpectationResult(
            expectation: expectation, day: day.date, passed: passed, expected: expected, actual: actual, explanation: passed ? nil : explanation())
    }

    func evaluate() -> ExpectationResult {
        switch expectation.kind {
        case .delivered(let type, let level): return delivered(type, level: level)
        case .suppressed(let type, let reason): return suppressed(type, reason: reason)
        case .route(let route):
            let actual = state?.route?.rawValue ?? "no app run yet"
            return outcome(state?.route == route, route.rawValue, actual, state?.explanations[DecisionID.route.name])
        case .risk(let risk):
            let actual = state?.risk?.rawValue ?? "no app run yet"
            return outcome(state?.risk == risk, risk.rawValue, actual, state?.explanations[DecisionID.risk.name])
        case .snapshot(let checks): return snapshot(checks)
        case .day(let expected):
            return outcome(
                close?.result == expected, expected.rawValue, close?.result.rawValue ?? "the day did not close",
                result.engine.explanations[DecisionID.day.name])
        case .notificationsDelivered(let count): return notificationsDelivered(count)
        case .problems(let count): return problems(count)
        case .verdict(let expected, let reason): return verdict(expected, reason: reason)
        case .streak(let streak):
            return outcome(close?.streak == streak, String(streak), close.map { String($0.streak) } ?? "the day did not close")
        case .xp(let xp):
            return outcome(close?.xp == xp, String(xp), close.map { String($0.xp) } ?? "the day did not close")
        case .that(let condition): return that(condition)
        }
    }

    private func delivered(_ type: String, level: InterruptionLevel?) -> ExpectationResult {
        let deliveries = records.compactMap { record -> (Date, InterruptionLevel)? in
            if case .notificationDelivered(let n, _) = record.kind, n.type == type { return (record.at, n.interruptionLevel) }
            return nil
        }
        let passed = deliveries.contains { ExpectationChecker.fireMinuteMatches($0.0, time) && (level == nil || $0.1 == level) }
        let actual =
            deliveries.isEmpty
            ? ExpectationChecker.fateOf(type, records: records, clock: clock)
            : "delivered at " + deliveries.map { "\(TimeFormat.clock(clock.local($0.0).seconds)) [\($0.1.rawValue)]" }.joined(separator: ", ")
        let expected =
            "delivered \(type)\(time.map { " at \(TimeFormat.clock(clock.local($0).seconds))" } ?? "")\(level.map { " [\($0.rawValue)]" } ?? "")"
        return outcome(passed, expected, actual, ExpectationChecker.lastExplanation(DecisionID.notification(type).name, result, before: time))
    }

    private func suppressed(_ type: String, reason: GateReason?) -> ExpectationResult {
        let suppressions = records.compactMap { record -> SuppressedNotification? in
            if case .notificationSuppressed(let s) = record.kind, s.type == type { return s }
            return nil
        }
        let passed = suppressions.contains { ExpectationChecker.fireMinuteMatches($0.fireAt, time) && (reason == nil || $0.reason == reason) }
        return outcome(
            passed, "suppressed \(type)\(reason.map { " (\($0.rawValue))" } ?? "")", ExpectationChecker.fateOf(type, records: records, clock: clock),
            ExpectationChecker.lastExplanation(DecisionID.notification(type).name, result, before: time))
    }

    private func snapshot(_ checks: [(key: String, value: Value)]) -> ExpectationResult {
        guard let snapshot = state?.snapshot, case .object(let fields) = snapshot.json(clock: clock) else {
            return outcome(false, "a snapshot", "no snapshot saved yet")
        }
        var mismatches: [String] = []
        for (key, expected) in checks {
            let actual = fields.first { $0.0 == key }?.1 ?? .null
            if !ExpectationChecker.matches(expected, actual) {
                mismatches.append("\(key): expected \(ExpectationChecker.describe(expected)), got \(actual.rendered())")
            }
        }
        let explanation = checks.contains { $0.key == "active_route_type" } ? state?.explanations[DecisionID.route.name] : nil
        return outcome(
            mismatches.isEmpty, checks.map { "\($0.key)=\(ExpectationChecker.describe($0.value))" }.joined(separator: ", "),
            mismatches.isEmpty ? "as expected" : mismatches.joined(separator: "; "), explanation)
    }

    private func notificationsDelivered(_ count: Int) -> ExpectationResult {
        let delivered = records.compactMap { record -> (type: String, at: String)? in
            if case .notificationDelivered(let n, _) = record.kind { return (n.type, TimeFormat.clock(clock.local(record.at).seconds)) }
            return nil
        }
        guard delivered.count != count else { return outcome(true, String(count), String(count)) }
        return outcome(false, String(count), ExpectationChecker.countFailure(count, delivered: delivered, day: day, records: records, clock: clock))
    }

    private func problems(_ count: Int) -> ExpectationResult {
        let problems = records.compactMap { record -> String? in
            if case .problem(let code, let message) = record.kind { return "\(message) [\(code.rawValue)]" }
            return nil
        }
        return outcome(
            problems.count == count, "\(count) problems",
            problems.isEmpty ? "none" : "\(problems.count): " + problems.prefix(3).joined(separator: "; "))
    }

    private func verdict(_ expected: ToolVerdict.Outcome, reason: String?) -> ExpectationResult {
        let verdicts = records.compactMap { record -> ToolVerdict? in
            if case .toolVerdict(let verdict, _) = record.kind, ExpectationChecker.fireMinuteMatches(record.at, time) { return verdict }
            return nil
        }
        let passed = verdicts.contains { $0.outcome == expected && (reason == nil || $0.reason == reason) }
        let actual =
            verdicts.isEmpty
            ? "no tool call" : verdicts.map { "\($0.outcome.rawValue)\($0.reason.map { " (\($0))" } ?? "")" }.joined(separator: ", ")
        return outcome(
            passed, "\(expected.rawValue)\(reason.map { " (\($0))" } ?? "")", actual, ExpectationChecker.lastExplanation("tool", result, before: time)
        )
    }

    private func that(_ condition: CompiledExpression) -> ExpectationResult {
        guard let facts = state?.facts else { return outcome(false, "\(condition.source) holds", "no app run before that time") }
        var context = EvaluationContext(facts: facts, dayStart: result.dayStart)
        let holds: Bool?
        do { holds = try condition.isTrue(&context) } catch { holds = nil }
        var read = condition.factsRead.compactMap { name in ruleset.schema.fact(named: name).map { "\(name) = \(facts[$0.slot])" } }
        // Steps and sleep change only at a HealthKit sync (open, refresh, a notification),
        // not at a log: say when the last one was.
        if condition.factsRead.contains(where: { $0.hasPrefix("steps.") || $0.hasPrefix("sleep.") }),
            !condition.factsRead.contains("health.synced_at"), let synced = ruleset.schema.fact(named: "health.synced_at")
        {
            read.append("health.synced_at = \(facts[synced.slot])")
        }
        return outcome(
            holds == true, "\(condition.source) holds",
            (holds == nil ? "could not evaluate" : "it does not") + " (\(read.joined(separator: ", ")))")
    }
}
