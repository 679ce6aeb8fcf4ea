import Foundation
import RulesDiagnostics
import RulesEngine
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// Days the simulator must get right, each a scenario under `Fixtures/days/` whose
/// expectations come from the rules of multi-day scenarios (steps and sleep samples that
/// replace the top level's, settings across days, permission that carries over, statuses
/// earned earlier that stay, completions kept at a route change, exact step interpolation,
/// manual mode, DST gaps, time-zone travel). Every expectation passes, with the engine
/// living the scenario and with its state saved and restored after every event.
@Suite struct SimulatedDaysTests {
    static let root = Fixtures.repositoryRoot()
    static let ruleset = Ruleset.load(directory: root).ruleset ?? Ruleset()
    static let folder = Fixtures.directory() + "/days"
    static let files = RulesetDirectory.yamlFiles(under: folder)

    static func scenario(_ name: String) throws -> Scenario {
        let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
        let node = try #require(YAMLReader.parse(text, file: name).documents.first)
        let load = ScenarioLoader.load(node, file: name, source: nil, ruleset: ruleset)
        return try #require(load.scenario, "\(load.diagnostics.map(\.message))")
    }

    @Test func theFolderHoldsTheCases() {
        #expect(Self.files.count >= 5)
    }

    @Test(arguments: files)
    func everyExpectationHolds(_ name: String) throws {
        let scenario = try Self.scenario(name)
        for restore in [false, true] {
            let result = Simulation.run(scenario, ruleset: Self.ruleset, options: SimulationOptions(restoreEachEvent: restore))
            let results = ExpectationChecker.check(result, ruleset: Self.ruleset)
            #expect(results.count >= 3, "\(name)")
            for failure in results where !failure.passed {
                Issue.record("\(name) \(failure.expectation.text) (restored: \(restore)): expected \(failure.expected), got \(failure.actual)")
            }
            #expect(result.problems.isEmpty, "\(name): \(result.problems.map(\.message))")
        }
    }

    @Test(arguments: files)
    func restoringAfterEveryEventChangesNothing(_ name: String) throws {
        let scenario = try Self.scenario(name)
        // Every explanation after every step, as `rules explain` and failures show them.
        var explained: [[String]] = [[], []]
        func observer(_ run: Int) -> (OperatorEngine, [EngineRecord]) -> Void {
            { engine, _ in explained[run].append(Explanation.transcript(of: engine.explanations)) }
        }
        let plain = Simulation.run(scenario, ruleset: Self.ruleset, sink: KeepingAll(observe: observer(0)))
        let restored = Simulation.run(
            scenario, ruleset: Self.ruleset, options: SimulationOptions(restoreEachEvent: true), sink: KeepingAll(observe: observer(1)))
        // Compared as values, then as printed.
        #expect(plain.records == restored.records)
        #expect(Trace.jsonLines(plain, ruleset: Self.ruleset) == Trace.jsonLines(restored, ruleset: Self.ruleset))
        // What the engine decided is explained the same by an engine restored before each step.
        #expect(explained[0].count == explained[1].count && explained[0].count > 3)
        if let step = explained[0].indices.first(where: { $0 < explained[1].count && explained[0][$0] != explained[1][$0] }) {
            Issue.record("\(name): explanations differ after step \(step):\n\(explained[0][step])\n---\n\(explained[1][step])")
        }
    }

    static func load(_ yaml: String) -> (scenario: Scenario?, diagnostics: [Diagnostic]) {
        guard let node = YAMLReader.parse(yaml, file: "inline.yaml").documents.first else { return (nil, []) }
        return ScenarioLoader.load(node, file: "inline.yaml", source: nil, ruleset: ruleset)
    }

    /// The gap event is named with the time it happens at and the events it now follows;
    /// an existing time next to it is not reported.
    @Test func aTimeTheClocksSkipIsAWarningNamingWhenItHappens() throws {
        let (scenario, diagnostics) = Self.load(try String(contentsOfFile: Self.folder + "/dst_gap.yaml", encoding: .utf8))
        #expect(scenario != nil)
        #expect(diagnostics.map(\.code.rawValue) == ["scenario.dst_gap"])
        #expect(diagnostics.first?.severity == .warning)
        #expect(diagnostics.first?.location.line == 10)
        #expect(diagnostics.first?.message.contains("02:59") == true)
        #expect(diagnostics.first?.message.contains("it happens at 03:59, after the events at 03:10, 03:20") == true)
        let seoul = Self.load("name: d\ntimezone: Asia/Seoul\ndate: 2026-03-08\nevents: [{ at: \"02:30\", app: open }]\n")
        #expect(seoul.diagnostics.isEmpty)
    }

    /// The engine lives days up to 2199-12-31, and a day closes at the next one's start: a
    /// scenario's last day must be one it can close.
    @Test func aDayTheEngineCannotCloseIsAnError() {
        let last = Self.load("name: d\ntimezone: Asia/Seoul\ndate: 2199-12-31\nevents: [{ at: \"09:00\", app: open }]\n")
        #expect(last.scenario == nil)
        #expect(last.diagnostics.map(\.code.rawValue) == ["scenario.invalid_date"])
        #expect(last.diagnostics.first?.message.contains("2000-01-01 to 2199-12-30") == true)
        let before = Self.load("name: d\ntimezone: Asia/Seoul\ndate: 2199-12-30\nevents: [{ at: \"09:00\", app: open }]\n")
        let scenario = before.scenario
        #expect(scenario != nil)
        if let scenario {
            #expect(Simulation.run(scenario, ruleset: Self.ruleset).closedDays.count == 1)
        }
    }

