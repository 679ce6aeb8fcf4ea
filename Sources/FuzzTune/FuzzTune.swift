// libFuzzer entry point for `rules tune`'s knob ranges and targets: each line of the input is
// read as `--vary KNOB=RANGE` (when it holds `=` but no comparison) or as `--target`, against
// the shipped ruleset's knobs and metrics. Never a trap; every value a range accepts lies
// within its knob's bounds, and writing it into the file leaves YAML that parses with the
// value in place. Run from the repository root: Fuzz/run.sh FuzzTune.
import Foundation
import RulesDiagnostics
import RulesPopulation
import RulesTune
import RulesYAML
import Ruleset
import RulesetFiles

private let load = Ruleset.load(directory: FileManager.default.currentDirectoryPath)
private let catalogue = load.ruleset.map { KnobCatalogue(ruleset: $0, documents: load.documents, sources: load.sources) }
private let metrics = load.ruleset.map { PopulationMetric.names(ruleset: $0, groups: ["a", "b"], answers: true) } ?? []

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    guard catalogue == nil else { return 0 }
    FileHandle.standardError.write(Data("FuzzTune: no shipped ruleset here; run it from the repository root\n".utf8))
    exit(2)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTune(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let catalogue else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(8).map(String.init) {
        let comparison = ["<", ">"].contains { line.contains($0) }
        if line.contains("="), !comparison {
            guard case .success(let (knob, values)) = KnobRange.parse(line, catalogue: catalogue) else { continue }
            if values.isEmpty || values.count > KnobRange.maxValues || values.contains(where: { !knob.bounds.contains($0) }) { abort() }
            if values != values.sorted() || Set(values).count != values.count { abort() }
            // The first and last values written into the file stay YAML with the value in place.
            for value in [values[0], values[values.count - 1]] {
                var setting = catalogue.knobs.map(\.current)
                guard let index = catalogue.knobs.firstIndex(of: knob) else { abort() }
                setting[index] = value
                let texts = KnobEdit.texts(KnobSetting(setting), knobs: catalogue.knobs, sources: load.sources)
                guard let edited = texts[knob.file] else {
                    if value != knob.current { abort() }
                    continue
                }
                if !YAMLReader.parse(edited, file: knob.file).isClean { abort() }
                if !edited.contains(knob.literal(value)) { abort() }
            }
        } else {
            switch TuneTarget.parse(line, metrics: metrics) {
            case .success(let target):
                if !metrics.contains(target.metric) || !target.bound.isFinite { abort() }
            case .failure(let problem):
                if problem.message.isEmpty { abort() }
            }
        }
    }
    return 0
}
