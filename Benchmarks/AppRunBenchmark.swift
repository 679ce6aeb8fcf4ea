import Foundation
import RulesEngine
import Ruleset

/// The app's cost per launch: decode a mid-day state, run one event, encode the state — as
/// iOS starts the app, the app answers, and iOS ends it. Printed as the median over many
/// launches, next to a plain JSON decode and encode of the same bytes (the baseline), for a
/// day of 10 logs and one of 10,000 (the state keeps at most 64 one by one: the cost must
/// not grow with the day; the two launches' ratio is printed).
enum AppRunBenchmark {
    static func run(repository: String) {
        guard let ruleset = Ruleset.load(directory: repository).ruleset, let clock = LocalClock(identifier: "Asia/Seoul") else {
            print("app-run: the shipped ruleset does not load")
            return
        }
        let prepared = PreparedRuleset(ruleset)
        let day = 20_633
        var launches: [Double] = []
        for logs in [10, 10_000] {
            let bytes = midDayState(logs: logs, prepared: prepared, clock: clock, day: day)
            let event = EngineEvent.widget(.logWater250)
            let now = clock.instant(day: day, seconds: 15 * 3600)
            var outcome = ""
            let launch = median(runs: 201) {
                guard var state = EngineState.decode(bytes).state else { return }
                let effects = OperatorEngine.run(&state, [event], prepared, now: now)
                let saved = (try? state.encoded()) ?? Data()
                outcome = "\(effects.records.count) records, \(saved.count) bytes saved"
            }
            let baseline = median(runs: 201) {
                guard let object = try? JSONSerialization.jsonObject(with: bytes) else { return }
                blackHole(try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
            }
            launches.append(launch)
            // Where a launch goes.
            let decode = median(runs: 101) { blackHole(EngineState.decode(bytes).state) }
            let decoded = EngineState.decode(bytes).state
            let step = median(runs: 101) {
                guard var state = decoded else { return }
                blackHole(OperatorEngine.run(&state, [event], prepared, now: now).records.count)
            }
            let encode = median(runs: 101) { blackHole(try? decoded?.encoded()) }
            print(
                "app-run.\(logs)-logs.parts: decode \(Measure.format(decode * 1000, decimals: 3)) ms, run \(Measure.format(step * 1000, decimals: 3)) ms, encode \(Measure.format(encode * 1000, decimals: 3)) ms"
            )
            print(
                "app-run.\(logs)-logs: state \(bytes.count) bytes; launch \(Measure.format(launch * 1000, decimals: 3)) ms median (\(outcome)); JSON decode+encode \(Measure.format(baseline * 1000, decimals: 3)) ms; ratio \(Measure.format(launch / baseline))x (goal: a launch under 1 ms, the same for both days)"
            )
        }
        if launches.count == 2 {
            print(
                "app-run.growth: a launch with 10,000 logs in the day costs \(Measure.format(launches[1] / launches[0]))x one with 10 (goal: under 2x)"
            )
        }
    }

    /// The saved state after a morning: an app open, then `logs` water logs.
    static func midDayState(logs: Int, prepared: PreparedRuleset, clock: LocalClock, day: Int) -> Data {
        var state = EngineState(ruleset: prepared.ruleset, clock: clock)
        let health = HealthReading(stepsPermission: .granted, sleepPermission: .granted, stepsToday: 1200, sleepMinutes: 390)
        _ = OperatorEngine.run(&state, [.appOpened(health: health)], prepared, now: clock.instant(day: day, seconds: 8 * 3600))
        // One engine for the morning's taps (a fresh engine per tap would make the setup
        // quadratic); the state it leaves is what the app would have saved.
        guard var engine = OperatorEngine(prepared: prepared, state: state) else { return Data() }
        for index in 0..<logs {
            _ = engine.run(
                [.log(routine: "water", value: 10, unit: nil, source: .manual)], now: clock.instant(day: day, seconds: 9 * 3600 + index % 3600))
        }
        return (try? engine.state.encoded()) ?? Data()
    }

    /// The median of `runs` timings of `body`, in seconds.
    static func median(runs: Int, _ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        times.sort()
        return times[times.count / 2]
    }
}
