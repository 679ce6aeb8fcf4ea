// libFuzzer entry point for the engine: the bytes become one change to a shipped rule file
// (a value, a threshold, a table condition or a template text) and a day of events. Whatever
// the check accepts must simulate without trapping, and its trace must keep the invariants:
// no day over the cap, nothing delivered inside quiet hours unless the type allows it, and no
// lock-screen text made from a sensitive fact unless redacted. Every step runs with the
// comparing switch (`Verification.compared`): a kept memo that changes a record, the saved
// state or an explanation traps. The rest of the bytes drive the
// app's own inputs under the same ruleset: events with hostile values (non-finite and huge
// numbers, unknown ids, settings of any kind, times outside the engine's days), then the saved
// state with one value changed (or every number at one of its bounds); every state the engine saves must read back, and every
// changed state the decoder accepts must live on. Run from the repository root:
// Fuzz/run.sh FuzzEngine.
import Foundation
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport

private let files = RulesetDirectory.files(in: FileManager.default.currentDirectoryPath, folders: RulesetDirectory.rulesetFolders)
/// A shipped file that cannot be read stops the fuzzer before it starts: fuzzing without it
/// would pass on a ruleset nobody ships.
private let texts: [String] = files.map { file in
    guard let text = try? String(contentsOfFile: file.path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("FuzzEngine: cannot read \(file.path); run it from the repository's root\n".utf8))
        exit(2)
    }
    return text
}
/// The shipped files parsed once: an input re-parses only the file it changes.
private let parsed: [[RuleDocument]] = zip(files, texts).map { file, text in documents(text, file) }

private func documents(_ text: String, _ file: RulesetDirectory.File) -> [RuleDocument] {
    let parsed = YAMLReader.parse(text, file: file.display)
    guard parsed.isClean else { return [] }
    return parsed.documents.map { RuleDocument(file: file.display, kind: file.folder == "routines" ? .routines : .sections, node: $0, source: nil) }
}

/// Values a mutation writes: large and edge numbers, times, durations, conditions, texts, and
/// `at:`/`when:` that read `now`, steps, settings and logs (the memos' keys must cover them).
private let values = [
    "0", "1", "-1", "1000000000", "999999999.5", "1e9", "3", "64", "0.6", "60%", "100%", "\"00:00\"", "\"04:00\"", "\"22:30\"",
    "\"23:59\"", "\"24:00\"", "90m", "0m", "24h", "\"true\"", "\"false\"", "\"now >= 21:00\"", "\"completion_rate < 0.6\"",
    "\"risk == \\\"high\\\"\"", "\"(sleep.minutes ?? 420) < 360\"", "\"{completed}/{total}\"", "\"{sleep.minutes|hm}\"",
    "\"{recovery.items_text}만\"", "\"{water.ml * 100000 | thousands}\"", "defer", "allow", "drop", "passive", "off",
    "every_other_day", "[]", "[recovery]", "[light, recovery]", "now + 2h", "\"now + 30m\"", "\"steps.today > 2000 ? 12:00 : 18:00\"",
    "\"routines.water.value > 600 ? now + 1h : 21:00\"", "\"(settings.bedtime ?? 22:00) - 3h\"", "\"routines.water.value < 1000 || now >= 16:00\"",
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

/// Before the first input: without the shipped files every input would pass untested, so say
/// so and stop (an exit inside an input would be reported as a crash).
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    guard files.isEmpty else {
        _ = texts.count  // read every file now: one that cannot be read stops here, not inside an input
        return 0
    }
    let directory = FileManager.default.currentDirectoryPath
    let message = "FuzzEngine: no rule files under \(directory); run it from the repository root (Fuzz/run.sh FuzzEngine)\n"
    FileHandle.standardError.write(Data(message.utf8))
    exit(2)
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
    // The comparing switch: every step runs again with every memo recomputed, and a
    // difference in its records, saved state or explanations is a problem record — a trap here.
    // Every other input without explanations, as populations run: a plan is kept after its
    // requests are delivered only then (`KeptPlan.afterDeliveries`).
    let options = SimulationOptions(verification: .compared, explains: events.count % 2 == 0)
    let result = Simulation.run(scenario, ruleset: ruleset, options: options)
    check(result, ruleset: ruleset)
    checkDecisionsOnly(scenario, ruleset: ruleset, against: result)
    hostileRun(ruleset, &bytes)
    return 0
}

