import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesPopulation
import RulesSimulator
import RulesYAML
import Ruleset
import ShippedRuleset
import TestSupport
import Testing

/// Users who answer the operator: acts, wearing off, fatigue, opt-outs, and the trial that
/// measures them — checked against planted answers over several seeds.
@Suite struct PopulationAnswersTests {
    static let root = Fixtures.repositoryRoot()

    /// A population of one group that opens the app at 08:00 and never logs its supplement:
    /// the 09:00 check-in asks for it, and `acts` says how often that works.
    static func trial(seed: Int, acts: String, users: Int = 100, days: Int = 10) -> String {
        """
        name: trial
        seed: \(seed)
        users: \(users)
        days: \(days)
        start: 2026-07-06
        timezone: Asia/Seoul
        groups:
          - name: planted
            routines: [water, supplement]
            app_opens:
              - { p: 1, at: "08:00", sd: 0 }
            response: { opened: 0, ignored: 0 }
        \(acts)
        """
    }

    static func run(_ text: String, ruleset: Ruleset, randomize: Double = 0, jobs: Int = 1, shard: Shard = .whole) throws -> PopulationTally {
        let population = try PopulationTests.load(text, ruleset: ruleset)
        let loaded = try #require(population.population, "\(population.diagnostics)")
        var options = PopulationOptions(population: loaded, jobs: jobs, shard: shard)
        options.randomize = randomize
        return PopulationRun.run(loaded, ruleset: ruleset, options: options)
    }

    static func covers(_ effect: ClusteredDifference?, _ value: Double) -> Bool {
        guard let estimate = effect?.estimate else { return false }
        return estimate.low <= value && value <= estimate.high
    }

