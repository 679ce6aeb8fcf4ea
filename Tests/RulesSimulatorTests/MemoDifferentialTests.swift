import Foundation
import RulesExpression
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import Testing

@testable import RulesEngine

/// What the engine memoises is keyed by everything it was made from: for rulesets whose
/// `at:` and `when:` read `now`, steps, sleep, settings, logs and the weekday, every shipped scenario gives
/// the same records with the memos on, with the verification switch off (everything
/// recomputed at every run) and with the state restored into a fresh engine after every event.
@Suite struct MemoDifferentialTests {
    /// One notification type added to the shipped rules per variant.
    static let variants: [(name: String, rule: String)] = [
        ("now", "at: now + 2h\n    when: completion_rate < 0.6"),
        ("steps in at", "at: \"steps.today > 2000 ? 12:00 : 18:00\""),
        ("sleep in when", "at: \"16:00\"\n    when: (sleep.minutes ?? 420) < 400 || now >= 16:00"),
        ("settings in at", "at: \"(settings.bedtime ?? 22:00) - 3h\""),
        ("logs in when", "at: \"19:00\"\n    when: routines.water.value < 1000 && steps.today < 5000"),
        ("logs in at", "at: \"routines.water.value > 600 ? now + 1h : 21:00\""),
        // A date fact read: tomorrow's plan is made afresh each day, never moved from the last.
        ("weekday in when", "at: \"10:30\"\n    when: weekday != \"sun\" && completion_rate < 0.9"),
    ]

    static func ruleset(_ rule: String) throws -> Ruleset {
        try Shipped.variant([
            (
                "rules/notifications.yaml", "  - id: bedtime",
                "  - id: dynamic_nudge\n    category: nudge\n    \(rule)\n    template: checkin_ready\n    deep_link: app://route/today\n\n  - id: bedtime"
            )
        ])
    }

    static var scenarioFiles: [String] { RulesetDirectory.yamlFiles(under: Shipped.root + "/scenarios") }

    @Test(arguments: variants.map(\.name))
    func memosRecomputedAndRestoredGiveTheSameRecords(_ name: String) throws {
        let rule = try #require(Self.variants.first { $0.name == name }).rule
        let ruleset = try Self.ruleset(rule)
        var nudges = 0
        for file in Self.scenarioFiles {
            let text = try String(contentsOfFile: Shipped.root + "/scenarios/" + file, encoding: .utf8)
            let node = try #require(YAMLReader.parse(text, file: file).documents.first)
            let scenario = try #require(ScenarioLoader.load(node, file: file, source: nil, ruleset: ruleset).scenario, "\(file)")
            // Every explanation after every step, too: a kept plan or line explains itself as
            // a fresh one would.
            var explained: [[String]] = [[], [], []]
            func observer(_ run: Int) -> (OperatorEngine, [EngineRecord]) -> Void {
                { engine, _ in explained[run].append(Explanation.transcript(of: engine.explanations)) }
            }
            let runs = [
                Simulation.run(scenario, ruleset: ruleset, sink: KeepingAll(observe: observer(0))),
                Simulation.run(
                    scenario, ruleset: ruleset, options: SimulationOptions(verification: .recomputed), sink: KeepingAll(observe: observer(1))),
                Simulation.run(
                    scenario, ruleset: ruleset, options: SimulationOptions(restoreEachEvent: true), sink: KeepingAll(observe: observer(2))),
            ]
            for (other, how) in [(1, "with the memos off"), (2, "restored after every event")] {
                #expect(explained[0].count == explained[other].count, "\(name): \(file) \(how)")
                guard let step = explained[0].indices.first(where: { $0 < explained[other].count && explained[0][$0] != explained[other][$0] }) else {
                    continue
                }
                let lines = (explained[0][step].split(separator: "\n"), explained[other][step].split(separator: "\n"))
                let first =
                    zip(lines.0, lines.1).first { $0 != $1 }.map { "\($0.0)\n\($0.1)" } ?? "\(lines.0.count) against \(lines.1.count) explanations"
                Issue.record("\(name): \(file) explains otherwise \(how) after step \(step):\n\(first)")
            }
            // The comparing switch finds nothing either, step by step, and changes nothing —
            // also without explanations, as populations run (a plan kept after its requests
            // were delivered is kept only then).
            for explains in [true, false] {
                let compared = Simulation.run(scenario, ruleset: ruleset, options: SimulationOptions(verification: .compared, explains: explains))
                #expect(!compared.records.contains(where: MemoSpoilingTests.isMismatch), "\(name): \(file) compared, explains \(explains)")
                #expect(compared.records == runs[0].records, "\(name): \(file) compared, explains \(explains)")
            }
            // Records compared as values, then as printed.
            #expect(runs[0].records == runs[1].records, "\(name): \(file) differs with the memos off")
            #expect(runs[0].records == runs[2].records, "\(name): \(file) differs restored after every event")
            let plain = Trace.jsonLines(runs[0], ruleset: ruleset)
            #expect(plain == Trace.jsonLines(runs[1], ruleset: ruleset) && plain == Trace.jsonLines(runs[2], ruleset: ruleset), "\(name): \(file)")
            nudges += plain.components(separatedBy: #""kind":"notification.scheduled","notification":{"id":"dynamic_nudge"#).count - 1
        }
        // The variant is alive: its type is planned somewhere.
        #expect(nudges > 0, "\(name)")
    }
}

extension OperatorEngine {
    /// Spoils every kept line's text (what a defect in a memo's key would do), for the test
    /// that the comparing switch finds it; returns how many lines were kept. Here, not on the
    /// engine: the app's type carries no hook for tests.
    mutating func spoilKeptLines() -> Int {
        for index in memos.lines.indices { memos.lines[index].value.line?.text += " (spoiled)" }
        return memos.lines.count { $0.value.line != nil }
    }
}

/// The comparing switch is not a switch that cannot fire: a kept line spoiled by hand is
/// found at the next step that reuses it, as a problem record naming the record that differs.
@Suite struct MemoSpoilingTests {
    static func isMismatch(_ record: EngineRecord) -> Bool {
        if case .problem(.memoMismatch, _) = record.kind { return true }
        return false
    }

