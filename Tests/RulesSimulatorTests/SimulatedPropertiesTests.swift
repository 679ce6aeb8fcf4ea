import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import Testing

/// Properties of whole simulated days — generated days by the thousand, every shipped
/// scenario, a scenario's own reading of times and defaults — which need the simulator's
/// scenarios and device model (the engine's own behaviour is pinned with days built from
/// Swift values in RulesEngineTests).

/// `--restore-each-event` over a thousand generated days: the state goes to JSON and back
/// into a fresh engine after every event and delivery, and the trace does not change.
@Suite struct RestoreEachEventTests {
    @Test func aThousandGeneratedDaysGiveTheSameTraceWhenRestoredAfterEveryEventOrRecomputed() throws {
        var g = GeneratedDays.Generator(state: 11)
        var days = 0
        var events = 0
        for block in 0..<20 {
            let yaml = GeneratedDays.scenario(&g, first: DateFormat.string(DateFormat.days("2026-03-01")! + block * 50), count: 50)
            let scenario = try #require(Shipped.scenario(yaml))
            let plain = Simulation.run(scenario, ruleset: Shipped.ruleset)
            let restored = Simulation.run(scenario, ruleset: Shipped.ruleset, options: SimulationOptions(restoreEachEvent: true))
            let restoreProblems = restored.problems.filter { $0.message.hasPrefix("state.restore") }
            #expect(restoreProblems.isEmpty, "\(restoreProblems.map(\.message).prefix(3))")
            // And with the verification switch: every memo recomputed at every run.
            let recomputed = Simulation.run(scenario, ruleset: Shipped.ruleset, options: SimulationOptions(verification: .recomputed))
            // One block in four also with the comparing switch: no step's memos change anything.
            if block % 4 == 0 {
                let compared = Simulation.run(scenario, ruleset: Shipped.ruleset, options: SimulationOptions(verification: .compared))
                let mismatches = compared.records.filter { record in
                    if case .problem(.memoMismatch, _) = record.kind { return true }
                    return false
                }
                #expect(mismatches.isEmpty, "block \(block): \(mismatches.prefix(2))")
                #expect(compared.records == plain.records, "block \(block) compared")
            }
            let a = Trace.jsonLines(plain, ruleset: Shipped.ruleset)
            for (what, other) in [("restored", restored), ("recomputed", recomputed)] {
                let b = Trace.jsonLines(other, ruleset: Shipped.ruleset)
                if a != b {
                    let first = zip(a.split(separator: "\n"), b.split(separator: "\n")).first { $0 != $1 }
                    Issue.record("block \(block) \(what) differs first at:\n\(first.map { "\($0.0)\n\($0.1)" } ?? "length")")
                }
            }
            days += restored.closedDays.count
            events += scenario.days.reduce(0) { $0 + $1.events.count }
        }
        #expect(days >= 1_000)
        #expect(events >= 5_000)
    }
}

/// Effects and records are values that go to JSON and back unchanged, over every record
/// the shipped scenarios make.
@Suite struct ScenarioRecordsValueTests {
    @Test func everyShippedScenariosRecordsRoundTripThroughJSON() throws {
        let ruleset = Shipped.ruleset
        var kinds = Set<String>()
        for file in RulesetDirectory.yamlFiles(under: Shipped.root + "/scenarios") {
            let text = try String(contentsOfFile: Shipped.root + "/scenarios/" + file, encoding: .utf8)
            let node = try #require(YAMLReader.parse(text, file: file).documents.first)
            let scenario = try #require(ScenarioLoader.load(node, file: file, source: nil, ruleset: ruleset).scenario, "\(file)")
            let records = Simulation.run(scenario, ruleset: ruleset).records
            kinds.formUnion(records.map(\.kind.name))
            let data = try JSONEncoder().encode(records)
            #expect(try JSONDecoder().decode([EngineRecord].self, from: data) == records, "\(file)")
            let effects = Effects(records: records)
            #expect(try JSONDecoder().decode(Effects.self, from: try JSONEncoder().encode(effects)) == effects, "\(file)")
        }
        // The scenarios reach most kinds of record (so the round trip covers their payloads).
        #expect(kinds.count >= 15, "\(kinds.sorted())")
    }
}

/// Privacy as correctness: across generated days, nothing sensitive reaches a lock-screen
/// or widget text, no day delivers more than the cap, nothing but bedtime arrives in quiet
/// hours.
@Suite struct GeneratedDaysRedactionTests {
    typealias Generator = GeneratedDays.Generator
    static let sensitiveWords = ["수면", "잠", "영양제", "우울", "불안", "무기력", "복용"]

