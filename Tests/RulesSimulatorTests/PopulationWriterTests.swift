import Foundation
import RulesEngine
import RulesYAML
import Ruleset
import ShippedRuleset
import TestSupport
import Testing

@testable import RulesFit
@testable import RulesPopulation

/// The one writer of population files: whatever the loader holds, written and read back, is
/// the same population — the shipped files, a file using every key at awkward values, and
/// the fit's own files (`PopulationFitTests`).
@Suite struct PopulationWriterTests {
    static let ruleset = ShippedRuleset.ruleset

    /// Written, loaded, and the same values; written again, the same text.
    func roundTrip(_ population: Population, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = PopulationWriter().yaml(population)
        let loaded = try PopulationTests.load(text, ruleset: Self.ruleset)
        let back = try #require(loaded.population, "\(loaded.diagnostics.map(\.message))\n\(text)", sourceLocation: sourceLocation)
        #expect(!loaded.diagnostics.contains { $0.severity == .error }, sourceLocation: sourceLocation)
        #expect(back.differences(from: population).isEmpty, "\(back.differences(from: population))\n\(text)", sourceLocation: sourceLocation)
        #expect(PopulationWriter().yaml(back) == text, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["populations/office_workers.yaml", "populations/students_and_night_owls.yaml"])
    func everyShippedPopulationIsWrittenAsItWasRead(_ file: String) throws {
        let population = try PopulationTests.population(file, ruleset: Self.ruleset)
        // The shipped files use what the writer must write: acts, settings, between users.
        #expect(population.groups.contains { !$0.behaviour.isEmpty && !$0.settings.isEmpty && $0.between != nil })
        try roundTrip(population)
    }

    /// Every key, numbers no fit would write (a tenth of a millionth, 0.1 + 0.2, a large
    /// spread), a quoted name, a default act with its routines, a floor, 90 seconds.
    @Test func everyKeyAtAwkwardValuesComesBack() throws {
        let text = """
            name: "odd \\"one\\": \\\\ here"
            seed: 12345
            users: 7
            days: 3
            start: 2026-07-06
            timezone: Europe/Paris
            groups:
              - name: first
                weight: 0.30000000000000004
                routines: [water, study, skincare]
                permission: { steps: 0.0000001, sleep: 1 }
                sleep_minutes: { mean: 412.5, sd: 899.999 }
                wake: { at: "06:10", sd: 12.25 }
                steps: { mean: 123456789.5, sd: 0 }
                app_opens:
                  - { p: 0.999999, at: "00:00", sd: 1440 }
                  - { at: "23:59" }
                logs:
                  - { routine: water, p: 0.5, value: 250.75, count: 100, at: "10:00", sd: 30 }
                checks: { skincare: 0.25 }
                check_at: { at: "08:00", sd: 5 }
                response: { opened: 0.4, ignored: 0.6 }
                skip_today: 0.01
                acts:
                  default: { p: 0.2, within: 90s, does: [water] }
                  morning_checkin: { p: 0.35, within: 1h30m }
                  half_life: 2.5
                  floor: 0.05
                fatigue: { after: 0, per_extra: 0.125 }
                opt_out: { type: 0.02, all: 0.001, above: 3 }
                settings:
                  tone: { cold_persistent: 0.4 }
                  routine_reminder: 0.5
                  bedtime: { p: 0.25, at: "00:30", sd: 45 }
                  reminders:
                    study: { p: 0.45, at: "19:00", sd: 60 }
                between_users: { logit_sd: 10, minutes_sd: 720 }
              - name: "second: plain"
                weight: 0
                opt_out: { above: 2 }
            """
        let loaded = try PopulationTests.load(text, ruleset: Self.ruleset)
        let population = try #require(loaded.population, "\(loaded.diagnostics.map(\.message))")
        #expect(population.groups[0].settings.count == 4 && population.groups[0].behaviour.defaultAct?.does == ["water"])
        try roundTrip(population)
    }

    /// The check itself, on worlds known to be wrong: each value changed is a difference.
    @Test func aChangedValueIsADifference() throws {
        let population = try PopulationTests.population("populations/students_and_night_owls.yaml", ruleset: Self.ruleset)
        let changes: [(String, (inout PopulationGroup) -> Void)] = [
            ("weight", { $0.weight += 0.001 }), ("wake", { $0.wake.at += 60 }), ("logs", { $0.logs[0].count += 1 }),
            ("behaviour", { $0.behaviour.floor += 0.01 }), ("behaviour", { $0.behaviour.acts = [:] }),
            ("settings", { $0.settings.removeLast() }), ("between_users", { $0.between = nil }), ("check_at", { $0.checkTime.sdMinutes += 1 }),
        ]
        for (name, change) in changes {
            var changed = population
            change(&changed.groups[0])
            #expect(changed.differences(from: population) == ["groups.0.\(name)"], "\(name)")
        }
        #expect(population.differences(from: population).isEmpty)
    }

    /// Numbers in the fewest digits, never in powers of ten; identifiers bare, the rest quoted.
    @Test func numbersAndNamesAreWrittenAsTheLoaderReadsThem() {
        let cases: [(Double, String)] = [
            (0, "0"), (1, "1"), (0.1, "0.1"), (1e-7, "0.0000001"), (1.5e-10, "0.00000000015"), (123456789.5, "123456789.5"),
            (1e20, "100000000000000000000"), (2.5e16, "25000000000000000"), (-0.25, "-0.25"), (0.1 + 0.2, "0.30000000000000004"),
        ]
        for (value, text) in cases {
            #expect(PopulationWriter.number(value) == text)
            #expect(Double(PopulationWriter.number(value)) == value)
        }
        #expect(
            PopulationWriter.key("water") == "water" && PopulationWriter.key("9lives") == "\"9lives\"" && PopulationWriter.key("a b") == "\"a b\"")
        #expect(PopulationWriter.quoted("a\"b\\c\nd") == #""a\"b\\c\nd""#)
    }

    /// A note with no error known writes no comment, never an empty `#` or `#,`.
    @Test func aNoteWithoutAnErrorWritesNoComment() {
        var notes = FitNotes(path: "groups.0")
        notes.add("weight", PopulationFit.Estimate(value: 0.5, se: nil))
        notes.add("permission", PopulationFit.Estimate(value: 0.5, se: nil), PopulationFit.Estimate(value: 0.5, se: 0.01))
        notes.slot("app_opens.0", PopulationFit.Estimate(value: 0.5, se: nil), PopulationFit.Estimate(value: 600, se: nil))
        #expect(notes.notes == ["groups.0.permission": "± 0.010"])
        let writer = PopulationWriter(notes: ["groups.0.weight": ""])
        #expect(writer.note("groups.0.weight").isEmpty && writer.note("groups.0.steps").isEmpty)
    }

    /// A note or header line that holds a line break stays a comment: nothing it says becomes a key.
    @Test func aNoteCannotStartAKey() throws {
        var population = try PopulationTests.population("populations/office_workers.yaml", ruleset: Self.ruleset)
        population.groups = [population.groups[0]]
        let writer = PopulationWriter(
            header: ["one\nusers: 1"],
            notes: ["groups.0": "two\r\nseed: 3", "groups.0.weight": "three\u{2028}days: 9", "groups.0.response": "x\u{85}y"])
        let text = writer.yaml(population)
        let back = try #require(try PopulationTests.load(text, ruleset: Self.ruleset).population, "\(text)")
        #expect(back.differences(from: population).isEmpty, "\(back.differences(from: population))")
        #expect(text.contains("# one users: 1\n") && text.contains("# two  seed: 3\n"))
    }
}