    /// The trace of a trip: times after the change carry the new zone's offset, the change
    /// is a record of its own followed by an app run that plans again, and the day closes at
    /// 04:00 of the new zone.
    @Test func aTripShowsTheNewZoneInTheTrace() throws {
        let paris = Trace.jsonLines(Simulation.run(try Self.scenario("travel_paris.yaml"), ruleset: Self.ruleset), ruleset: Self.ruleset)
        #expect(paris.contains(#"{"at":"2026-07-06T08:00:00+02:00","kind":"timezone.changed","from":"Asia/Seoul","to":"Europe/Paris"}"#))
        #expect(paris.contains(#"{"at":"2026-07-06T08:00:00+02:00","kind":"app.run","cause":"timezone","synced":false}"#))
        #expect(paris.contains(#""at":"2026-07-06T20:30:00+02:00","kind":"notification.delivered""#))
        #expect(paris.contains(#"{"at":"2026-07-07T04:00:00+02:00","kind":"day.closed","date":"2026-07-06""#))
        let losAngeles = Trace.jsonLines(
            Simulation.run(try Self.scenario("travel_los_angeles.yaml"), ruleset: Self.ruleset), ruleset: Self.ruleset)
        #expect(losAngeles.contains(#"{"at":"2026-07-07T04:00:00-07:00","kind":"day.closed","date":"2026-07-06""#))
        // Eastward past the day's end: the day closes first, at the change (in the zone it
        // closed in), then the zone changes and the app plans in Seoul.
        let east = Trace.jsonLines(Simulation.run(try Self.scenario("travel_east.yaml"), ruleset: Self.ruleset), ruleset: Self.ruleset)
        #expect(east.contains(#"{"at":"2026-07-06T14:00:00-07:00","kind":"day.closed","date":"2026-07-06""#))
        let kinds = east.split(separator: "\n").filter { $0.contains("2026-07-07T06:00:00+09:00") }.map { line in
            line.components(separatedBy: #""kind":""#).last?.prefix { $0 != "\"" } ?? ""
        }
        #expect(kinds.prefix(2) == ["timezone.changed", "app.run"])
    }

    /// An unknown zone name is a scenario error at the name.
    /// (The system makes zones of GMT+15, UTC+14 and Factory too: none is a place anyone lives.)
    @Test(arguments: ["Mars/Olympus", "GMT+15", "UTC+14", "Factory", "Etc/GMT+13", "Etc/GMT-15", "Etc/GMT+05"])
    func anUnknownZoneIsAnError(zone: String) {
        let load = Self.load("name: d\ntimezone: Asia/Seoul\ndate: 2026-07-06\nevents: [{ at: \"09:00\", timezone: \(zone) }]\n")
        #expect(load.scenario == nil, "\(zone)")
        #expect(load.diagnostics.map(\.code.rawValue) == ["scenario.unknown_timezone"], "\(zone)")
        #expect(load.diagnostics.first?.hint?.contains("Etc/GMT-14") == true)
        let top = Self.load("name: d\ntimezone: \(zone)\ndate: 2026-07-06\nevents: [{ at: \"09:00\", app: open }]\n")
        #expect(top.scenario == nil, "\(zone)")
    }

    @Test(arguments: ["Asia/Seoul", "UTC", "GMT", "Etc/UTC", "Etc/GMT-14", "Etc/GMT+12", "Pacific/Kiritimati", "America/Argentina/Buenos_Aires"])
    func aRealZoneIsAccepted(zone: String) {
        #expect(LocalClock(identifier: zone) != nil, "\(zone)")
    }

    /// A log value past what the engine accepts (1,000,000) is a load error at the value, not
    /// a run of refused events.
    @Test func aLogValuePastTheLimitIsRefusedAtLoad() {
        let load = Self.load(
            "name: d\ntimezone: Asia/Seoul\ndate: 2026-07-06\nevents: [{ at: \"09:00\", log: { routine: water, value: 1000001 } }]\n")
        #expect(load.scenario == nil)
        #expect(load.diagnostics.map(\.code.rawValue) == ["ruleset.out_of_range"])
        let fine = Self.load(
            "name: d\ntimezone: Asia/Seoul\ndate: 2026-07-06\nevents: [{ at: \"09:00\", log: { routine: water, value: 1000000 } }]\n")
        #expect(fine.scenario != nil)
    }

    /// `rules test` checks each day's expectations when the day has closed and forgets the
    /// day: the outcomes are those of checking the whole run at once, for the cases here and
    /// every shipped scenario.
    @Test func checkingDayByDayGivesTheWholeRunsOutcomes() throws {
        var compared = 0
        let shipped = RulesetDirectory.yamlFiles(under: Self.root + "/scenarios").map { Self.root + "/scenarios/" + $0 }
        for path in Self.files.map({ Self.folder + "/" + $0 }) + shipped {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let node = try #require(YAMLReader.parse(text, file: path).documents.first)
            let scenario = try #require(ScenarioLoader.load(node, file: path, source: nil, ruleset: Self.ruleset).scenario)
            let whole = ExpectationChecker.check(Simulation.run(scenario, ruleset: Self.ruleset), ruleset: Self.ruleset)
            var byDay: [ExpectationResult] = []
            _ = Simulation.run(
                scenario, ruleset: Self.ruleset,
                sink: KeepingForExpectations(dayDone: { byDay += ExpectationChecker.check($0, ruleset: Self.ruleset) }))
            #expect(byDay.map(\.passed) == whole.map(\.passed), "\(path)")
            #expect(byDay.map(\.actual) == whole.map(\.actual), "\(path)")
            #expect(byDay.map(\.expectation.text) == whole.map(\.expectation.text), "\(path)")
            compared += whole.count
        }
        #expect(compared > 200)
    }
}
