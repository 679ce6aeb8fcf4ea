import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import ShippedRuleset
import TestSupport
import Testing

/// The shipped ruleset and scenario runs written inline.
enum Shipped {
    static let root = ShippedRuleset.root
    static let ruleset = ShippedRuleset.ruleset
    static func variant(_ edits: [(String, String, String)]) throws -> Ruleset { try ShippedRuleset.variant(edits) }

    /// Loads a scenario from YAML text against `ruleset`; records an issue on errors.
    static func scenario(_ yaml: String, ruleset: Ruleset = ruleset, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Scenario? {
        let parsed = YAMLReader.parse(yaml, file: "inline.yaml")
        guard let node = parsed.documents.first, parsed.isClean else {
            Issue.record("YAML: \(parsed.diagnostics.map(\.message))", sourceLocation: sourceLocation)
            return nil
        }
        let (scenario, diagnostics) = ScenarioLoader.load(node, file: "inline.yaml", source: nil, ruleset: ruleset)
        if scenario == nil { Issue.record("scenario: \(diagnostics.map(\.message))", sourceLocation: sourceLocation) }
        return scenario
    }

    static func run(_ yaml: String, ruleset: Ruleset = ruleset, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SimulationResult? {
        scenario(yaml, ruleset: ruleset, sourceLocation: sourceLocation).map { Simulation.run($0, ruleset: ruleset) }
    }

    /// Deliveries of a result: (type, HH:MM, interruption level).
    static func deliveries(_ result: SimulationResult) -> [(String, String, String)] {
        result.records.compactMap { record in
            guard case .notificationDelivered(let n, _) = record.kind else { return nil }
            return (n.type, TimeFormat.clock(result.scenario.clock.local(record.at).seconds), n.interruptionLevel.rawValue)
        }
    }

    static func suppressions(_ result: SimulationResult) -> [(String, String, String)] {
        result.records.compactMap { record in
            guard case .notificationSuppressed(let s) = record.kind else { return nil }
            return (s.type, TimeFormat.clock(result.scenario.clock.local(s.fireAt).seconds), s.reason.rawValue)
        }
    }
}

/// Generated scenario days (a fixed linear congruential generator: the same days on every
/// platform): random routines, sleep, steps, reminders, tones and a day of app runs, logs,
/// ticks, widget intents and route requests.
enum GeneratedDays {
    typealias Generator = SeededGenerator

    static func day(_ g: inout Generator, date: String) -> String {
        let routines = ["steps", "sleep", "water", "study", "reading", "practice", "skincare", "exercise", "supplement", "room"]
        var enabled = routines.filter { _ in g.next(3) > 0 }
        if enabled.isEmpty { enabled = ["water"] }
        let sleepStart = 22 * 60 + g.next(300)
        let sleepMinutes = 180 + g.next(400)
        func clock(_ minutes: Int) -> String { String(format: "%02d:%02d", (minutes / 60) % 24, minutes % 60) }
        var reminders: [String] = []
        for routine in enabled where g.next(2) == 0 { reminders.append("\(routine): \"\(clock(6 * 60 + g.next(17 * 60)))\"") }
        var events: [String] = []
        var minute = 6 * 60 + g.next(120)
        while minute < 26 * 60 {
            let routine = enabled[g.next(enabled.count)]
            switch g.next(8) {
            case 0, 1: events.append("{ at: \"\(clock(minute))\", app: open }")
            case 2:
                events.append(
                    "{ at: \"\(clock(minute))\", widget: \(["log_water_250", "complete_supplement", "complete_skincare", "start_recovery"][g.next(4)]) }"
                )
            case 3: events.append("{ at: \"\(clock(minute))\", check: { routine: skincare, item: \(["양치", "세수", "면도", "로션"][g.next(4)]) } }")
            case 4: events.append("{ at: \"\(clock(minute))\", action: \(["reduce_route", "start_recovery"][g.next(2)]) }")
            default:
                if routine != "skincare", routine != "steps", routine != "sleep" {
                    events.append("{ at: \"\(clock(minute))\", log: { routine: \(routine), value: \(1 + g.next(600)) } }")
                }
            }
            minute += 20 + g.next(160)
        }
        return """
              - date: \(date)
                settings: { bedtime: "\(clock(22 * 60 + g.next(180)))", routine_reminder: \(g.next(2) == 0), reminders: { \(reminders.joined(separator: ", ")) }, tone: \(g.next(2) == 0 ? "calm_directive" : "cold_persistent") }
                health:
                  permission: { steps: \(g.next(4) == 0 ? "denied" : "granted"), sleep: \(g.next(4) == 0 ? "denied" : "granted") }
                  sleep: { start: "\(clock(sleepStart))", end: "\(clock(sleepStart + sleepMinutes))" }
                  steps: { "07:00": 0, "13:00": \(g.next(5000)), "22:00": \(5000 + g.next(5000)) }
                events: [\(events.joined(separator: ", "))]
            """
    }

    /// A scenario of `count` generated days from `first` (YYYY-MM-DD).
    static func scenario(_ g: inout Generator, first: String, count: Int) -> String {
        var yaml =
            "name: generated\ntimezone: Asia/Seoul\nroutines: [steps, sleep, water, study, reading, practice, skincare, exercise, supplement, room]\ndays:\n"
        let start = DateFormat.days(first) ?? 0
        for day in 0..<count { yaml += Self.day(&g, date: DateFormat.string(start + day)) + "\n" }
        return yaml
    }
}
