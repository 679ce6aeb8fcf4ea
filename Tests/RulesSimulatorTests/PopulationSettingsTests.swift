import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesPopulation
import RulesYAML
import Ruleset
import TestSupport
import Testing

/// What users set (`settings:`) and users who differ (`between_users:`): drawn once per user,
/// sent as ordinary settings events, checked against the ruleset's declarations.
@Suite struct PopulationSettingsTests {
    static let root = Fixtures.repositoryRoot()

    static func population(seed: Int = 5, users: Int = 400, days: Int = 7, group: String) -> String {
        """
        name: settings
        seed: \(seed)
        users: \(users)
        days: \(days)
        start: 2026-07-06
        timezone: Asia/Seoul
        groups:
          - name: planted
            routines: [water, study, supplement]
            app_opens:
              - { p: 0.9, at: "08:00", sd: 10 }
              - { p: 0.5, at: "21:00", sd: 30 }
            response: { opened: 0.3, ignored: 0.6 }
        \(group)
        """
    }

    static func load(_ text: String) throws -> (Population, Ruleset) {
        let ruleset = try #require(Ruleset.load(directory: root).ruleset)
        let load = try PopulationTests.load(text, ruleset: ruleset)
        return (try #require(load.population, "\(load.diagnostics)"), ruleset)
    }

    /// The settings event a user sends: at their first app run (any event of theirs: an open,
    /// a log, a tick), right after it.
    static func settingsEvent(_ user: SyntheticUser) -> [String: Value]? {
        for day in user.scenario.days where !day.events.isEmpty {
            guard day.events.count > 1, case .settings(let values) = day.events[1].kind else { return nil }
            #expect(day.events[1].seconds == day.events[0].seconds, "sent in the same minute as the first run")
            return values
        }
        return nil
    }

    @Test func settingsAreDrawnOncePerUserAndSentAtTheFirstRun() throws {
        let group = """
                settings:
                  routine_reminder: 1
                  bedtime: { p: 0.5, at: "23:00", sd: 0 }
                  tone: { cold_persistent: 0.25 }
                  reminders:
                    water: { p: 1, at: "15:00", sd: 0 }
                    reading: { p: 1, at: "20:00", sd: 0 }
            """
        let (population, ruleset) = try Self.load(Self.population(group: group))
        let generator = PopulationGenerator(population: population, ruleset: ruleset)
        var bedtimes = 0
        var cold = 0
        var sent = 0
        for number in 1...population.users {
            let user = generator.user(number)
            guard let values = Self.settingsEvent(user) else { continue }
            sent += 1
            #expect(values["routine_reminder"] == .bool(true))
            // Reading is not among the group's routines: its reminder is never set.
            #expect(values["reminders"] == .map(["water": .time(15 * 3600)]), "\(values)")
            if let bedtime = values["bedtime"] {
                #expect(bedtime == .time(23 * 3600))
                bedtimes += 1
            }
            if values["tone"] == .string("cold_persistent") { cold += 1 }
            // One settings event in the whole run.
            let events = user.scenario.days.flatMap(\.events).filter { if case .settings = $0.kind { true } else { false } }
            #expect(events.count == 1)
        }
        // Nearly everyone opens on the first day (0.9 and 0.5): those who never open send nothing.
        #expect(sent > 390, "\(sent)")
        // Binomial: 0.5 × 400 ± 4 sd is 160…240; 0.25 × 400 ± 4 sd is 65…135.
        #expect((160...240).contains(bedtimes), "\(bedtimes)")
        #expect((65...135).contains(cold), "\(cold)")
        // What users set reaches the engine: the reminder and the bedtime notice are delivered.
        let tally = PopulationRun.run(population, ruleset: ruleset, options: PopulationOptions(population: population, jobs: 2))
        #expect((tally.delivered["routine_reminder"] ?? 0) > 100, "\(tally.delivered)")
        // The bedtime notice comes last in the day, so the daily cap of 3 (check-in, reminder,
        // evening notice, recovery notice) takes most of them: delivered on some days, refused
        // by the cap on the rest.
        #expect((tally.delivered["bedtime"] ?? 0) > 0, "\(tally.delivered)")
        #expect((tally.suppressed["bedtime"]?["daily_cap"] ?? 0) > 100, "\(tally.suppressed)")
    }

    /// A notification type's switch: the share with it on, the rest off.
    @Test func aSwitchSharesUsersBetweenOnAndOff() throws {
        let (population, ruleset) = try Self.load(Self.population(group: "    settings: { evening_underachievement: 0.7 }"))
        let generator = PopulationGenerator(population: population, ruleset: ruleset)
        let off = (1...population.users).filter { Self.settingsEvent(generator.user($0))?["evening_underachievement"] == .bool(false) }
        // 0.3 × 400 ± 4 sd.
        #expect((80...160).contains(off.count), "\(off.count)")
    }

    /// Without the keys users are drawn exactly as before; `between_users` of zero is the same.
    @Test func absentOrZeroKeysChangeNothing() throws {
        let (plain, ruleset) = try Self.load(Self.population(users: 60, group: ""))
        let (zero, _) = try Self.load(Self.population(users: 60, group: "    between_users: { logit_sd: 0, minutes_sd: 0 }"))
        let (spread, _) = try Self.load(Self.population(users: 60, group: "    between_users: { logit_sd: 1, minutes_sd: 30 }"))
        let run = { (population: Population) in
            PopulationRun.run(population, ruleset: ruleset, options: PopulationOptions(population: population, jobs: 1))
        }
        let base = run(plain)
        #expect(run(zero) == base)
        #expect(run(spread) != base, "a spread between users changes who does what")
        let user = PopulationGenerator(population: plain, ruleset: ruleset).user(1)
        #expect(Self.settingsEvent(user) == nil)
    }

    /// Per-user offsets make one user's days alike: the spread of users' own open rates is far
    /// beyond what 28 independent days give, and their own times differ by about `minutes_sd`.
    @Test func usersWhoDifferAreCorrelatedAcrossTheirDays() throws {
        func rates(_ between: String) throws -> (rateVariance: Double, timeSD: Double) {
            let (population, ruleset) = try Self.load(Self.population(users: 300, days: 28, group: between))
            let generator = PopulationGenerator(population: population, ruleset: ruleset)
            var rates: [Double] = []
            var means: [Double] = []
            for number in 1...population.users {
                // The evening open (p 0.5, 21:00 ± 30): counted by the events after 18:00.
                let evenings = generator.user(number).scenario.days.compactMap { day in
                    day.events.first { event in
                        if case .app = event.kind { event.seconds >= 18 * 3600 } else { false }
                    }?.seconds
                }
                rates.append(Double(evenings.count) / 28)
                if !evenings.isEmpty { means.append(Double(evenings.reduce(0, +)) / Double(evenings.count) / 60) }
            }
            return (Self.variance(rates), Self.variance(means).squareRoot())
        }
        let binomial = 0.5 * 0.5 / 28
        let without = try rates("")
        let with = try rates("    between_users: { logit_sd: 1, minutes_sd: 40 }")
        #expect(without.rateVariance < 1.5 * binomial, "\(without.rateVariance) vs \(binomial)")
        #expect(with.rateVariance > 3 * binomial, "\(with.rateVariance) vs \(binomial)")
        // A user's mean of ~14 evenings at sd 30 varies by about 8 minutes; with their own
        // offset of sd 40, by about 41.
        #expect(without.timeSD < 15, "\(without.timeSD)")
        #expect(with.timeSD > 30 && with.timeSD < 55, "\(with.timeSD)")
    }

    static func variance(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    }

    /// Each wrong setting is a positioned diagnostic and nothing is loaded.
    @Test(arguments: [
        ("settings: { bedtmie: 0.3 }", "ruleset.unknown_key", "did you mean 'bedtime'?"),
        ("settings: { routine_reminder: 1.5 }", "ruleset.out_of_range", "at most 1"),
        ("settings: { routine_reminder: { p: 1 } }", "ruleset.wrong_type", "a number"),
        ("settings: { tone: { warm: 0.3 } }", "ruleset.unknown_value", "calm_directive, cold_persistent"),
        ("settings: { tone: { cold_persistent: 0.7, calm_directive: 0.6 } }", "ruleset.out_of_range", "add up to more than 1"),
        ("settings: { tone: 0.5 }", "ruleset.wrong_type", "values to shares"),
        ("settings: { bedtime: { p: 0.5, at: \"25:00\" } }", "ruleset.out_of_range", "not a time of day"),
        ("settings: { bedtime: { p: -0.5, at: \"23:00\" } }", "ruleset.out_of_range", "at least 0"),
        ("settings: { bedtime: { p: 0.5, at: \"23:00\", sd: -3 } }", "ruleset.out_of_range", "at least 0"),
        ("settings: { reminders: { watr: { p: 0.5, at: \"10:00\" } } }", "scenario.unknown_routine", "did you mean 'water'?"),
        ("settings: { reminders: [water] }", "ruleset.wrong_type", "routine ids"),
        ("settings: { day_starts_at: { at: \"05:00\" } }", "ruleset.out_of_range", "cannot be drawn per user"),
        ("settings: [bedtime]", "ruleset.wrong_type", "a mapping"),
        ("between_users: { logit_sd: -1 }", "ruleset.out_of_range", "at least 0"),
        ("between_users: { minutes_sd: 1e308 }", "ruleset.out_of_range", "at most 720"),
        ("between_users: { minute_sd: 3 }", "ruleset.unknown_key", "did you mean 'minutes_sd'?"),
    ])
    func badSettingsArePositionedDiagnostics(_ bad: (String, String, String)) throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let load = try PopulationTests.load(Self.population(group: "    " + bad.0), ruleset: ruleset)
        #expect(load.population == nil)
        let error = try #require(load.diagnostics.first { $0.severity == .error }, "\(bad.0)")
        #expect(error.code.rawValue == bad.1, "\(error)")
        #expect((error.message + " " + (error.hint ?? "")).contains(bad.2), "\(error)")
        #expect(error.location.line == 14, "on the group's line: \(error)")
    }
}