private let hostileNumbers: [Double] = [.nan, .infinity, -.infinity, -1, 0, .leastNonzeroMagnitude, 250, 1_000_001, 1e300, 9.3e18]
private let hostileInts = [Int.max, Int.min, -1, 0, 420, 86_400, 1_000_000_001]
private let hostileValues: [Value] = [
    .bool(true), .int(.max), .int(-1), .int(3), .number(.nan), .number(1e300), .duration(.max), .duration(5400), .time(.max), .time(-1),
    .time(21 * 3600), .time(86_400), .date(.max), .date(20_654), .string(""), .string("cold_persistent"), .unknown,
    .list([.int(1), .string("x")]), .map(["water": .time(.max)]), .map(["water": .time(22 * 3600), "study": .time(15 * 3600)]),
    .map(["nope": .bool(true)]),
]
private let routineNames = ["water", "study", "skincare", "sleep", "steps", "reading", "", "nope"]
private let itemNames = ["양치", "세수", "로션", "", "nope"]
private let toolCalls = [
    "", "{", "null", #"{"name":"log_habit","arguments":{"routine":"water","value":300}}"#,
    #"{"name":"log_habit","arguments":{"routine":"water","value":1e308}}"#, #"{"name":"start_recovery","arguments":{}}"#,
    #"{"name":"set_reminder","arguments":{"routine":"study","time":"25:00"}}"#, String(repeating: "[", count: 40),
]
/// What a changed number or string of a saved state becomes.
private let stateValues = [
    "1e300", "-1e300", "1e19", "9.2e18", "-9.2e18", "9223372036854775807", "-9223372036854775808", "1000000000", "-1000000000", "1e12",
    "-86401", "-1", "0.5", "null", "\"\"", "\"x\"", "[]", "{}",
]

/// The bounds a saved state's numbers are held to (magnitude 10^9, zero, a day's seconds, a
/// night's minutes, a log's value): a state may have every number at one of them at once.
private let stateBounds = ["1000000000", "-1000000000", "0", "86400", "1440", "1000000", "1"]

/// One event of the app, its values drawn from the hostile tables.
private func hostileEvent(_ engine: OperatorEngine, _ bytes: inout Bytes) -> EngineEvent {
    let ruleset = engine.ruleset
    func health() -> HealthReading {
        HealthReading(
            stepsPermission: .granted, sleepPermission: bytes.next(2) == 0 ? .granted : .denied,
            stepsToday: hostileInts[bytes.next(hostileInts.count)],
            stepsYesterday: 4000, stepsAverage7: hostileInts[bytes.next(hostileInts.count)], sleepMinutes: hostileInts[bytes.next(hostileInts.count)])
    }
    let routine = routineNames[bytes.next(routineNames.count)]
    let logID = "log_20260720_00\(1 + bytes.next(3))"
    let pendingID = engine.pending.first?.id ?? "nope"
    switch bytes.next(13) {
    case 0: return .appOpened(health: bytes.next(3) == 0 ? nil : health())
    case 1: return .log(routine: routine, value: hostileNumbers[bytes.next(hostileNumbers.count)], unit: nil, source: .manual)
    case 2: return .editLog(id: bytes.next(3) == 0 ? "nope" : logID, value: hostileNumbers[bytes.next(hostileNumbers.count)])
    case 3: return .deleteLog(id: logID)
    case 4: return .check(routine: routine, item: itemNames[bytes.next(itemNames.count)])
    case 5: return .uncheck(routine: routine, item: itemNames[bytes.next(itemNames.count)])
    case 6:
        let keys = ruleset.settings.map(\.key) + ["nope"]
        return .settings([keys[bytes.next(keys.count)]: hostileValues[bytes.next(hostileValues.count)]])
    case 7:
        let responses = [NotificationResponse.opened, .ignored] + NotificationAction.allCases.map(NotificationResponse.action)
        return .notificationResponse(id: pendingID, response: responses[bytes.next(responses.count)], health: bytes.next(2) == 0 ? nil : health())
    case 8: return .notificationDelivered(id: pendingID, staleCondition: bytes.next(2) == 0)
    case 9: return .toolCall(toolCalls[bytes.next(toolCalls.count)])
    case 10: return .widget(WidgetIntent.allCases[bytes.next(WidgetIntent.allCases.count)])
    case 11:
        // Trips east and west, a 30-minute DST zone, the same zone, and names that are none.
        let zones = ["Europe/Paris", "America/Los_Angeles", "Pacific/Kiritimati", "Australia/Lord_Howe", "Asia/Seoul", "Mars/Olympus", ""]
        return .timeZoneChanged(zones[bytes.next(zones.count)])
    default: return .action(RouteAction.allCases[bytes.next(RouteAction.allCases.count)])
    }
}

