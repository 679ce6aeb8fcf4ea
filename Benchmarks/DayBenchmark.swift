import Foundation
import RulesEngine
import RulesExpression
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles

/// Simulated user-days per second: the shipped scenarios, and a generated year of days
/// (about 30 events a day, a plan at every app run).
enum DayBenchmark {
    static func run(repository: String) {
        guard let ruleset = Ruleset.load(directory: repository).ruleset else {
            print("day: the shipped ruleset does not load")
            return
        }
        var scenarios: [Scenario] = []
        for name in RulesetDirectory.yamlFiles(under: repository + "/scenarios") {
            let path = repository + "/scenarios/" + name
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let node = YAMLReader.parse(text, file: name).documents.first,
                let scenario = ScenarioLoader.load(node, file: name, source: nil, ruleset: ruleset).scenario
            else { continue }
            scenarios.append(scenario)
        }
        let shippedDays = scenarios.reduce(0) { $0 + $1.days.count }
        let shipped = Measure.best(runs: 5) { for scenario in scenarios { blackHole(Simulation.run(scenario, ruleset: ruleset)) } }
        print(
            "day.shipped: \(scenarios.count) scenarios, \(shippedDays) days in \(Measure.format(shipped * 1000)) ms (\(Measure.format(Double(shippedDays) / shipped, decimals: 0)) days/s)"
        )

        guard let year = yearScenario(ruleset: ruleset) else {
            print("day.year: the generated year does not load")
            return
        }
        let events = year.days.reduce(0) { $0 + $1.events.count }
        var closed = 0
        let seconds = Measure.best(runs: 3) {
            let result = Simulation.run(year, ruleset: ruleset)
            closed = result.closedDays.count
        }
        print("day.year: 365 days, \(events) events (\(events / 365) a day), \(closed) closed in \(Measure.format(seconds * 1000)) ms")
        print(
            "  \(Measure.format(seconds / 365 * 1e6, decimals: 0)) µs per day, \(Measure.format(365 / seconds, decimals: 0)) days/s (goal: a year well under 1 s)"
        )
        // The app's way: the state saved to JSON and restored into a fresh engine after every
        // event and delivery, against the same year kept in one engine.
        let restored = Measure.best(runs: 3) { blackHole(Simulation.run(year, ruleset: ruleset, options: SimulationOptions(restoreEachEvent: true))) }
        print(
            "day.year.restore-each-event: \(Measure.format(restored * 1000)) ms, \(Measure.format(restored / 365 * 1e6, decimals: 0)) µs per day; ratio restored/kept \(Measure.format(restored / seconds))x"
        )
    }

    /// A year of busy days: app opens, logs, ticks, widget intents, a tool call, responses.
    static func yearScenario(ruleset: Ruleset) -> Scenario? {
        var yaml = """
            name: a generated year
            timezone: Asia/Seoul
            settings: { routine_reminder: true, reminders: { water: "11:00", study: "15:00", skincare: "22:00" }, bedtime: "23:30" }
            routines: [steps, sleep, water, study, reading, skincare, supplement, room]
            days:

            """
        let start = DateFormat.days("2026-01-01") ?? 0
        for day in 0..<365 {
            let sleep = 300 + (day * 37) % 200
            let walked = 2000 + (day * 811) % 8000
            yaml += """
                  - date: \(DateFormat.string(start + day))
                    health:
                      permission: { steps: granted, sleep: granted }
                      sleep: { start: "00:30", end: "\(String(format: "%02d:%02d", (30 + sleep) / 60, (30 + sleep) % 60))" }
                      steps: { "07:00": 0, "12:00": \(walked / 3), "19:00": \(walked * 2 / 3), "23:00": \(walked) }
                    events:
                      - { at: "07:30", app: open }
                      - { at: "07:35", check: { routine: skincare, item: 양치 } }
                      - { at: "07:36", check: { routine: skincare, item: 세수 } }
                      - { at: "07:40", widget: complete_supplement }
                      - { at: "08:00", widget: log_water_250 }
                      - { at: "09:00", app: refresh }
                      - { at: "10:00", widget: log_water_250 }
                      - { at: "11:00", notification: routine_reminder, response: opened }
                      - { at: "11:05", log: { routine: water, value: 250 } }
                      - { at: "12:00", app: open }
                      - { at: "12:30", log: { routine: study, value: 15, unit: minutes, source: timer } }
                      - { at: "13:00", widget: log_water_250 }
                      - { at: "14:00", app: refresh }
                      - { at: "15:00", notification: routine_reminder, response: ignored }
                      - { at: "15:30", log: { routine: reading, value: \(day % 3 == 0 ? 20 : 5) } }
                      - { at: "16:00", app: open }
                      - { at: "17:00", tool_call: '{"name":"log_habit_event","arguments":{"routine":"study","value":10,"unit":"minutes"}}' }
                      - { at: "18:00", app: refresh }
                      - { at: "18:30", log: { routine: room, value: 1 } }
                      - { at: "19:00", app: open }
                      - { at: "19:30", widget: log_water_250 }
                      - { at: "20:00", app: refresh }
                      - { at: "20:45", app: open }
                      - { at: "21:05", app: open }
                      - { at: "21:10", log: { routine: water, value: 300 } }
                      - { at: "21:15", check: { routine: skincare, item: 면도 } }
                      - { at: "21:20", check: { routine: skincare, item: 로션 } }
                      - { at: "21:40", app: refresh }
                      - { at: "22:10", app: open }
                      - { at: "23:00", app: open }

                """
        }
        guard let node = YAMLReader.parse(yaml, file: "year.yaml").documents.first else { return nil }
        let (scenario, diagnostics) = ScenarioLoader.load(node, file: "year.yaml", source: nil, ruleset: ruleset)
        if scenario == nil { print(diagnostics.prefix(3).map(\.message)) }
        return scenario
    }
}
