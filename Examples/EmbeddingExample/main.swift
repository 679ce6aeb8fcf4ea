// How the iOS app embeds the engine: it links only Ruleset and RulesEngine (Foundation,
// no libyaml), loads a downloaded bundle, feeds the day's events and reads back what home,
// the widget and the notification center need.
//
//   swift run rules bundle --out ruleset.bundle.json
//   swift run EmbeddingExample ruleset.bundle.json
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
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("cannot read \(path); make it with: swift run rules bundle --out \(path)\n".utf8))
    exit(2)
}

// Keep the last good rules: a bad download is refused and the store keeps what it had.
let load = Ruleset.load(bundle: data)
guard let ruleset = load.ruleset else {
    FileHandle.standardError.write(Data("the bundle at \(path) was refused: \(load.diagnostics.first?.message ?? "")\n".utf8))
    exit(1)
}
let store = RulesetStore(ruleset: ruleset)
if case .failure(let refusal) = store.offer(bundle: Data("{\"format\":\"tampered\"}".utf8)) {
    print("refused a tampered download: \(refusal.diagnostics.first?.message ?? "")")
}

guard let clock = LocalClock(identifier: "Asia/Seoul") else { exit(1) }
// Prepared once per ruleset (its tables worked out once) and shared by every run.
let prepared = PreparedRuleset(store.current)

// One app launch: restore, run one event, apply the effects, save.
if let statePath = option("--state") {
    var state = EngineState(ruleset: store.current, clock: clock)
    if let saved = FileManager.default.contents(atPath: statePath) {
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
