// How the iOS app embeds the engine: it links only Ruleset and RulesEngine (Foundation,
// no libyaml), loads a downloaded bundle, feeds the day's events and reads back what home,
// the widget and the notification center need.
//
//   swift run rules bundle --out ruleset.bundle.json
//   swift run EmbeddingExample ruleset.bundle.json
import Foundation
import Ruleset
import RulesEngine

let path = CommandLine.arguments.dropFirst().first ?? "ruleset.bundle.json"
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

// A day of events through the public API.
guard let clock = LocalClock(identifier: "Asia/Seoul") else { exit(1) }
var engine = OperatorEngine(ruleset: store.current, clock: clock)
let day = 20_633  // 2026-06-29
func at(_ hour: Int, _ minute: Int) -> Date { clock.instant(day: day, seconds: hour * 3600 + minute * 60) }
func health(steps: Int) -> HealthReading {
    HealthReading(stepsPermission: .granted, sleepPermission: .granted, stepsToday: steps, stepsAverage7: 5200, sleepMinutes: 330, sleepStart: 80 * 60, sleepEnd: 410 * 60)
}
engine.handle(.appOpened(health: health(steps: 540)), at: at(8, 30))
engine.handle(.widget(.logWater250), at: at(9, 10))
engine.handle(.log(routine: "study", value: 25, unit: .minutes, source: .timer), at: at(12, 30))
engine.handle(.widget(.completeSupplement), at: at(13, 0))
engine.handle(.appOpened(health: health(steps: 3240)), at: at(18, 0))
engine.advance(to: at(21, 10))
engine.handle(.appOpened(health: health(steps: 3240)), at: at(21, 10))

print("DailySnapshot:")
print(engine.snapshot?.json(clock: clock).prettyRendered() ?? "none")
print("widget:")
print(engine.snapshot?.widgetJSON(clock: clock).prettyRendered() ?? "none")
print("notification plan:")
for request in engine.pending {
    print("  " + request.json(clock: clock).rendered())
}
