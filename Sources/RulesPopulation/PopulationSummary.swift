import RulesDiagnostics
import RulesSimulator

/// A population's tally as a report: its header, and the shard it is a part of (a shard's
/// JSON names it, for merging).
package struct PopulationSummary: Report {
    package var tally: PopulationTally
    package var header: PopulationHeader
    package var shard: Shard?

    package init(_ tally: PopulationTally, header: PopulationHeader, shard: Shard? = nil) {
        self.tally = tally
        self.header = header
        self.shard = shard
    }

    package func text() -> String { PopulationReport.text(tally, header: header, shard: shard) }
    package func json() -> JSONValue { PopulationReport.json(tally, header: header, shard: shard) }
    package func html() -> String? { PopulationReport.html(tally, header: header, shard: shard) }
}