    @Test func aSpoiledMemoIsAProblemUnderTheComparingSwitch() throws {
        let clock = try #require(LocalClock(identifier: "Asia/Seoul"))
        let day = try #require(DateFormat.days("2026-07-20"))
        func at(_ hour: Int) -> Date { clock.instant(day: day, seconds: hour * 3600) }
        for verification in [Verification.memoised, .compared] {
            var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: clock)
            _ = verification.run(&engine, [.appOpened(health: nil)], now: at(8))
            #expect(engine.spoilKeptLines() > 0, "the first run kept its lines")
            let records = verification.run(&engine, [.appOpened(health: nil)], now: at(8)).records
            let mismatches = records.filter(Self.isMismatch)
            if verification == .compared {
                #expect(mismatches.count == 1)
                if case .problem(_, let message)? = mismatches.first?.kind {
                    #expect(message.contains("kept memos changed what the step decided: record"), "\(message)")
                }
            } else {
                // Memoised alone, the spoiled line is shown: nothing compares.
                #expect(mismatches.isEmpty)
                #expect(engine.snapshot?.characterLine.contains("spoiled") == true)
            }
        }
    }
}

/// The check of the switch on synthetic users (`Benchmarks memo-check`) finds a world it
/// knows is wrong: another user's records, another state, a mismatch the comparing run found.
@Suite struct SwitchDifferenceTests {
    @Test func aWrongWorldIsFound() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Shipped.root + "/scenarios").filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 2)
        func lived(_ file: String, _ verification: Verification) throws -> SimulationResult {
            let text = try String(contentsOfFile: Shipped.root + "/scenarios/" + file, encoding: .utf8)
            let node = try #require(YAMLReader.parse(text, file: file).documents.first)
            let scenario = try #require(ScenarioLoader.load(node, file: file, source: nil, ruleset: Shipped.ruleset).scenario, "\(file)")
            return Simulation.run(scenario, ruleset: Shipped.ruleset, options: SimulationOptions(verification: verification))
        }
        let (a, b) = (try lived(files[0], .memoised), try lived(files[1], .memoised))
        #expect(a.switchDifference(recomputed: try lived(files[0], .recomputed), compared: try lived(files[0], .compared)) == nil)
        #expect(a.switchDifference(recomputed: b, compared: a)?.hasPrefix("recomputed records differ") == true)
        #expect(a.switchDifference(recomputed: a, compared: b)?.hasPrefix("compared records differ") == true)
        var mismatched = a
        mismatched.records.append(EngineRecord(at: Date(timeIntervalSince1970: 0), kind: .problem(code: .memoMismatch, message: "spoiled")))
        #expect(a.switchDifference(recomputed: a, compared: mismatched)?.hasPrefix("the comparing run found a difference") == true)
        var moved = a
        moved.engine = b.engine
        #expect(a.switchDifference(recomputed: moved, compared: a) == "recomputed state to save differs from the memoised run's")
    }
}
