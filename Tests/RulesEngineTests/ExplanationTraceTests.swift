import Foundation
import Ruleset
import Testing

@testable import RulesEngine

/// Explanations read the trace the engine recorded as it decided (each table entry and each
/// template condition tried, with its result), never an evaluation of their own.
struct ExplanationTraceTests {
    static let seoul = EngineStateTests.seoul
    static func at(_ hour: Int, _ minute: Int = 0) -> Date { EngineStateTests.at(hour, minute) }

    /// The widget's line is chosen with `event` = home whatever the run's event: its
    /// explanation says so (evaluating its conditions again with the run's facts, where
    /// `event` is the run's, would tell the chosen template as not matched).
    @Test func theWidgetLineIsExplainedAsItWasChosen() throws {
        let ruleset = try Shipped.variant([
            (
                "templates/character.yaml", "when: route != \"recovery\"\n    text: 아직 살릴 수 있어.",
                "when: route != \"recovery\" && event == \"home\"\n    text: 아직 살릴 수 있어."
            )
        ])
        var profile = OperatorProfile(ruleset: ruleset)
        profile.enabledRoutines.insert("reading")
        var engine = OperatorEngine(ruleset: ruleset, clock: Self.seoul, profile: profile)
        engine.explains = true
        engine.handle(.appOpened(health: nil), at: Self.at(9))
        // Reading done: the run's event is `completed`.
        engine.handle(.log(routine: "reading", value: 20, unit: nil, source: .manual), at: Self.at(9, 30))
        let event = try #require(engine.layout.event)
        #expect(engine.currentFacts().map { $0[event] } == .string("completed"))
        let widget = try #require(engine.explanation(of: .template("widget")))
        #expect(widget.outcome == "widget_default")
        let chosen = try #require(widget.entries.first { $0.label == "widget_default" })
        #expect(chosen.result == .matched)
        #expect(chosen.condition?.contains("event == \"home\"") == true)
        #expect(widget.facts.contains { $0.name == "event" && $0.value == .string("home") })
    }

    /// A risk entry that cannot be evaluated is told as failed, with the engine's own error,
    /// and the next entry decides — as the engine decided.
    @Test func aTableEntryThatFailedIsToldFromTheTrace() throws {
        let ruleset = try Shipped.variant([
            ("rules/route.yaml", "level: high\n    when: ", "level: high\n    when: 1 / (completed - completed) == 1 || ")
        ])
        var engine = OperatorEngine(ruleset: ruleset, clock: Self.seoul)
        engine.explains = true
        let records = engine.handle(.appOpened(health: nil), at: Self.at(9))
        let problems = records.compactMap { record -> String? in
            if case .problem(.evaluation, let message) = record.kind { return message }
            return nil
        }
        let risk = try #require(engine.explanation(of: .risk))
        let first = try #require(risk.entries.first)
        let failed: String? = if case .failed(let message) = first.result { message } else { nil }
        let message = try #require(failed, "the first entry is told as \(first.result), not as failed")
        #expect(problems.contains { $0.hasSuffix(message) }, "\(problems) \(message)")
        #expect(risk.outcome == engine.snapshot?.risk.rawValue)
        #expect(risk.entries.count >= 2)
    }

    /// The explainer evaluates nothing: no expression is evaluated in its files.
    @Test func theExplainerEvaluatesNothing() throws {
        let files = SourceLimitsTests.engineSources.filter { $0.path.contains("/Explain/") }
        #expect(files.count >= 3)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for word in ["isTrue(", "evaluate(", "EvaluationContext("] where text.contains(word) {
                Issue.record("\(file.lastPathComponent) evaluates (\(word)): read the trace the decision recorded")
            }
        }
    }
}
