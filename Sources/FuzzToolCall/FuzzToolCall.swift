// libFuzzer entry point for model tool calls: the JSON reader, the validator and the engine
// applying an accepted call must never trap or hang, whatever the text. Run from the
// repository root (it loads the shipped ruleset): Fuzz/run.sh FuzzToolCall.
import Foundation
import RulesEngine
import Ruleset
import RulesetFiles

private let shipped = Ruleset.load(directory: FileManager.default.currentDirectoryPath).ruleset
private let day = 20_654
/// The engine after the morning's app run, made once: each input goes on from a copy of it.
private let morning: (engine: OperatorEngine, clock: LocalClock)? = {
    guard let ruleset = shipped, let clock = LocalClock(identifier: "Asia/Seoul") else { return nil }
    var engine = OperatorEngine(ruleset: ruleset, clock: clock)
    _ = engine.run([.appOpened(health: nil)], now: clock.instant(day: day, seconds: 8 * 3600))
    return (engine, clock)
}()

/// Before the first input: without the shipped ruleset every input would pass untested, so say
/// so and stop (an exit inside an input would be reported as a crash).
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    guard shipped == nil || morning == nil else { return 0 }
    let directory = FileManager.default.currentDirectoryPath
    let message = "FuzzToolCall: no shipped ruleset under \(directory); run it from the repository root (Fuzz/run.sh FuzzToolCall)\n"
    FileHandle.standardError.write(Data(message.utf8))
    exit(2)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzToolCall(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let ruleset = shipped, let (start, clock) = morning else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (verdict, call) = ToolValidator(ruleset: ruleset).validate(text)
    // The validator's promises: a call only when accepted, a reason only when not.
    if (call != nil) != (verdict.outcome == .accepted) { abort() }
    if verdict.outcome == .rejected, verdict.rejection == nil { abort() }
    var engine = start
    let before = engine.habitLogs.count
    let records = engine.run([.toolCall(text)], now: clock.instant(day: day, seconds: 9 * 3600)).records
    // Nothing changes unless the call was accepted.
    if verdict.outcome != .accepted, engine.habitLogs.count != before { abort() }
    if records.isEmpty { abort() }
    return 0
}
