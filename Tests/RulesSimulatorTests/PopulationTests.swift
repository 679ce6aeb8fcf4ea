import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesPopulation
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// The population's parts: the documented generator, users independent of each other, a
/// tally that merges exactly, invariants counted from real traces.
@Suite struct PopulationTests {
    static let root = Fixtures.repositoryRoot()

    /// A population file's text as `p.yaml`, loaded against `ruleset`.
    static func load(_ text: String, ruleset: Ruleset) throws -> (population: Population?, diagnostics: [Diagnostic]) {
        let node = try #require(YAMLReader.parse(text, file: "p.yaml").documents.first)
        return PopulationLoader.load(node, file: "p.yaml", source: nil, ruleset: ruleset)
    }

    static func population(_ file: String = "populations/office_workers.yaml", ruleset: Ruleset) throws -> Population {
        let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
        let node = try #require(YAMLReader.parse(text, file: file).documents.first)
        let load = PopulationLoader.load(node, file: file, source: nil, ruleset: ruleset)
        return try #require(load.population, "\(load.diagnostics)")
    }

    @Test func splitMixGivesTheReferenceSequence() {
        // SplitMix64 from state 0, as published with the algorithm.
        var random = SplitMix64(state: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
        var normal = SplitMix64(state: 42)
        let draws = (0..<10_000).map { _ in normal.normal() }
        let mean = draws.reduce(0, +) / Double(draws.count)
        #expect(abs(mean) < 0.05)
        #expect(draws.allSatisfy { abs($0) <= 6 })
        #expect(SplitMix64.fnv1a("") == 0xCBF2_9CE4_8422_2325)
        #expect(SplitMix64.fnv1a("a") == 0xAF63_DC4C_8601_EC8C)
        // A request id as the engine makes them (built at run time, with Korean text), hashed
        // byte by byte as FNV-1a says.
        let id = ["routine_reminder", "물 마시기", String(repeating: "가", count: 40)].joined(separator: "-")
        var expected: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in Array(id.utf8) { expected = (expected ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        #expect(SplitMix64.fnv1a(id) == expected)
        #expect(SplitMix64.fnv1a(String(id.dropLast())) != expected)
    }

    @Test func aUserIsTheSameWhicheverUsersAreDrawnBefore() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let generator = PopulationGenerator(population: try Self.population(ruleset: ruleset), ruleset: ruleset)
        let alone = generator.user(17, days: 5)
        for number in 1...16 { _ = generator.user(number, days: 5) }
        let after = generator.user(17, days: 5)
        #expect(alone.group == after.group)
        #expect(alone.scenario.days.map { $0.events.map(\.seconds) } == after.scenario.days.map { $0.events.map(\.seconds) })
        #expect(alone.scenario.days.map(\.health) == after.scenario.days.map(\.health))
        // Events are in the logical day's order, within the day.
        for day in alone.scenario.days {
            let positions = day.events.map { ($0.seconds - 4 * 3600 + 86_400) % 86_400 }
            #expect(positions == positions.sorted())
        }
        // Another user differs.
        #expect(generator.user(18, days: 5).scenario.days.map { $0.events.map(\.seconds) } != alone.scenario.days.map { $0.events.map(\.seconds) })
    }

    /// An app run keeps the last plan when nothing it reads changed (most runs of these users
    /// log water or tick a checklist item): the records are those of fresh plans — the
    /// restored engine starts from its saved state after every event and keeps no plan.
    @Test func aKeptPlanGivesTheRecordsOfAFreshPlan() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let generator = PopulationGenerator(population: try Self.population(ruleset: ruleset), ruleset: ruleset)
        var deliveries = 0
        for number in 1...12 {
            let user = generator.user(number, days: 7)
            let plain = Simulation.run(user.scenario, ruleset: ruleset, options: SimulationOptions(responder: user.responder(ruleset: ruleset)))
            let restored = Simulation.run(
                user.scenario, ruleset: ruleset, options: SimulationOptions(restoreEachEvent: true, responder: user.responder(ruleset: ruleset)))
            let a = Trace.jsonLines(plain, ruleset: ruleset)
            let b = Trace.jsonLines(restored, ruleset: ruleset)
            if a != b {
                let first = zip(a.split(separator: "\n"), b.split(separator: "\n")).first { $0 != $1 }
                Issue.record("user \(number) differs first at:\n\(first.map { "\($0.0)\n\($0.1)" } ?? "length")")
            }
            deliveries += plain.records.count { if case .notificationDelivered = $0.kind { true } else { false } }
        }
        #expect(deliveries > 50)
    }

    /// A population's engines keep the records of decisions only: those are the records an
    /// engine keeping every record makes, in the same order, and its tally is the same —
    /// with the shipped lines (which no value makes fail: a population's engines skip them)
    /// and with a home line and a widget line whose placeholders fail on some days (chosen
    /// for their problems).
    @Test(arguments: [false, true])
    func enginesKeepingDecisionsOnlyDecideAsEnginesKeepingEveryRecord(failingLines: Bool) throws {
        let ruleset =
            failingLines
            ? try Shipped.variant([
                (
                    "templates/character.yaml", "text: 오늘 루트는 {completed}/{total} 진행 중. 다음 하나만 처리해.",
                    "text: 오늘 루트는 {completed}/{100 / (total - completed)} 진행 중."
                ),
                ("templates/character.yaml", "    when: route != \"recovery\"\n", "    when: route != \"recovery\" && 1 / completed > 0\n"),
            ])
            : try #require(Ruleset.load(directory: Self.root).ruleset)
        let generator = PopulationGenerator(population: try Self.population(ruleset: ruleset), ruleset: ruleset)
        let decisionKinds: Set<String> = [
            "notification.scheduled", "notification.cancelled", "notification.delivered", "notification.suppressed", "route.changed",
            "day.closed", "problem",
        ]
        func lines(_ result: SimulationResult) -> [String] { Trace.jsonLines(result, ruleset: ruleset).split(separator: "\n").map(String.init) }
        func kind(_ line: String) -> String {
            guard let start = line.range(of: #""kind":""#), let end = line[start.upperBound...].firstIndex(of: "\"") else { return "" }
            return String(line[start.upperBound..<end])
        }
        var kept = 0
        var problems = 0
        for number in 1...10 {
            let user = generator.user(number, days: 5)
            let every = Simulation.run(user.scenario, ruleset: ruleset, options: SimulationOptions(responder: user.responder(ruleset: ruleset)))
            let decisions = Simulation.run(
                user.scenario, ruleset: ruleset, options: SimulationOptions(responder: user.responder(ruleset: ruleset), recordsKept: .decisions))
            let expected = lines(every).filter { decisionKinds.contains(kind($0)) }
            #expect(lines(decisions) == expected, "user \(number)")
            #expect(lines(every).count > expected.count)
            kept += expected.count
            problems += expected.count { $0.contains("could not be evaluated") }
        }
        #expect(kept > 100)
        #expect(failingLines ? problems > 10 : problems == 0)
    }

    @Test func jobsAndShardsDoNotChangeTheResult() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let population = try Self.population(ruleset: ruleset)
        let one = PopulationRun.run(population, ruleset: ruleset, options: PopulationOptions(population: population, users: 24, days: 4, jobs: 1))
        let three = PopulationRun.run(population, ruleset: ruleset, options: PopulationOptions(population: population, users: 24, days: 4, jobs: 3))
        #expect(one == three)
        #expect(one.users == 24)
        #expect(one.userDays == 96)
        #expect(one.deliveriesPerUserDay.total == 96)
        // Users by their busiest day: every user counted once; "≥ n" shrinks as n grows and
        // is the share of users who ever got n in a day.
        #expect(one.busiestDay.total == 24)
        let atLeast = one.usersWithADayOfAtLeast.map(\.users)
        #expect(!atLeast.isEmpty && atLeast == atLeast.sorted(by: >) && atLeast.allSatisfy { $0 <= 24 })
        // By group: every user and user-day in exactly one group, named as the file names them.
        #expect(one.groups.values.map(\.users).reduce(0, +) == 24 && one.groups.values.map(\.userDays).reduce(0, +) == 96)
        #expect(Set(one.groups.keys).isSubset(of: Set(population.groups.map(\.name))))
        var merged = PopulationTally()
        for index in 1...4 {
            merged.merge(
                PopulationRun.run(
                    population, ruleset: ruleset,
                    options: PopulationOptions(population: population, users: 24, days: 4, jobs: 2, shard: Shard(index: index, count: 4))))
        }
        #expect(merged == one)
        #expect((1...4).map { Shard(index: $0, count: 4).size(of: 24) } == [6, 6, 6, 6])
        #expect(Shard(index: 3, count: 4).size(of: 2) == 0)
        #expect(Shard(index: 2, count: 4).size(of: 6) == 2)
        #expect(Shard("0/4") == nil && Shard("5/4") == nil && Shard("2/4") == Shard(index: 2, count: 4))
        #expect(one.delivered.values.reduce(0, +) > 0)
        #expect(one.violations == 0)
    }

    @Test func deliveriesAreAnsweredAsTheGroupAnswers() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let population = try Self.population(ruleset: ruleset)
        let options = PopulationOptions(population: population, users: 10, days: 3)
        let result = PopulationRun.replay(population, ruleset: ruleset, user: 1, options: options)
        let delivered = result.records.filter { if case .notificationDelivered = $0.kind { true } else { false } }
        let responses = result.records.filter { if case .notificationResponse = $0.kind { true } else { false } }
        #expect(!delivered.isEmpty)
        #expect(!responses.isEmpty, "user 1's group answers 40–90 % of deliveries")
        // Every answer follows its delivery on the same day.
        for record in responses {
            guard case .notificationResponse(let id, _, _) = record.kind else { continue }
            let delivery = try #require(
                delivered.first { if case .notificationDelivered(let request, _) = $0.kind { request.id == id } else { false } })
            #expect(delivery.at < record.at)
        }
    }

    @Test func histogramsGiveNearestRankQuantiles() {
        var histogram = Histogram()
        for value in 1...100 { histogram.add(value) }
        #expect(histogram.quantile(0.5) == 50)
        #expect(histogram.quantile(0.9) == 90)
        #expect(histogram.quantile(0.99) == 99)
        #expect(histogram.max == 100)
        #expect(histogram.mean == 50.5)
        var other = Histogram()
        other.add(3, count: 2)
        histogram.merge(other)
        #expect(histogram.counts[3] == 3)
        #expect(histogram.total == 102)
    }

    @Test func aPopulationFileWithMistakesGetsPositionedDiagnostics() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let text = """
            seed: 1
            users: 10
            days: 3
            start: 2026-07-06
            groups:
              - name: a
                routines: [watr]
                response: { opened: 0.7, ignored: 0.6 }
                app_opens: [{ p: 1.5, at: "8:30pm" }]
                checks: { water: 0.5 }
            """
        let load = try Self.load(text, ruleset: ruleset)
        #expect(load.population == nil)
        let messages = load.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message) | \($0.hint ?? "")" }
        #expect(messages.contains { $0.hasPrefix("7:16 no routine 'watr'") && $0.contains("did you mean 'water'?") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("8:15 opened and ignored add up to more than 1") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("9:22") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("9:31 expected a time like 20:30") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("10:15 routine 'water' has no checklist items to tick") }, "\(messages)")
    }

    @Test func groupsThatAllWeighNothingAreRefusedAtTheList() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let text = """
            seed: 1
            users: 10
            days: 3
            start: 2026-07-06
            groups:
              - { name: a, weight: 0 }
              - { name: b, weight: 0.0 }
            """
        let load = try Self.load(text, ruleset: ruleset)
        #expect(load.population == nil)
        let messages = load.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.code) \($0.message)" }
        #expect(messages == ["6:3 ruleset.out_of_range every group has weight 0, so no user can be drawn from any"])
        // One group weighing something is enough.
        let oneWeighs = text.replacingOccurrences(of: "weight: 0.0", with: "weight: 0.1")
        let kept = try Self.load(oneWeighs, ruleset: ruleset)
        #expect(kept.population?.groups.map(\.weight) == [0, 0.1], "\(kept.diagnostics)")
    }

    /// Scenarios and populations live only the days the engine lives and closes (2000-01-01
    /// to 2199-12-30; 2199-12-31 would close past the engine's last day): a day outside is a
    /// diagnostic at its date, not a run of refused events or a day that never closes.
    @Test func daysOutsideTheEngineDaysAreDiagnosedAtTheirDate() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        for (date, lived) in [
            ("1999-12-31", false), ("2000-01-01", true), ("2199-12-30", true), ("2199-12-31", false), ("2200-01-01", false), ("9999-12-31", false),
        ] {
            let text = "name: edge\ndate: \(date)\ntimezone: Asia/Seoul\nevents: [{ at: \"09:00\", app: open }]\n"
            let node = try #require(YAMLReader.parse(text, file: "s.yaml").documents.first)
            let load = ScenarioLoader.load(node, file: "s.yaml", source: nil, ruleset: ruleset)
            #expect((load.scenario != nil) == lived, "\(date): \(load.diagnostics)")
            if !lived {
                #expect(load.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.code)" } == ["2:7 scenario.invalid_date"])
                #expect(
                    load.diagnostics.first?.message.contains("outside the days a simulation can live and close (2000-01-01 to 2199-12-30") == true)
            }
        }
        for (start, days, lived) in [("2199-12-01", 30, true), ("2199-12-02", 30, false), ("1999-06-01", 3, false)] {
            let text = "seed: 1\nusers: 2\ndays: \(days)\nstart: \(start)\ngroups: [{ name: a }]\n"
            let load = try Self.load(text, ruleset: ruleset)
            #expect((load.population != nil) == lived, "\(start) + \(days): \(load.diagnostics)")
            if !lived { #expect(load.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.code)" } == ["4:8 scenario.invalid_date"]) }
        }
        let lastDays = "the last day, 2200-01-01, is outside the days a simulation can live and close"
        let text = "seed: 1\nusers: 2\ndays: 31\nstart: 2199-12-02\ngroups: [{ name: a }]\n"
        let load = try Self.load(text, ruleset: ruleset)
        #expect(load.diagnostics.first?.message.hasPrefix(lastDays) == true, "\(load.diagnostics)")
    }

    @Test func theSchemaAndTheLoaderKnowTheSameKeys() {
        #expect(Set(PopulationSchema.topKeys.map(\.key)) == Set(PopulationLoader.topKeys))
        #expect(Set(PopulationSchema.groupKeys.map(\.key)) == Set(PopulationLoader.groupKeys))
    }
}