/// Lives a few hostile events, then changes one value of the saved state and lives on from
/// it. A save that does not read back, or a trap anywhere, aborts.
private func hostileRun(_ ruleset: Ruleset, _ bytes: inout Bytes) {
    guard bytes.index < bytes.data.count, let clock = LocalClock(identifier: "Asia/Seoul"), let day = DateFormat.days("2026-07-20") else { return }
    var minute = 7 * 60
    func live(_ engine: inout OperatorEngine, _ count: Int) {
        for _ in 0..<count {
            minute += bytes.next(300)
            let time = bytes.next(16) == 0 ? Date(timeIntervalSince1970: 1e19) : clock.instant(day: day, seconds: minute * 60)
            compared(Verification.compared.run(&engine, [hostileEvent(engine, &bytes)], now: time))
        }
    }
    func saved(_ engine: OperatorEngine) -> [UInt8] {
        guard let data = try? engine.state.encoded(), EngineState.decode(data).state != nil else { abort() }
        return [UInt8](data)
    }
    var engine = OperatorEngine(ruleset: ruleset, clock: clock)
    live(&engine, 1 + bytes.next(6))
    let original = saved(engine)
    let spans = JSONSpans.values(original)
    let all = spans.numbers + spans.strings
    guard !all.isEmpty else { return }
    var changed: [UInt8]
    if bytes.next(4) == 0 {
        // Every number at a bound at once (from the end, so earlier spans stay where they are).
        changed = original
        for span in spans.numbers.sorted(by: { $0.lowerBound > $1.lowerBound }) {
            changed = JSONSpans.replacing(changed, span, with: stateBounds[bytes.next(stateBounds.count)])
        }
    } else {
        let span = all[(bytes.next(256) * 256 + bytes.next(256)) % all.count]
        changed = JSONSpans.replacing(original, span, with: stateValues[bytes.next(stateValues.count)])
    }
    guard let state = EngineState.decode(Data(changed)).state, var restored = OperatorEngine(ruleset: ruleset, state: state) else { return }
    live(&restored, 1 + bytes.next(3))
    minute += 24 * 60
    compared(Verification.compared.run(&restored, [.appOpened(health: nil)], now: clock.instant(day: day, seconds: minute * 60)))
    _ = saved(restored)
}

/// A run's effects under the comparing switch: a memo that changed a decision aborts.
private func compared(_ effects: Effects) {
    if effects.records.contains(where: isMismatch) { abort() }
}

private func isMismatch(_ record: EngineRecord) -> Bool {
    if case .problem(.memoMismatch, _) = record.kind { return true }
    return false
}

/// A population's engine keeps only the records of decisions, makes no snapshot and chooses
/// a line only when choosing it can report a problem (`CompiledExpression.canFailOnValues`):
/// its records must be this run's records of those kinds, in order. A mutated template said
/// not to fail that fails would be missing its problem record here.
private func checkDecisionsOnly(_ scenario: Scenario, ruleset: Ruleset, against result: SimulationResult) {
    let decisions = Simulation.run(scenario, ruleset: ruleset, options: SimulationOptions(recordsKept: .decisions, explains: false))
    let expected = result.records.filter { record in
        switch record.kind {
        case .notificationScheduled, .notificationCancelled, .notificationDelivered, .notificationSuppressed, .routeChanged, .dayClosed,
            .problem:
            true
        default: false
        }
    }
    if decisions.records != expected { abort() }
}

/// The invariants of a trace (the ones `rules population` counts); a violation aborts.
private func check(_ result: SimulationResult, ruleset: Ruleset) {
    var invariants = Invariants(ruleset: ruleset, clock: result.scenario.clock)
    for record in result.records {
        if isMismatch(record) { abort() }
        // Problem records are allowed here: a mutated ruleset may hold an expression that
        // fails at run time, which is reported, not a trap.
        if !invariants.check(record).allSatisfy({ $0.kind == .problems }) { abort() }
    }
}
