// libFuzzer entry point for the engine: the bytes become one change to a shipped rule file
// (a value, a threshold, a table condition or a template text) and a day of events. Whatever
// the check accepts must simulate without trapping, and its trace must keep the invariants:
// no day over the cap, nothing delivered inside quiet hours unless the type allows it, and no
// lock-screen text made from a sensitive fact unless redacted. Run from the repository root:
// Fuzz/run.sh FuzzEngine.
import Foundation
import RulesDocument
import RulesEngine
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles

private let files = RulesetDirectory.files(in: FileManager.default.currentDirectoryPath, folders: RulesetDirectory.rulesetFolders)
private let texts = files.map { (try? String(contentsOfFile: $0.path, encoding: .utf8)) ?? "" }
/// The shipped files parsed once: an input re-parses only the file it changes.
private let parsed: [[RuleDocument]] = zip(files, texts).map { file, text in documents(text, file) }

private func documents(_ text: String, _ file: RulesetDirectory.File) -> [RuleDocument] {
    let parsed = YAMLReader.parse(text, file: file.display)
    guard parsed.isClean else { return [] }
    return parsed.documents.map { RuleDocument(file: file.display, kind: file.folder == "routines" ? .routines : .sections, node: $0, source: nil) }
}

/// Values a mutation writes: large and edge numbers, times, durations, conditions, texts.
private let values = [
    "0", "1", "-1", "1000000000", "999999999.5", "1e9", "3", "64", "0.6", "60%", "100%", "\"00:00\"", "\"04:00\"", "\"22:30\"",
    "\"23:59\"", "\"24:00\"", "90m", "0m", "24h", "\"true\"", "\"false\"", "\"now >= 21:00\"", "\"completion_rate < 0.6\"",
    "\"risk == \\\"high\\\"\"", "\"(sleep.minutes ?? 420) < 360\"", "\"{completed}/{total}\"", "\"{sleep.minutes|hm}\"",
    "\"{recovery.items_text}만\"", "\"{water.ml * 100000 | thousands}\"", "defer", "allow", "drop", "passive", "off",
    "every_other_day", "[]", "[recovery]", "[light, recovery]",
]

private struct Bytes {
    var data: UnsafeBufferPointer<UInt8>
    var index = 0
    mutating func next(_ bound: Int) -> Int {
        guard bound > 0, index < data.count else { return 0 }
        defer { index += 1 }
        return Int(data[index]) % bound
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Bytes(data: UnsafeBufferPointer(start: data, count: size))
    guard !files.isEmpty else { return 0 }
    // One mutation: a line with `key: value` in one file gets another value.
    let fileIndex = bytes.next(files.count)
    var lines = texts[fileIndex].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let candidates = lines.indices.filter { lines[$0].contains(": ") && !lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("#") }
    if !candidates.isEmpty {
        let line = candidates[(bytes.next(256) * 256 + bytes.next(256)) % candidates.count]
        if let colon = lines[line].range(of: ": ", options: .backwards) {
            lines[line] = String(lines[line][..<colon.upperBound]) + values[bytes.next(values.count)]
        }
    }
    var all: [RuleDocument] = []
    for index in files.indices {
        if index == fileIndex {
            let changed = documents(lines.joined(separator: "\n"), files[index])
            guard !changed.isEmpty else { return 0 }
            all += changed
        } else {
            all += parsed[index]
        }
    }
    guard let ruleset = Ruleset.load(documents: all).ruleset else { return 0 }
    // A day of events from the rest of the bytes, in time order.
    var events: [String] = []
    var minute = 6 * 60
    let kinds = [
        "app: open", "widget: log_water_250", "widget: complete_skincare", "widget: start_recovery", "action: skip_today",
        "action: reduce_route", "log: { routine: water, value: 300 }", "log: { routine: study, value: 25 }",
        "check: { routine: skincare, item: 양치 }", "settings: { routine_reminder: true, reminders: { water: \"22:45\" } }",
    ]
    while bytes.index < bytes.data.count, events.count < 40 {
        minute += 1 + bytes.next(90)
        guard minute < 27 * 60 else { break }
        let time = String(format: "%02d:%02d", (minute / 60) % 24, minute % 60)
        events.append("  - { at: \"\(time)\", \(kinds[bytes.next(kinds.count)]) }")
    }
    let yaml = """
        name: fuzz
        date: 2026-07-20
        timezone: Asia/Seoul
        health: { permission: { steps: granted, sleep: granted }, sleep: { start: "01:30", end: "07:00" }, steps: { "07:00": 0, "22:00": 4000 } }
        events:
        \(events.isEmpty ? "  []" : events.joined(separator: "\n"))
        """
    guard let node = YAMLReader.parse(yaml, file: "fuzz.yaml").documents.first,
        let scenario = ScenarioLoader.load(node, file: "fuzz.yaml", source: nil, ruleset: ruleset).scenario
    else { return 0 }
    let result = Simulation.run(scenario, ruleset: ruleset)
    check(result, ruleset: ruleset)
    return 0
}

/// The invariants of a trace (the ones `rules population` counts); a violation aborts.
private func check(_ result: SimulationResult, ruleset: Ruleset) {
    var invariants = Invariants(ruleset: ruleset, clock: result.scenario.clock)
    for record in result.records {
        // Problem records are allowed here: a mutated ruleset may hold an expression that
        // fails at run time, which is reported, not a trap.
        if !invariants.check(record).allSatisfy({ $0.kind == .problems }) { abort() }
    }
}
