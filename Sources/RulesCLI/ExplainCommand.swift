import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// `rules explain SCENARIO --at HH:MM [--decision …]`: why a decision came out as it did.
enum ExplainCommand {
    static var command: Command {
        Command(
            name: "explain",
            abstract: "Explain a decision of a simulated day at a moment.",
            discussion: """
                Simulates SCENARIO up to --at and prints, for the decision (route by default; risk;
                notification ID; template home|widget|ID; tool; day), the deciding entry, the entries
                before it that did not match (or could not be evaluated, with the error), and the values
                of the facts they read — as the engine evaluated them when it decided, not worked out
                again. A line is explained with the event and facts it was chosen with: the widget's are
                the home event's. --why-not searches for one changed fact; what it says the decision was
                ("it was …") and the entries that could not be evaluated are the engine's own.
                """,
            usageArguments: "SCENARIO",
            arguments: [("SCENARIO", "A scenario file."), ("ID", "The notification type or template, after --decision notification|template.")],
            options: Options.self,
            run: run)
    }

    /// What `--decision` asks to explain.
    enum Decision: String, CaseIterable, ArgumentValue {
        case route, risk, notification, template, tool, day
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var at: String?
        var decision = Decision.route
        var whyNot: String?
        var ruleset = "."

        static var fields: [OptionField<Self>] {
            [
                .option(
                    \.at,
                    OptionSpec(name: "--at", valueName: "HH:MM", help: "The moment (HH:MM on the first day, or YYYY-MM-DDTHH:MM).", required: true)),
                .option(
                    \.decision,
                    OptionSpec(
                        name: "--decision", valueName: "KIND", help: "What to explain (default: route).",
                        usageValue: "route|risk|notification ID|template ID|tool|day")),
                .option(
                    \.whyNot,
                    OptionSpec(
                        name: "--why-not", valueName: "OUTCOME",
                        help: "The smallest fact change that would have given OUTCOME (route=light, notification=recovery_route).",
                        usageValue: "route=KIND|risk=LEVEL|notification=ID")),
                SimulationSupport.rulesetOption(\.ruleset),
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard let path = given.positional.first else {
            return RulesCLI.usageError("explain takes a scenario file", usage: command.usage, helpName: "explain", io: io)
        }
        guard let at = given.at else {
            return RulesCLI.usageError("explain needs --at HH:MM", usage: command.usage, helpName: "explain", io: io)
        }
        let decision = given.decision
        let id = given.positional.dropFirst().first
        if decision == .notification || decision == .template, id == nil {
            return RulesCLI.usageError(
                "--decision \(decision.rawValue) needs an ID after the scenario", usage: command.usage, helpName: "explain", io: io)
        }
        guard let (ruleset, _) = SimulationSupport.ruleset(given.ruleset, io) else { return .usage }
        if let question = given.whyNot, case .failure(let unaskable) = WhyNot.question(question, ruleset: ruleset) {
            return RulesCLI.usageError("--why-not: \(unaskable.message)", usage: command.usage, helpName: "explain", io: io)
        }
        guard let files = SimulationSupport.scenarioFiles([path], io),
            let loaded = SimulationSupport.scenarios(files, ruleset: ruleset).first
        else { return .usage }
        guard let scenario = loaded.scenario else {
            io.out(loaded.rendered(color: false))
            return .failure
        }
        loaded.warn(io)
        let stop: (day: Int, seconds: Int)
        switch SimulationSupport.stopPoint(at, scenario: scenario) {
        case .success(let point): stop = point
        case .failure(let refusal):
            return RulesCLI.usageError("--at: \(refusal.message)", usage: command.usage, helpName: "explain", io: io)
        }
        let result = Simulation.run(scenario, ruleset: ruleset, options: SimulationOptions(stop: stop))
        if let question = given.whyNot {
            io.out(WhyNot.answer(question, engine: result.engine, ruleset: ruleset) + "\n")
            return .success
        }
        return answer(decision, id: id, at: at, result: result, ruleset: ruleset, io)
    }

    /// The explanation of `decision` (a notification type or template `id`'s) as of the stop.
    static func answer(_ decision: Decision, id: String?, at: String, result: SimulationResult, ruleset: Ruleset, _ io: CommandIO) -> ExitCode {
        let explanations = result.engine.explanations
        var key: String
        switch decision {
        case .notification: key = DecisionID.notification(id ?? "").name
        case .template:
            let surface = ruleset.template(id ?? "")?.surface ?? id ?? ""
            key = DecisionID.template(surface).name
        default: key = decision.rawValue
        }
        if decision == .notification, ruleset.notification(id ?? "") == nil {
            io.fail(.unknownNotification(id ?? "", near: Suggestions.nearest(to: id ?? "", among: ruleset.notifications.map(\.id))))
            return .usage
        }
        guard let explanation = explanations[key] else {
            if decision == .notification, let id, let rule = ruleset.notification(id) {
                io.out(fate(of: rule, result: result, clock: result.engine.clock) + "\n")
                return .success
            }
            io.out("no \(decision.rawValue) decision was made by \(at)\n")
            return .failure
        }
        io.out(render(explanation, clock: result.clock(at: explanation.at)))
        return .success
    }

    /// What became of a notification type the last plan did not explain: its latest
    /// record (scheduled, delivered, suppressed or cancelled, with the gate), else why it was
    /// never a candidate.
    static func fate(of rule: NotificationRule, result: SimulationResult, clock: LocalClock) -> String {
        for record in result.records.reversed() {
            switch record.kind {
            case .notificationDelivered(let request, _) where request.type == rule.id:
                return "\(rule.id): delivered at \(clock.iso8601(request.scheduledAt)) (\(request.id))"
            case .notificationSuppressed(let refusal) where refusal.type == rule.id:
                return "\(rule.id): suppressed at \(clock.iso8601(refusal.fireAt)) by the gate '\(refusal.reason.rawValue)' (\(refusal.id))"
            case .notificationCancelled(let request, let reason) where request.type == rule.id:
                return "\(rule.id): cancelled at \(clock.iso8601(record.at)) (\(reason.rawValue)) (\(request.id))"
            case .notificationScheduled(let request) where request.type == rule.id:
                return "\(rule.id): scheduled for \(clock.iso8601(request.scheduledAt)) (\(request.id))"
            default:
                continue
            }
        }
        if rule.perRoutine {
            return "\(rule.id) was never a candidate: it fires once per enabled routine with a reminder in settings.reminders, and none is set"
        }
        if let facts = result.engine.currentFacts() {
            var context = EvaluationContext(facts: facts, dayStart: result.dayStart)
            do {
                if try rule.at.value(&context).isUnknown {
                    return
                        "\(rule.id) was never a candidate: its time (\(rule.at.source)) is unknown — \(rule.at.factsRead.joined(separator: ", ")) not set"
                }
            } catch {
                return "\(rule.id) was never a candidate: its time (\(rule.at.source)) could not be evaluated (\(error))"
            }
        } else {
            return "\(rule.id) was never a candidate: no app run had happened yet"
        }
        return "\(rule.id) was never a candidate: its fire time had passed before the app ran"
    }

    /// The explanation as text: the outcome, each entry tried, the facts read.
    static func render(_ explanation: Explanation, clock: LocalClock) -> String {
        var out = "\(explanation.decision) at \(clock.iso8601(explanation.at)) → \(explanation.outcome)\n"
        if let note = explanation.note { out += "  \(note)\n" }
        for (index, entry) in explanation.entries.enumerated() {
            let mark: String
            var detail = ""
            switch entry.result {
            case .matched: mark = "✓"
            case .notMatched: mark = "✗"
            case .failed(let why):
                mark = "!"
                detail = " (\(why))"
            }
            let place = entry.origin.map { "  \($0.file):\($0.location.line):\($0.location.column)" } ?? ""
            let condition = entry.condition.map { "  when: \($0)" } ?? ""
            let decided = entry.result == .matched && index == explanation.entries.count - 1 ? "  ← decided" : ""
            out += "  \(mark) \(index + 1). \(entry.label)\(condition)\(detail)\(place)\(decided)\n"
        }
        if !explanation.facts.isEmpty {
            out += "  facts:\n"
            for (name, value) in explanation.facts { out += "    \(name) = \(value)\n" }
        }
        return out
    }
}