    func generatedDay(_ g: inout Generator, date: String) -> String { GeneratedDays.day(&g, date: date) }

    @Test func noSensitiveValueOnLockScreenOrWidgetAcrossGeneratedDays() throws {
        var g = Generator(state: 2026)
        let ruleset = Shipped.ruleset
        let quiet = ruleset.policy.quietHours
        var days = 0
        for block in 0..<20 {
            var yaml =
                "name: generated\ntimezone: Asia/Seoul\nroutines: [steps, sleep, water, study, reading, practice, skincare, exercise, supplement, room]\ndays:\n"
            for day in 0..<50 {
                let date = DateFormat.string(DateFormat.days("2026-01-01")! + block * 50 + day)
                yaml += generatedDay(&g, date: date) + "\n"
            }
            let result = try #require(Shipped.run(yaml))
            days += result.closedDays.count
            var perDay: [Int: Int] = [:]
            for record in result.records {
                var texts: [String] = []
                switch record.kind {
                case .notificationDelivered(let n, _):
                    texts = [n.text] + (n.title.map { [$0] } ?? [])
                    perDay[n.day, default: 0] += 1
                    let seconds = result.scenario.clock.local(record.at).seconds
                    if n.type != "bedtime", let quiet, ruleset.policy.isQuiet(seconds) {
                        Issue.record("\(n.id) delivered in quiet hours \(quiet) at \(TimeFormat.clock(seconds))")
                    }
                case .notificationScheduled(let n): texts = [n.text]
                case .templateRendered(let text) where text.surface != "home" && text.surface != "chat": texts = [text.text]
                case .snapshot(let snapshot): texts = snapshot.widgetLine.map { [$0.text] } ?? []
                default: break
                }
                for text in texts {
                    for word in Self.sensitiveWords where text.contains(word) { Issue.record("'\(word)' on a forbidden surface: \(text)") }
                    if text.range(of: #"\d+h \d+m|\d+시간|\d+분"#, options: .regularExpression) != nil {
                        Issue.record("a duration on a forbidden surface: \(text)")
                    }
                }
            }
            for (day, count) in perDay where count > ruleset.policy.maxPerDay { Issue.record("day \(day) delivered \(count)") }
        }
        #expect(days >= 1000)
    }
}

/// In a multi-day scenario, top-level `health:` and `settings:` are every day's defaults,
/// which a day's own keys override key by key.
@Suite struct ScenarioDefaultsTests {
    @Test func topLevelHealthAndSettingsHoldOnEveryDay() throws {
        let result = try #require(
            Shipped.run(
                """
                name: defaults
                timezone: Asia/Seoul
                routines: [steps, water]
                settings: { morning_checkin: false }
                health:
                  permission: { steps: granted }
                  steps: { "07:00": 0, "12:00": 6000 }
                days:
                  - date: 2026-07-20
                    events: [{ at: "13:00", app: open }]
                  - date: 2026-07-21
                    events: [{ at: "13:00", app: open }]
                  - date: 2026-07-22
                    health: { steps: { "07:00": 0, "12:00": 100 } }
                    events: [{ at: "13:00", app: open }]
                """))
        let steps = result.records.compactMap { record -> Int? in
            if case .sync(let health?) = record.kind { return health.stepsToday }
            return nil
        }
        #expect(steps == [6000, 6000, 100])
        #expect(!result.records.contains { if case .notificationDelivered(let n, _) = $0.kind { n.type == "morning_checkin" } else { false } })
    }
}

/// A scenario's event at a wall time a DST change skips happens with the next one, in file
/// order.
@Suite struct ScenarioDaylightSavingTests {
    @Test func anEventAtANonexistentTimeIsNotOutOfOrderWithTheNextOne() throws {
        let result = try #require(
            Shipped.run(
                """
                name: gap between events
                timezone: America/New_York
                settings: { day_starts_at: "00:00" }
                date: 2026-03-08
                routines: [water]
                events:
                  - { at: "02:30", app: open }
                  - { at: "03:00", log: { routine: water, value: 250 } }
                """))
        #expect(result.problems.isEmpty, "\(result.problems.map(\.message))")
        #expect(result.engine.habitLogs.count == 1 || result.closedDays.count == 1)
        #expect(result.records.contains { if case .log = $0.kind { true } else { false } })
    }
}

