import Foundation
import RulesDiagnostics
import RulesDocument
import RulesPopulation
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// Mutated copies of the shipped files — values swapped for hostile ones — load, check and
/// simulate without trapping, and every refusal is a diagnostic.
@Suite struct MutationTests {
    static let root = Fixtures.repositoryRoot()
    static let replacements = [
        "", "-1", "0", "25:00", "24:00", "99999999999999999999999", "1e309", "true", "no", "'!x'", "\"&&\"", "[]", "{}",
        "[a, b]", "{a: 1}", "null", "~", "\"now >= 21:00 &&\"", "\"(((((((\"", "\"routines.nope.value > 1\"", "물", "\"\\u00e9\"",
        "-9223372036854775808", "0.0000001", "\"sleep.minutes < 1\"", "\"{sleep.minutes}\"", "90m", "\"25:61\"",
        // Large finite numbers: the ones a check might let through and the engine multiply.
        "1e19", "9223372036854775807", "1000000000", "1000000001", "999999999.5", "1.7976931348623157e308", "4294967296",
        "99999999h", "\"{water.ml * 100000000000000000000.5 | thousands}\"", "\"now + 99999999h > 21:00\"",
    ]

    typealias Generator = SeededGenerator

    /// `text` with the value after one `key: ` on a random line replaced.
    static func mutate(_ text: String, _ g: inout Generator, with replacements: [String] = replacements) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let candidates = lines.indices.filter { lines[$0].contains(": ") && !lines[$0].hasPrefix("#") }
        guard !candidates.isEmpty else { return text }
        let index = candidates[g.next(candidates.count)]
        let line = lines[index]
        // Inside a flow mapping replace one `key: value` value, keeping the braces intact.
        let flowValue = try? NSRegularExpression(pattern: #"(\w+): ("[^"]*"|'[^']*'|[^,}\]\[{]+)"#)
        let matches = flowValue?.matches(in: line, range: NSRange(line.startIndex..., in: line)) ?? []
        if line.contains("{"), !matches.isEmpty, let range = Range(matches[g.next(matches.count)].range(at: 2), in: line) {
            var replacement = replacements[g.next(replacements.count)]
            if replacement.contains(",") || replacement.contains("{") || replacement.contains("[") { replacement = "'\(replacement)'" }
            lines[index] = line.replacingCharacters(in: range, with: replacement.isEmpty ? "''" : replacement)
        } else if let colon = line.range(of: ": ", options: .backwards) {
            lines[index] = String(line[..<colon.upperBound]) + replacements[g.next(replacements.count)]
        }
        return lines.joined(separator: "\n")
    }

    @Test func mutatedRulesetsLoadOrRefuseWithDiagnostics() throws {
        let files = RulesetDirectory.files(in: Self.root, folders: RulesetDirectory.rulesetFolders)
        let texts = try files.map { try String(contentsOfFile: $0.path, encoding: .utf8) }
        var g = Generator(state: 99)
        var refused = 0
        var simulated = 0
        for round in 0..<300 {
            var documents: [RuleDocument] = []
            // Even rounds mutate one file (most load: they test the engine), odd rounds about
            // a quarter of them (most are refused: they test the diagnostics).
            let single = g.next(files.count)
            for (index, (file, text)) in zip(files, texts).enumerated() {
                let mutated = (round % 2 == 0 ? index == single : g.next(4) == 0) ? Self.mutate(text, &g) : text
                let parsed = YAMLReader.parse(mutated, file: file.display)
                for node in parsed.documents {
                    documents.append(
                        RuleDocument(
                            file: file.display, kind: file.folder == "routines" ? .routines : .sections, node: node,
                            source: SourceFile(path: file.display, text: mutated)))
                }
            }
            let (ruleset, diagnostics) = Ruleset.load(documents: documents)
            guard let ruleset else {
                refused += 1
                #expect(diagnostics.contains { $0.severity == .error })
                continue
            }
            // Whatever the check accepts must simulate without trapping.
            for scenario in scenarios(for: ruleset) {
                let result = Simulation.run(scenario, ruleset: ruleset)
                _ = ExpectationChecker.check(result, ruleset: ruleset)
                _ = Trace.jsonLines(result, ruleset: ruleset)
                simulated += 1
            }
        }
        #expect(refused > 50)
        #expect(simulated >= 30)  // every accepted mutant simulated (two scenarios each), large numbers among them
    }

