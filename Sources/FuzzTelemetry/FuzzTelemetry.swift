// libFuzzer entry point for telemetry: any bytes are read as telemetry lines against the
// shipped ruleset; what reads is fitted (however few users) and the fitted population file must
// load as a population without an error. The same bytes are read as a features file too (rows
// of ruleset `fuzz`): each line's JSON must be read alike by the rows' own reader and the general
// one, a refusal must name its line, and what reads is fitted as the lines are. Never a trap.
// Run from the repository root: Fuzz/run.sh FuzzTelemetry.
import Foundation
import RulesDocument
import RulesFit
import RulesPopulation
import RulesYAML
import Ruleset
import RulesetFiles

private let shipped = Ruleset.load(directory: FileManager.default.currentDirectoryPath).ruleset

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    guard shipped == nil else { return 0 }
    FileHandle.standardError.write(Data("FuzzTelemetry: no shipped ruleset here; run it from the repository root\n".utf8))
    exit(2)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTelemetry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let ruleset = shipped else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for line in bytes.split(separator: 0x0A) where line.count <= 1 << 20 {
        let general = JSONReader.parse(Array(line), file: "row", maxBytes: 1 << 20, maxDepth: RowJSON.maxDepth)
        let row = RowJSON.parse(line)
        if (row != nil) != general.diagnostics.isEmpty {
            FileHandle.standardError.write(Data("the rows' reader and the general one disagree on whether a line is JSON\n".utf8))
            abort()
        }
        if let row, let node = general.documents.first, !row.matches(node) {
            FileHandle.standardError.write(Data("the rows' reader read other values than the general one\n".utf8))
            abort()
        }
    }
    var rows = TelemetryReader(features: "fuzz")
    rows.knownRoutines = Set(ruleset.routines.map(\.id))
    rows.knownTypes = Set(ruleset.notifications.map(\.id))
    rows.read(bytes: bytes, name: "fuzz.jsonl")
    rows.finish()
    if rows.failed, rows.problems.contains(where: { !$0.hasPrefix("fuzz.jsonl:") }) { abort() }
    if !rows.failed, !rows.users.isEmpty { fitted(rows, ruleset: ruleset, k: nil) }
    var reader = TelemetryReader(dayStart: ruleset.dayStartsAt, mixed: size % 2 == 0 ? .refuse : .all)
    reader.read(bytes: bytes, name: "fuzz.jsonl")
    reader.finish()
    // A refusal always says where and why.
    if reader.failed, reader.problems.contains(where: { !$0.hasPrefix("fuzz.jsonl:") }) { abort() }
    guard !reader.failed, !reader.users.isEmpty else { return 0 }
    fitted(reader, ruleset: ruleset, k: size % 3 == 0 ? 2 : nil)
    return 0
}

/// Fits what `reader` read; the fitted file must parse and load as a population.
private func fitted(_ reader: TelemetryReader, ruleset: Ruleset, k: Int?) {
    let fit = PopulationFit(reader, ruleset: ruleset, k: k)
    let (population, writer) = fit.written(name: "fuzz", seed: 7, timeZone: "Asia/Seoul", rulesetKey: reader.majority, ruleset: ruleset)
    let text = writer.yaml(population)
    let parsed = YAMLReader.parse(text, file: "fitted.yaml")
    guard parsed.isClean, let node = parsed.documents.first else {
        FileHandle.standardError.write(Data("the fitted file does not parse:\n\(text)\n".utf8))
        abort()
    }
    let loaded = PopulationLoader.load(node, file: "fitted.yaml", source: nil, ruleset: ruleset)
    if loaded.population == nil || loaded.diagnostics.contains(where: { $0.severity == .error }) {
        FileHandle.standardError.write(Data("the fitted file does not load: \(loaded.diagnostics.map(\.message))\n\(text)\n".utf8))
        abort()
    }
    // The file means what the fit built: the loader reads back the values it wrote.
    if let differences = loaded.population?.differences(from: population), !differences.isEmpty {
        FileHandle.standardError.write(Data("the fitted file loads other values: \(differences)\n\(text)\n".utf8))
        abort()
    }
}
