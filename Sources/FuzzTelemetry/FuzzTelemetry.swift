// libFuzzer entry point for telemetry: any bytes are read as telemetry lines against the
// shipped ruleset; what reads is fitted (however few users) and the fitted population file must
// load as a population without an error. Never a trap. Run from the repository root:
// Fuzz/run.sh FuzzTelemetry.
import Foundation
import RulesDocument
import RulesSimulator
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
    var reader = TelemetryReader(dayStart: ruleset.dayStartsAt, mixed: size % 2 == 0 ? .refuse : .all)
    reader.read(bytes: bytes, name: "fuzz.jsonl")
    reader.finish()
    // A refusal always says where and why.
    if reader.failed, reader.problems.contains(where: { !$0.hasPrefix("fuzz.jsonl:") }) { abort() }
    guard !reader.failed, !reader.users.isEmpty else { return 0 }
    let fit = PopulationFit(reader, ruleset: ruleset, k: size % 3 == 0 ? 2 : nil)
    let text = fit.yaml(name: "fuzz", seed: 7, timeZone: "Asia/Seoul", rulesetKey: reader.majority)
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
    return 0
}
