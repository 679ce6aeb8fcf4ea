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
        let event = EngineEvent.widget(.logWater250)
        let now = clock.instant(day: day, seconds: 15 * 3600)
        let days = [10, 10_000].map { (logs: $0, bytes: midDayState(logs: $0, prepared: prepared, clock: clock, day: day)) }
        var outcomes = ["", ""]
        // Both days' launches and baselines measured in turns (one of each per round, the
        // median of each over the rounds): measured one after the other, a host whose speed
        // drifted between them moved the growth figure (1.2–2.6x in one afternoon).
        var bodies: [() -> Void] = []
        for (index, day) in days.enumerated() {
            bodies.append {
                guard var state = EngineState.decode(day.bytes).state else { return }
                let effects = OperatorEngine.run(&state, [event], prepared, now: now)
                let saved = (try? state.encoded()) ?? Data()
                outcomes[index] = "\(effects.records.count) records, \(saved.count) bytes saved"
            }
            bodies.append {
                guard let object = try? JSONSerialization.jsonObject(with: day.bytes) else { return }
                blackHole(try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
            }
        }
        let medians = Measure.medianInTurns(runs: 201, bodies)
        for (index, day) in days.enumerated() {
            let (launch, baseline) = (medians[2 * index], medians[2 * index + 1])
            // Where a launch goes.
            let decode = Measure.median(runs: 101) { blackHole(EngineState.decode(day.bytes).state) }
            let decoded = EngineState.decode(day.bytes).state
            let step = Measure.median(runs: 101) {
                guard var state = decoded else { return }
                blackHole(OperatorEngine.run(&state, [event], prepared, now: now).records.count)
            }
            let encode = Measure.median(runs: 101) { blackHole(try? decoded?.encoded()) }
            print(
                "app-run.\(day.logs)-logs.parts: decode \(Measure.format(decode * 1000, decimals: 3)) ms, run \(Measure.format(step * 1000, decimals: 3)) ms, encode \(Measure.format(encode * 1000, decimals: 3)) ms"
            )
            print(
                "app-run.\(day.logs)-logs: state \(day.bytes.count) bytes; launch \(Measure.format(launch * 1000, decimals: 3)) ms median (\(outcomes[index])); JSON decode+encode \(Measure.format(baseline * 1000, decimals: 3)) ms; ratio \(Measure.format(launch / baseline))x (goal: a launch under 1 ms, the same for both days)"
            )
        }
        print(
            "app-run.growth: a launch with 10,000 logs in the day costs \(Measure.format(medians[2] / medians[0]))x one with 10, measured in turns (goal: under 2x)"
        )
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
}
