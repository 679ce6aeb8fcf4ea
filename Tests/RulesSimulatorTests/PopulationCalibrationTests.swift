import Foundation
import RulesEngine
import Ruleset
import ShippedRuleset
import TestSupport
import Testing

@testable import RulesFit

/// The fit's calibration, as simulation-based calibration does it: worlds drawn from a prior
/// (`CalibrationWorlds`: one to three groups, settings, acts, fatigue, switching every notice
/// off, users who differ), each lived with `--randomize 0.5`, its telemetry fitted with the
/// world's number of groups; per family of parameters, how often the 95 % interval (± 1.96
/// standard errors) holds the planted value.
@Suite struct PopulationCalibrationTests {
    /// One family's tally over the worlds.
    struct Tally: CustomStringConvertible {
        var covered = 0
        var count = 0
        var squares = 0.0
        var misses: [String] = []
        var coverage: Double { count > 0 ? Double(covered) / Double(count) : 0 }
        var description: String {
            String(format: "%d of %d (%.0f %%), mean z² %.2f", covered, count, coverage * 100, count > 0 ? squares / Double(count) : 0)
        }
    }

    /// The worlds' seeds: 1 … 24.
    static let seeds = Array(1...24)

    /// The fitted estimate of `family` for a fitted group (nil: not fitted).
    static func estimate(_ family: String, _ g: PopulationFit.Group, opensAt: Int) -> PopulationFit.Estimate? {
        switch family {
        case "weight": return g.weight
        case "opens": return g.slots.first { abs($0.at.value - Double(opensAt)) < 60 }?.p
        case "water": return g.logs.first { $0.routine == "water" }?.p
        case "opened": return g.opened
        case "ignored": return g.ignored
        case "act": return g.acts.first { $0.type == "routine_reminder" }?.p
        case "reminder":
            for setting in g.settings {
                if case .perRoutine(let routines, let times) = setting.shape, let index = routines.firstIndex(of: "supplement") {
                    return times[index].p
                }
            }
            return nil
        case "per_extra": return g.fatigue?.perExtra
        case "opt_out_type": return g.optOutType
        case "opt_out_all": return g.optOutAll?.all
        default: return nil
        }
    }

    /// The fitted group that is `truth`'s: the one with the most opens near its open time.
    static func match(_ truth: CalibrationWorlds.Group, _ fitted: [PopulationFit.Group]) -> PopulationFit.Group? {
        fitted.max { a, b in
            let pa = a.slots.filter { abs($0.at.value - Double(truth.opensAt)) < 60 }.map(\.p.value).max() ?? 0
            let pb = b.slots.filter { abs($0.at.value - Double(truth.opensAt)) < 60 }.map(\.p.value).max() ?? 0
            return pa < pb
        }
    }

    /// Lives and fits every world; the tallies by family.
    static func calibrate(seeds: [Int], users: Int, days: Int) throws -> [String: Tally] {
        var tallies: [String: Tally] = [:]
        for seed in seeds {
            let world = CalibrationWorlds.world(seed: seed, users: users, days: days)
            let (reader, _) = try PopulationFitTests.telemetry(world.text, randomize: 0.5)
            let fit = PopulationFit(reader, ruleset: ShippedRuleset.ruleset, k: world.groups.count)
            for (index, truth) in world.groups.enumerated() {
                let group = match(truth, fit.groups)
                for family in CalibrationWorlds.families {
                    guard let planted = truth.truth[family] else { continue }
                    var tally = tallies[family, default: Tally()]
                    tally.count += 1
                    let fitted = group.flatMap { estimate(family, $0, opensAt: truth.opensAt) }
                    let flags =
                        "\(truth.truth["per_extra"] == nil ? "" : " tired")\(truth.logitSD > 0 ? " differ \(truth.logitSD) fitted \(group?.between?.logitSD ?? 0)" : "")"
                    if let fitted, fitted.se == 0 || fitted.se == nil, abs(fitted.value - planted) < 1e-9 {
                        tally.covered += 1
                    } else if let fitted, let se = fitted.se, se > 0 {
                        let z = (fitted.value - planted) / se
                        tally.squares += Swift.min(z * z, 100)
                        if abs(z) <= 1.96 {
                            tally.covered += 1
                        } else {
                            tally.misses.append("world \(seed) group \(index + 1): \(fitted.value) ± \(se), planted \(planted)\(flags)")
                        }
                    } else {
                        tally.squares += 100
                        tally.misses.append("world \(seed) group \(index + 1): not fitted, planted \(planted)\(flags)")
                    }
                    tallies[family] = tally
                }
            }
        }
        return tallies
    }

    /// Every family's 95 % intervals hold the planted value in at least 85 % of its cases and are
    /// not too wide: at most 99 %, or — with fewer than 100 cases, where every interval holding
    /// is a likely outcome — a mean z² of at least 0.35 (calibrated intervals give about 1).
    @Test func theFitsIntervalsHoldWhatWasPlanted() throws {
        let tallies = try Self.calibrate(seeds: Self.seeds, users: 300, days: 14)
        var report = ""
        for family in CalibrationWorlds.families {
            let tally = tallies[family, default: Tally()]
            report += "\(family): \(tally)\n"
            for miss in tally.misses { report += "  \(miss)\n" }
        }
        print(report)
        for family in CalibrationWorlds.families {
            let tally = tallies[family, default: Tally()]
            #expect(tally.count >= 20, "\(family): \(tally.count) cases")
            #expect(tally.coverage >= 0.85, "\(family): \(tally)\n\(report)")
            let tooWide = tally.count >= 100 ? tally.coverage > 0.99 : tally.squares / Double(Swift.max(1, tally.count)) < 0.35
            #expect(!tooWide, "\(family): intervals too wide: \(tally)")
        }
    }
}