    /// Two shipped scenarios (a collapsed day, a week) loaded against a mutated ruleset.
    func scenarios(for ruleset: Ruleset) -> [Scenario] {
        ["collapsed_day.yaml", "ignored_week.yaml"].compactMap { name in
            guard let text = try? String(contentsOfFile: Self.root + "/scenarios/" + name, encoding: .utf8),
                let node = YAMLReader.parse(text, file: name).documents.first
            else { return nil }
            return ScenarioLoader.load(node, file: name, source: nil, ruleset: ruleset).scenario
        }
    }

    /// Values a population file may hold at its bounds, besides the hostile ones.
    static let populationReplacements = [
        "1", "0.999999", "900", "1440", "3660", "3661", "100", "101", "10000000", "10000001", "1000000", "\"00:00\"",
        "\"23:59\"", "2000-01-01", "2199-12-31", "2200-01-01", "1999-12-31", "[]", "[water]",
    ]

    @Test func mutatedPopulationsLoadOrRefuseAndRunWithinTheInvariants() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let names = RulesetDirectory.yamlFiles(under: Self.root + "/populations")
        var g = Generator(state: 11)
        var ran = 0
        var refused = 0
        for round in 0..<400 {
            let name = names[round % names.count]
            let shipped = try String(contentsOfFile: Self.root + "/populations/" + name, encoding: .utf8)
            // One value changed, to a population's bound as often as to a hostile value.
            let text = Self.mutate(shipped, &g, with: Self.populationReplacements + Self.replacements)
            let parsed = YAMLReader.parse(text, file: name)
            guard let node = parsed.documents.first else { continue }
            let (population, diagnostics) = PopulationLoader.load(node, file: name, source: nil, ruleset: ruleset)
            guard let population else {
                refused += 1
                #expect(diagnostics.contains { $0.severity == .error })
                continue
            }
            // A few users for a few days: what is drawn at the bounds must live within the invariants.
            let options = PopulationOptions(population: population, users: 4, days: min(population.days, 4))
            let tally = PopulationRun.run(population, ruleset: ruleset, options: options)
            #expect(tally.violations == 0, "\(name) round \(round)")
            #expect(tally.userDays == 4 * min(population.days, 4))
            ran += 1
        }
        #expect(ran >= 50, "\(ran) ran, \(refused) refused")
        #expect(refused >= 50, "\(ran) ran, \(refused) refused")
    }

    @Test func mutatedScenariosLoadOrRefuseAndSimulateWithoutTrapping() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let names = RulesetDirectory.yamlFiles(under: Self.root + "/scenarios")
        var g = Generator(state: 7)
        var simulated = 0
        for round in 0..<240 {
            let name = names[round % names.count]
            var text = try String(contentsOfFile: Self.root + "/scenarios/" + name, encoding: .utf8)
            for _ in 0..<(1 + g.next(3)) { text = Self.mutate(text, &g) }
            let parsed = YAMLReader.parse(text, file: name)
            guard let node = parsed.documents.first else { continue }
            let (scenario, diagnostics) = ScenarioLoader.load(node, file: name, source: SourceFile(path: name, text: text), ruleset: ruleset)
            guard let scenario else {
                #expect(diagnostics.contains { $0.severity == .error })
                continue
            }
            let result = Simulation.run(scenario, ruleset: ruleset)
            _ = ExpectationChecker.check(result, ruleset: ruleset)
            _ = Trace.jsonLines(result, ruleset: ruleset)
            simulated += 1
        }
        #expect(simulated >= 5)  // most hostile values are refused at load, as they should be
    }
}
