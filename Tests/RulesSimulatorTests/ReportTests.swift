import Foundation
import RulesDiagnostics
import RulesEngine
import RulesPopulation
import RulesSimulator
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// Reports render in one place: a `ReportFormat` picks the text, the indented JSON with one
/// line feed, or the page (none for coverage), the same for every report.
@Suite struct ReportTests {
    static let root = Fixtures.repositoryRoot()

    @Test func theFormatsAreTextJSONAndHTML() {
        #expect(ReportFormat.allCases.map(\.rawValue) == ["text", "json", "html"])
        #expect(ReportFormat(rawValue: "sarif") == nil)
    }

    @Test func aPopulationRendersEachFormatFromItsViews() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let population = try PopulationTests.population(ruleset: ruleset)
        var tally = PopulationRun.run(population, ruleset: ruleset, options: PopulationOptions(population: population, users: 6, days: 2))
        PopulationReport.complete(&tally, ruleset: ruleset)
        let header = PopulationHeader(
            name: population.name, file: "populations/office_workers.yaml", users: 6, days: 2, seed: population.seed, start: population.start,
            rulesetSHA256: ruleset.sha256, populationSHA256: population.sha256, ruleset: ".")
        let summary = PopulationSummary(tally, header: header)
        #expect(summary.rendered(.text) == PopulationReport.text(tally, header: header))
        #expect(summary.rendered(.json) == PopulationReport.json(tally, header: header).prettyRendered() + "\n")
        #expect(summary.rendered(.html) == PopulationReport.html(tally, header: header))
        #expect(summary.rendered(.text)?.contains("6 users × 2 days") == true)
        // A shard's JSON names its shard (what merge reads back).
        let shard = PopulationSummary(tally, header: header, shard: Shard(index: 1, count: 2))
        #expect(shard.rendered(.json)?.contains("\"shard\": \"1/2\"") == true)
    }

    @Test func coverageHasTextAndJSONButNoPage() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let coverage = RuleCoverage(ruleset: ruleset)
        #expect(coverage.rendered(.html) == nil)
        #expect(coverage.rendered(.text) == coverage.text())
        #expect(coverage.rendered(.json) == coverage.json().prettyRendered() + "\n")
    }
}
