import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// Merging shard results into the result of one run.
extension PopulationReport {
    /// Combines shard results: every shard of one split exactly once, all of one population,
    /// seed and ruleset. The result is what one run of the whole population gives.
    package static func merge(
        _ parts: [(header: PopulationHeader, shard: Shard?, tally: PopulationTally)]
    ) -> Result<
        (header: PopulationHeader, tally: PopulationTally), ReadFailure
    > {
        guard let first = parts.first else { return .failure(ReadFailure(description: "no results to merge")) }
        // One run: the same population (name and content), size, seed, start and ruleset (the paths it was run
        // with may differ from machine to machine; the first part's are kept).
        func identity(_ header: PopulationHeader) -> [String] {
            [
                header.name, String(header.users), String(header.days), String(header.seed), String(header.start), header.rulesetSHA256,
                header.populationSHA256,
            ]
        }
        func described(_ header: PopulationHeader) -> String {
            let hashes = "ruleset \(header.rulesetSHA256.prefix(12)), population file \(header.populationSHA256.prefix(12))"
            return "\(line(header.name)) (\(header.users) users, \(header.days) days, seed \(header.seed), \(hashes))"
        }
        for part in parts where identity(part.header) != identity(first.header) {
            return .failure(ReadFailure(description: "the results are not of one run: \(described(first.header)) and \(described(part.header))"))
        }
        let count = first.shard?.count ?? 1
        var seen = Set<Int>()
        for part in parts {
            let shard = part.shard ?? .whole
            guard shard.count == count else { return .failure(ReadFailure(description: "shards of different splits (\(count) and \(shard.count))")) }
            guard seen.insert(shard.index).inserted else { return .failure(ReadFailure(description: "shard \(shard.text) is given twice")) }
        }
        let missing = (1...count).filter { !seen.contains($0) }
        guard missing.isEmpty else {
            return .failure(
                ReadFailure(description: "missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", "))"))
        }
        var tally = PopulationTally()
        for part in parts { tally.merge(part.tally) }
        return .success((first.header, tally))
    }
}
