// libFuzzer entry point for population files: any bytes are read as a population against the
// shipped ruleset, and one that loads is lived (its first user, at most two days) and
// reported — never a trap, never unbounded work. Run from the repository root (it loads the
// shipped ruleset): Fuzz/run.sh FuzzPopulation.
import Foundation
import RulesDocument
import RulesPopulation
import RulesYAML
import Ruleset
import RulesetFiles

private let shipped = Ruleset.load(directory: FileManager.default.currentDirectoryPath).ruleset

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    guard shipped == nil else { return 0 }
    let message = "FuzzPopulation: no shipped ruleset under \(FileManager.default.currentDirectoryPath); run it from the repository root\n"
    FileHandle.standardError.write(Data(message.utf8))
    exit(2)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPopulation(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let ruleset = shipped else { return 0 }
    let parsed = YAMLReader.parse(Array(UnsafeBufferPointer(start: data, count: size)), file: "fuzz.yaml")
    guard let node = parsed.documents.first, parsed.isClean else { return 0 }
    let (loaded, diagnostics) = PopulationLoader.load(node, file: "fuzz.yaml", source: nil, ruleset: ruleset)
    // A refusal always says why.
    guard let population = loaded else {
        if diagnostics.isEmpty { abort() }
        return 0
    }
    let days = min(population.days, 2)
    // The work bound answers before anything is lived, whatever the file says.
    _ = population.workProblem(users: population.users, days: population.days, ruleset: ruleset)
    guard population.workProblem(users: 1, days: days, ruleset: ruleset) == nil else { return 0 }
    var options = PopulationOptions(population: population, users: 1, days: days, jobs: 1)
    // The trial on a third of the inputs, withholding all or half of the deliveries.
    options.randomize = [0, 0.5, 1][size % 3]
    var tally = PopulationRun.run(population, ruleset: ruleset, options: options)
    PopulationReport.complete(&tally, ruleset: ruleset)
    // Every user-day is counted once in each tally.
    if tally.userDays != days || tally.deliveriesPerUserDay.total != days || tally.dayResults.values.reduce(0, +) != days { abort() }
    let header = PopulationHeader(
        name: population.name, file: "fuzz.yaml", users: 1, days: days, seed: options.seed, start: population.start, rulesetSHA256: ruleset.sha256,
        populationSHA256: population.sha256)
    _ = PopulationReport.text(tally, header: header)
    _ = PopulationReport.html(tally, header: header)
    // What users who answer did reads back from the JSON as it was counted (shards merge so).
    let json = PopulationReport.json(tally, header: header).prettyRendered()
    guard let reread = JSONReader.parse(Array(json.utf8), file: "result.json", maxBytes: 1 << 26, maxDepth: 64).documents.first,
        let back = try? PopulationReport.read(reread)
    else { abort() }
    if back.tally.answers != tally.answers { abort() }
    return 0
}
