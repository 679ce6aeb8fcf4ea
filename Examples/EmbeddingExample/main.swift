// How the iOS app embeds the engine: it links only Ruleset and RulesEngine (Foundation and
// the platform's Ed25519, no libyaml), loads a downloaded bundle only when a key it trusts
// signed it, feeds the day's events and reads back what home, the widget and the
// notification center need.
//
//   swift run rules keygen --out keys
//   swift run rules bundle --sign keys/<id>.key --sequence 1 --out ruleset.bundle.json
//   swift run EmbeddingExample ruleset.bundle.json --trust keys/<id>.pub
//
// With `--state FILE --at HH:MM --event open|water|study` it does what the app does at one
// launch: restore the saved state (or start fresh), hand the engine one event, apply the
// effects, save the state. Run it twice and the second process goes on from the first.
import Foundation
import RulesEngine
import Ruleset

let arguments = Array(CommandLine.arguments.dropFirst())
let path = arguments.first ?? "ruleset.bundle.json"
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
/// The bytes of the regular file at `path` (a FIFO or device is refused at once, never
/// waited on), nil otherwise.
func regularFile(_ path: String) -> Data? {
    guard (try? URL(fileURLWithPath: path).resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { return nil }
    return FileManager.default.contents(atPath: path)
}
guard let data = regularFile(path) else {
    FileHandle.standardError.write(Data("cannot read \(path); make it with: swift run rules bundle --sign KEY --sequence N --out \(path)\n".utf8))
    exit(2)
}
// The keys the app trusts ship in the app (here: public key files given with --trust).
var keyFiles: [String] = []
for (index, argument) in arguments.enumerated() where argument == "--trust" && index + 1 < arguments.count {
    guard let bytes = regularFile(arguments[index + 1]), let text = String(data: bytes, encoding: .utf8) else {
        FileHandle.standardError.write(Data("cannot read the public key \(arguments[index + 1])\n".utf8))
        exit(2)
    }
    keyFiles.append(text)
}
guard let keys = TrustedKeys(publicKeyFiles: keyFiles), !keys.ids.isEmpty else {
    FileHandle.standardError.write(Data("give the public key the bundle was signed with: --trust keys/<id>.pub\n".utf8))
    exit(2)
}

// Only a bundle signed by a trusted key, for this channel and install, loads; a forged,
// replayed, expired or foreign one is refused and the last good rules stay.
let installID = option("--install") ?? "example-install"
let load = Ruleset.load(bundle: data, trust: BundleTrust(keys: keys, channel: "stable", now: Date(), installID: installID))
guard let ruleset = load.ruleset, let release = load.release else {
    let first = load.diagnostics.first
    FileHandle.standardError.write(Data("the bundle at \(path) was refused: \(first.map { "\($0.message) [\($0.code)]" } ?? "")\n".utf8))
    exit(1)
}
let signers = load.verifiedKeys.isEmpty ? "" : ", signed by " + load.verifiedKeys.joined(separator: ", ")
print(
    "accepted \(path): sequence \(release.sequence), channel \(release.channel)\(signers); \(ruleset.routines.count) routines, \(ruleset.notifications.count) notification types"
)
let store = RulesetStore(ruleset: ruleset, keys: keys, installID: installID, acceptedSequence: release.sequence)
// Replay protection: the same bundle offered again (its sequence is no longer newer) is refused.
if case .failure(let refusal) = store.offer(bundle: data) {
    print("then refused the same bundle offered again, as a replay: \(refusal.diagnostics.first?.message ?? "")")
}

guard let clock = LocalClock(identifier: "Asia/Seoul") else { exit(1) }
// Prepared once per ruleset (its tables worked out once) and shared by every run.
let prepared = PreparedRuleset(store.current)

// One app launch: restore, run one event, apply the effects, save.
if let statePath = option("--state") {
    var state = EngineState(ruleset: store.current, clock: clock)
    if let saved = regularFile(statePath) {
        let restored = EngineState.decode(saved, file: statePath)
        if let good = restored.state {
            state = good
        } else {
            print("saved state refused (\(restored.diagnostics.first?.message ?? "")): starting fresh")
        }
    }
    let parts = (option("--at") ?? "08:30").split(separator: ":").compactMap { Int($0) }
    let now = clock.instant(day: 20_633, seconds: (parts.first ?? 8) * 3600 + (parts.dropFirst().first ?? 30) * 60)
    let event: EngineEvent
    switch option("--event") ?? "open" {
    case "water": event = .widget(.logWater250)
    case "study": event = .log(routine: "study", value: 25, unit: .minutes, source: .timer)
    default:
        event = .appOpened(health: HealthReading(stepsPermission: .granted, sleepPermission: .granted, stepsToday: 1200, sleepMinutes: 330))
    }
    let effects = OperatorEngine.run(&state, [event], prepared, now: now)
    for request in effects.schedule { print("schedule \(request.id) at \(clock.iso8601(request.scheduledAt))") }
    for cancel in effects.cancel { print("cancel \(cancel.id) (\(cancel.reason.rawValue))") }
    if let widget = effects.widget { print("widget: \(widget.json(clock: clock).rendered())") }
    print("logs today: \(state.snapshot.map { "\($0.waterML) ml water, \($0.completedRoutines)/\($0.totalRoutines) done" } ?? "none")")
    do {
        try state.encoded().write(to: URL(fileURLWithPath: statePath), options: .atomic)
    } catch {
        FileHandle.standardError.write(Data("cannot save the state to \(statePath): \(error)\n".utf8))
        exit(2)
    }
    exit(0)
}

// A day of events as the app lives it: every launch is one run of the same function, the
// state saved between them (iOS ends the app after each).
var state = EngineState(ruleset: store.current, clock: clock)
let day = 20_633  // 2026-06-29
func at(_ hour: Int, _ minute: Int) -> Date { clock.instant(day: day, seconds: hour * 3600 + minute * 60) }
func health(steps: Int) -> HealthReading {
    HealthReading(
        stepsPermission: .granted, sleepPermission: .granted, stepsToday: steps, stepsAverage7: 5200, sleepMinutes: 330, sleepStart: 80 * 60,
        sleepEnd: 410 * 60)
}
let launches: [(Date, [EngineEvent])] = [
    (at(8, 30), [.appOpened(health: health(steps: 540))]),
    (at(9, 10), [.widget(.logWater250)]),
    (at(12, 30), [.log(routine: "study", value: 25, unit: .minutes, source: .timer)]),
    (at(13, 0), [.widget(.completeSupplement)]),
    (at(18, 0), [.appOpened(health: health(steps: 3240))]),
    (at(21, 10), []),  // iOS delivered what was due; the app did not run
    (at(21, 10), [.appOpened(health: health(steps: 3240))]),
]
for (now, events) in launches { _ = OperatorEngine.run(&state, events, prepared, now: now) }

print("DailySnapshot:")
print(state.snapshot?.json(clock: clock).prettyRendered() ?? "none")
print("widget:")
print(state.snapshot?.widgetJSON(clock: clock).prettyRendered() ?? "none")
print("notification plan:")
for request in state.pending {
    print("  " + request.json(clock: clock).rendered())
}
