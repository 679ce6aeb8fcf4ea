// libFuzzer entry point for the result files `rules population merge` reads: any bytes are
// read as a shard's result, merged with itself as the two halves of a run, and reported in
// every format — a crafted file is refused with its reason, never a trap. Run with
// Fuzz/run.sh FuzzMerge.
import Foundation
import RulesDocument
import RulesPopulation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMerge(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parsed = JSONReader.parse(bytes, file: "fuzz.json", maxBytes: 1 << 20, maxDepth: 16)
    guard let node = parsed.documents.first, parsed.diagnostics.isEmpty else { return 0 }
    let part: (header: PopulationHeader, shard: Shard?, tally: PopulationTally)
    do throws(PopulationReport.ReadFailure) {
        part = try PopulationReport.read(node)
    } catch {
        if error.description.isEmpty { abort() }
        return 0
    }
    // What read accepts is consistent and bounded: its sums are exact and within the limit.
    if part.tally.deliveriesPerUserDay.total != part.tally.userDays || part.tally.userDays > PopulationReport.maxCount { abort() }
    var halves = [part]
    if let shard = part.shard, shard.count == 1 || shard.count == 2 {
        var other = part
        other.shard = Shard(index: shard.index == 1 ? 2 : 1, count: 2)
        halves[0].shard = Shard(index: shard.index, count: 2)
        halves.append(other)
    }
    switch PopulationReport.merge(halves) {
    case .success(let merged):
        _ = PopulationReport.text(merged.tally, header: merged.header)
        _ = PopulationReport.json(merged.tally, header: merged.header).rendered()
        _ = PopulationReport.html(merged.tally, header: merged.header)
    case .failure(let failure):
        if failure.description.isEmpty { abort() }
    }
    _ = PopulationReport.html(part.tally, header: part.header, shard: part.shard)
    return 0
}
