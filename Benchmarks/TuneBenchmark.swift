import Foundation
import RulesCLI
import RulesPopulation
import Ruleset

/// `rules tune` as a designer runs it: 24 candidates (3 caps × 4 evening times × 2 light-route
/// thresholds), the last round at 1,000 users × 14 days of the office workers (who act, tire
/// and opt out), 2 jobs; goal ≤ 20 s wall. Printed next to living one ruleset at full size in
/// the same run, with the user-days the search lived and their share of living every
/// candidate at full size (336,000).
enum TuneBenchmark {
    static let arguments = [
        "tune", "populations/office_workers.yaml", "--users", "1000", "--days", "14", "--jobs", "2", "--vary", "policy.max_per_day=2..4",
        "--vary", "notifications.evening_underachievement.at=19:30..21:00/30m", "--vary", "route.short_sleep=330,360", "--target",
        "busiest_day.at_least_3.share <= 60%", "--maximise", "answers.completions.water.completions", "--format", "json",
    ]

    static func run(repository: String) {
        guard let (population, ruleset) = PopulationBenchmark.load(repository) else {
            print("tune: the shipped ruleset or populations/office_workers.yaml does not load")
            return
        }
        let one = Measure.best(runs: 1) {
            let options = PopulationOptions(population: population, users: 1_000, days: 14, jobs: 2)
            blackHole(PopulationRun.run(population, ruleset: ruleset, options: options))
        }
        var output = ""
        var code = ExitCode.success
        let wall = Measure.best(runs: 1) {
            let io = CommandIO(
                out: { output += $0 }, err: { _ in }, stdoutIsTerminal: false, environment: [:], currentDirectory: repository)
            code = RulesCLI.run(arguments: arguments, io: io)
        }
        guard code == .success, let data = output.data(using: .utf8),
            let report = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let lived = report["user_days"] as? Int, let full = report["full_size_user_days"] as? Int, full > 0
        else {
            print("tune: the search did not finish (exit \(code))")
            return
        }
        let rounds = (report["rounds"] as? [Int])?.map(String.init).joined(separator: " → ") ?? "?"
        print(
            "tune: \(Measure.format(wall, decimals: 1)) s wall for 24 candidates, rounds of \(rounds) users x 14 days, 2 jobs (goal ≤ 20 s); "
                + "lived \(lived) user-days = \(Measure.format(Double(lived) / Double(full) * 100, decimals: 1)) % of \(full) (every candidate at full size); "
                + "\(Measure.format(wall / one, decimals: 1))x living one ruleset at full size (\(Measure.format(one, decimals: 1)) s)")
        statedQuestion(repository: repository)
    }

    /// "Which daily cap (1–4) and evening notice time (19:30–22:00) get the most successful days
    /// while fewer than 2 % switch every notice off?", asked with ten seeds: each seed's pick,
    /// wall time and share of full-size user-days (a pick that flips with the seed, or "none",
    /// is not an answer).
    static let stated = [
        "tune", "populations/office_workers.yaml", "--users", "1000", "--days", "14", "--jobs", "2", "--vary", "policy.max_per_day=1..4",
        "--vary", "notifications.evening_underachievement.at=19:30..22:00/30m", "--target", "answers.opted_out_all.share < 2%", "--maximise",
        "day_results.success", "--format", "json",
    ]

    static func statedQuestion(repository: String) {
        for seed in [7, 8, 11, 42, 1, 2, 3, 4, 5, 6] {
            var output = ""
            var code = ExitCode.success
            let wall = Measure.best(runs: 1) {
                let io = CommandIO(out: { output += $0 }, err: { _ in }, stdoutIsTerminal: false, environment: [:], currentDirectory: repository)
                code = RulesCLI.run(arguments: stated + ["--seed", "\(seed)"], io: io)
            }
            let report = output.data(using: .utf8).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
            let candidates = report["candidates"] as? [[String: Any]] ?? []
            let pick = (report["best"] as? Int).flatMap { $0 < candidates.count ? candidates[$0]["values"] as? [String: String] : nil }
            let lived = Double(report["user_days"] as? Int ?? 0) / Double(Swift.max(1, report["full_size_user_days"] as? Int ?? 1)) * 100
            func words(_ values: [String: String]) -> String {
                "cap \(values["policy.max_per_day"] ?? "?") at \(values["notifications.evening_underachievement.at"] ?? "?")"
            }
            let ties = (report["tied_with_best"] as? [[String: Any]] ?? []).compactMap { tie in
                (tie["candidate"] as? Int).flatMap { $0 < candidates.count ? candidates[$0]["values"] as? [String: String] : nil }.map(words)
            }
            let picked = (pick.map(words) ?? "none") + (ties.isEmpty ? "" : ", tied with \(ties.joined(separator: ", "))")
            print(
                "tune, the stated question, seed \(seed): \(picked) (exit \(code.rawValue)); \(Measure.format(wall, decimals: 1)) s wall (goal ≤ 20 s), "
                    + "\(Measure.format(lived, decimals: 1)) % of full-size user-days")
        }
    }
}