/// A day whose expression failed to evaluate fails `rules test` through the day's implied
/// `problems: 0`, whatever else it expects.
@Suite struct EvaluationProblemExpectationTests {
    @Test func aDayWithAnEvaluationProblemFailsItsImpliedExpectation() throws {
        let overflowing = try Shipped.variant([
            (
                "templates/character.yaml", "text: 오늘 루트는 {completed}/{total} 진행 중. 다음 하나만 처리해.",
                "text: 오늘 루트는 {(completed + 1) * 9000000000000000000 * 9000000000000000000}/{total} 진행 중."
            )
        ])
        let result = try #require(
            Shipped.run(
                """
                name: overflow
                date: 2026-07-20
                timezone: Asia/Seoul
                routines: [water]
                events: [{ at: "08:00", app: open }]
                """, ruleset: overflowing))
        let failures = ExpectationChecker.check(result, ruleset: overflowing).filter { !$0.passed }
        #expect(failures.map(\.expectation.text) == ["{ problems: 0 } (implied)"])
    }
}

/// Boundaries that need a scenario's own reading (its expectations, its seed day) or the
/// device model (real health data at a delivery).
@Suite struct ScenarioBoundaryTests {
    func day(
        _ events: String, settings: String = "{ morning_checkin: false }", routines: String = "[water, study, skincare]", health: String = ""
    ) -> String {
        """
        name: boundary
        date: 2026-07-20
        timezone: Asia/Seoul
        settings: \(settings)
        routines: \(routines)
        \(health)
        events:
        \(events)
        """
    }

    @Test func aScenarioCanMoveDayStartsAt() throws {
        let result = try #require(
            Shipped.run(
                """
                name: late starter
                timezone: Asia/Seoul
                settings: { day_starts_at: "06:00" }
                days:
                  - date: 2026-07-20
                    events: [{ at: "08:00", app: open }, { at: "05:30", app: open }]
                    expect: [{ snapshot_at: "05:30", date: "2026-07-20" }]
                  - date: 2026-07-21
                    events: [{ at: "06:00", app: open }]
                    expect: [{ snapshot_at: "06:00", date: "2026-07-21" }]
                """))
        #expect(result.dayStart == 6 * 3600)
        let closed = result.records.first { if case .dayClosed = $0.kind { true } else { false } }
        #expect(closed.map { result.scenario.clock.iso8601($0.at) } == "2026-07-21T06:00:00+09:00")
        let outcomes = ExpectationChecker.check(result, ruleset: Shipped.ruleset)
        #expect(outcomes.count == 2)
        #expect(outcomes.allSatisfy { $0.passed }, "\(outcomes.map { "\($0.expected) / \($0.actual)" })")
    }

    @Test func aDeliveryWhoseConditionWentFalseIsMarkedStale() throws {
        // Planned at 20:00 with 1,000 steps (0 %); by 20:30 the real steps pass the goal.
        let result = try #require(
            Shipped.run(
                day(
                    "  - { at: \"20:00\", app: open }", routines: "[steps]",
                    health: "health: { permission: { steps: granted }, steps: { \"08:00\": 0, \"20:00\": 1000, \"20:20\": 7000 } }")))
        let evening = result.records.compactMap { record -> Bool? in
            if case .notificationDelivered(let n, let stale) = record.kind, n.type == "evening_underachievement" { return stale }
            return nil
        }
        #expect(evening == [true])
    }

    @Test func theSeedsCollapsedDayGivesTheSeedsSnapshot() throws {
        let yaml = try String(contentsOfFile: Shipped.root + "/scenarios/collapsed_day.yaml", encoding: .utf8)
        let scenario = try #require(Shipped.scenario(yaml))
        let result = Simulation.run(scenario, ruleset: Shipped.ruleset, options: SimulationOptions(stop: (0, 21 * 3600 + 10 * 60)))
        let snapshot = try #require(result.engine.snapshot)
        let json = snapshot.json(clock: scenario.clock)
        guard case .object(var fields) = json else {
            Issue.record("the snapshot is not a JSON object: \(json.rendered())")
            return
        }
        fields.removeAll { $0.0 == "quest" }
        #expect(
            JSONValue.object(fields).rendered()
                == #"{"date":"2026-06-29","steps_today":3240,"steps_goal":6000,"sleep_minutes":330,"water_ml":500,"water_goal_ml":1500,"completed_routines":4,"total_routines":8,"today_completion_rate":0.5,"active_route_type":"recovery","risk_level":"medium","character_line":"전부 하려다 망하지 말고, 세 개만 살리자.","last_updated_at":"2026-06-29T21:10:00+09:00"}"#
        )
        #expect(snapshot.quest?.startSteps == 3240)
        #expect(snapshot.quest?.targetDelta == 300)
        #expect(snapshot.quest?.clearSteps == 3540)
        let route = try #require(result.engine.routeState)
        #expect(route.reason == "completion_rate_below_threshold")
        #expect(route.items.map(\.routine) == ["water", "skincare", "steps"])
    }
}