    /// A planted act probability of 0.25 (no wearing off), half the deliveries withheld: the
    /// 95 % interval covers 0.25 in at least 18 of 20 seeds; with no acts it covers 0.
    @Test(arguments: [(0.25, "    acts:\n      morning_checkin: { p: 0.25, within: 30m, does: [supplement] }"), (0.0, "")])
    func theTrialRecoversAPlantedEffect(planted: (Double, String)) throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        var covered = 0
        for seed in 1...20 {
            let tally = try Self.run(Self.trial(seed: seed, acts: planted.1), ruleset: ruleset, randomize: 0.5)
            let effect = tally.answers?.effects["morning_checkin"]
            #expect((effect?.n1 ?? 0) > 200 && (effect?.n0 ?? 0) > 200, "seed \(seed): \(String(describing: effect))")
            if Self.covers(effect, planted.0) { covered += 1 }
        }
        #expect(covered >= 18, "covered \(planted.0) in \(covered) of 20 seeds")
    }

    /// With a half-life the effect falls across the deliveries a user has had.
    @Test func aHalfLifeWearsTheEffectOff() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let acts = "    acts:\n      morning_checkin: { p: 0.8, within: 30m, does: [supplement] }\n      half_life: 6"
        let tally = try Self.run(Self.trial(seed: 3, acts: acts, users: 150, days: 28), ruleset: ruleset, randomize: 0.5, jobs: 2)
        let bins = try #require(tally.answers?.effectsByDeliveries["morning_checkin"])
        let estimates = AnswersTally.bins.compactMap { bins[$0]?.estimate?.difference }
        #expect(estimates.count >= 3, "\(bins)")
        #expect(zip(estimates, estimates.dropFirst()).allSatisfy { $0 > $1 }, "falls: \(estimates)")
        #expect((estimates.first ?? 0) > 0.5 && (estimates.last ?? 1) < 0.3, "\(estimates)")
    }

    /// Acts, fatigue and opt-outs on the shipped office workers: results are the same for any
    /// number of jobs and for merged shards, and a population without them is as it was.
    @Test func jobsAndShardsGiveTheSameAnswers() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let text = try String(contentsOfFile: Self.root + "/populations/office_workers.yaml", encoding: .utf8)
            .replacingOccurrences(of: "users: 10000", with: "users: 60").replacingOccurrences(of: "days: 28", with: "days: 7")
        let one = try Self.run(text, ruleset: ruleset, randomize: 0.3, jobs: 1)
        let two = try Self.run(text, ruleset: ruleset, randomize: 0.3, jobs: 2)
        #expect(one == two)
        var merged = PopulationTally()
        for k in 1...3 { merged.merge(try Self.run(text, ruleset: ruleset, randomize: 0.3, shard: Shard(index: k, count: 3))) }
        #expect(merged == one)
        let answers = try #require(one.answers)
        #expect(answers.acted.values.reduce(0, +) > 0, "the shipped population acts")
        #expect(answers.withheld.values.reduce(0, +) > 0)
    }

    /// One synthetic user with acts lives the same records plainly, with the state restored
    /// after every event, and with every memo recomputed.
    @Test func aUserWithActsIsTheSameRestoredAndWithoutMemos() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let population = try PopulationTests.population(ruleset: ruleset)
        let generator = PopulationGenerator(population: population, ruleset: ruleset)
        var acted = 0
        for number in 1...8 {
            let user = generator.user(number, days: 5)
            func lines(_ options: SimulationOptions) -> String {
                Trace.jsonLines(Simulation.run(user.scenario, ruleset: ruleset, options: options), ruleset: ruleset)
            }
            let plain = lines(SimulationOptions(responder: user.responder(ruleset: ruleset, randomize: 0.2)))
            #expect(
                plain == lines(SimulationOptions(restoreEachEvent: true, responder: user.responder(ruleset: ruleset, randomize: 0.2))),
                "user \(number)")
            #expect(
                plain == lines(SimulationOptions(responder: user.responder(ruleset: ruleset, randomize: 0.2), verification: .recomputed)),
                "user \(number)")
            acted += plain.components(separatedBy: "\"source\":\"manual\"").count - 1
        }
        #expect(acted > 0)
    }

    /// Switching a type off is a settings change the engine sees: the plan stops planning it.
    @Test func anOptOutIsASettingsChangeAndThePlanFollows() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let text = Self.trial(seed: 5, acts: "    opt_out: { type: 1 }", users: 4, days: 5).replacingOccurrences(
            of: "response: { opened: 0, ignored: 0 }", with: "response: { opened: 0, ignored: 1 }")
        let loaded = try #require(try PopulationTests.load(text, ruleset: ruleset).population)
        let user = PopulationGenerator(population: loaded, ruleset: ruleset).user(1, days: 5)
        let result = Simulation.run(user.scenario, ruleset: ruleset, options: SimulationOptions(responder: user.responder(ruleset: ruleset)))
        let changed = result.records.filter { if case .settingsChanged(let values) = $0.kind { values["morning_checkin"] != nil } else { false } }
        #expect(!changed.isEmpty, "the ignored check-in was switched off")
        let after = try #require(changed.first?.at)
        // The ignore that led to it reached the engine first (it counts toward weakening).
        let ignored = result.records.contains { record in
            guard record.at <= after, case .notificationResponse(_, let type, let response) = record.kind else { return false }
            return type == "morning_checkin" && response == "ignored"
        }
        #expect(ignored, "the ignore is answered before the type is switched off")
        let later = result.records.filter { record in
            guard record.at > after.addingTimeInterval(86_400) else { return false }
            if case .notificationDelivered(let n, _) = record.kind { return n.type == "morning_checkin" }
            return false
        }
        #expect(later.isEmpty, "no check-in is delivered once it is off")
        let tally = try Self.run(text, ruleset: ruleset)
        #expect(tally.answers?.optedOut["morning_checkin"] == 4)
    }

    /// More notices get more done and wear more people out: a ruleset that only adds a 21:45
    /// nudge raises completions and opt-outs.
    @Test func addingNoticesRaisesCompletionsAndOptOuts() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let more = try Shipped.variant([
            (
                "rules/notifications.yaml", "  - id: bedtime",
                "  - id: late_nudge\n    category: nudge\n    at: \"21:45\"\n    when: completion_rate < 0.6\n    template: evening_salvage\n\n  - id: bedtime"
            ),
            ("rules/settings.yaml", "  tone:", "  late_nudge:               { type: bool, default: true }\n  tone:"),
        ])
        let text = try String(contentsOfFile: Self.root + "/populations/office_workers.yaml", encoding: .utf8)
            .replacingOccurrences(of: "users: 10000", with: "users: 150").replacingOccurrences(of: "days: 28", with: "days: 14")
        let before = try #require(try Self.run(text, ruleset: ruleset, jobs: 2).answers)
        let after = try #require(try Self.run(text, ruleset: more, jobs: 2).answers)
        let done = { (a: AnswersTally) in a.completions.values.reduce(0, +) }
        let off = { (a: AnswersTally) in a.optedOut.values.reduce(0, +) + a.optedOutAll }
        #expect(done(after) > done(before), "\(done(before)) → \(done(after))")
        #expect(off(after) > off(before), "\(off(before)) → \(off(after))")
    }

    /// Bad behaviour keys: each a positioned diagnostic, nothing lived.
    @Test(arguments: [
        ("    acts:\n      morning_checkin: { p: 1.5 }", "ruleset.out_of_range"),
        ("    acts:\n      half_life: 0", "'half_life' must be above 0"),
        ("    acts:\n      morning_checkin: { p: 0.2, within: 25h }", "'within' must be more than 0 and at most a day"),
        ("    acts:\n      morning_checkin: { p: 0.2, does: [suplement] }", "did you mean 'supplement'?"),
        ("    acts:\n      morning_chekin: { p: 0.2 }", "did you mean 'morning_checkin'?"),
        ("    fatigue: { after: 2, per_extra: 2 }", "ruleset.out_of_range"),
        ("    opt_out: { type: -1 }", "ruleset.out_of_range"),
        // A quoted number is text, as in the rule files, JSON and the editors' schemas.
        ("    acts:\n      morning_checkin: { p: \"0.5\" }", "remove the quotes: 'p: 0.5'"),
        ("    opt_out: { all: '0.01' }", "expected a number, found '0.01'"),
    ])
    func badBehaviourKeysAreRefused(bad: (String, String)) throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let load = try PopulationTests.load(Self.trial(seed: 1, acts: bad.0), ruleset: ruleset)
        #expect(load.population == nil)
        let said = load.diagnostics.map { "\($0.code) \($0.message) \($0.hint ?? "")" }.joined(separator: "\n")
        #expect(said.contains(bad.1), "\(said)")
        #expect(load.diagnostics.allSatisfy { $0.location.line > 1 }, "positioned: \(load.diagnostics)")
    }

    /// An act that does a routine the group has not enabled is said (a warning at the routine),
    /// and the population still loads; one the group enabled is not.
    @Test func anActOnARoutineTheGroupHasNotEnabledIsSaid() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let acts = "    acts:\n      morning_checkin: { p: 0.2, does: [supplement, steps] }"
        let load = try PopulationTests.load(Self.trial(seed: 1, acts: acts), ruleset: ruleset)
        #expect(load.population != nil)
        let warned = load.diagnostics.filter { $0.code == "scenario.routine_not_enabled" }
        #expect(warned.count == 1, "\(load.diagnostics)")
        #expect(warned.first?.severity == .warning)
        #expect(warned.first?.message.contains("'steps'") == true)
        #expect(warned.first?.location.line == 14, "\(String(describing: warned.first?.location))")
        let fine = try PopulationTests.load(
            Self.trial(seed: 1, acts: "    acts:\n      morning_checkin: { p: 0.2, does: [supplement] }"), ruleset: ruleset)
        #expect(fine.diagnostics.isEmpty, "\(fine.diagnostics)")
    }

    /// With every notice switched off at once, the engine's deliveries are said apart as going
    /// to devices that show nothing: seen plus unshown is every delivery, in text and JSON.
    @Test func deliveriesToDevicesThatShowNothingAreSaidApart() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let tally = try Self.run(Self.trial(seed: 2, acts: "    opt_out: { all: 1 }", users: 40, days: 5), ruleset: ruleset)
        let answers = try #require(tally.answers)
        let unshown = answers.unshown.values.reduce(0, +)
        #expect(unshown > 0 && answers.optedOutAll == 40, "\(answers)")
        for (type, count) in tally.delivered where count > 0 {
            #expect((answers.delivered[type] ?? 0) + (answers.unshown[type] ?? 0) == count, "\(type)")
        }
        let text = answers.text
        #expect(text.contains("deliveries nobody saw"), "\(text)")
        let json = JSONValue.object(answers.json()).rendered()
        #expect(json.contains("\"delivered_unshown\""))
        let node = try #require(JSONReader.parse(Array(json.utf8), file: "r.json").documents.first)
        let back = try AnswersTally.read(answers: node["answers"], effects: node["effects"])
        #expect(back?.unshown == answers.unshown)
        // The page says it under the type, so the number column stays narrow on a phone.
        let header = PopulationHeader(name: "t", file: "t.yaml", users: 40, days: 5, seed: 2, start: 0, rulesetSHA256: "", populationSHA256: "")
        let page = PopulationReport.html(tally, header: header)
        #expect(page.contains("<br/><small>\(answers.unshown["morning_checkin"] ?? 0) of them to devices that show nothing</small></td><td class=n>"))
    }

    /// The work bound counts what acts add to a day (an opening, a log or a checklist's ticks,
    /// a type switched off, for each delivery), so a run with acts is bounded before it starts.
    @Test func theWorkBoundCountsActs() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let plain = try #require(try PopulationTests.load(Self.trial(seed: 1, acts: ""), ruleset: ruleset).population)
        let acting = try #require(
            try PopulationTests.load(Self.trial(seed: 1, acts: "    acts:\n      default: { p: 1 }"), ruleset: ruleset).population)
        let items = ruleset.routines.map(\.items.count).max() ?? 0
        #expect(acting.maxEventsPerDay(ruleset: ruleset) == plain.maxEventsPerDay(ruleset: ruleset) + ruleset.policy.maxPerDay * (2 + items))
    }
}
