import Foundation
import RulesEngine
import RulesPopulation
import RulesSimulator
import Ruleset

/// The engine's verification switch on synthetic users (`memo-check`): each of 10,000
/// office workers' 14 days (answering their notifications as the population's users do) is
/// lived three times — memoised, as the app and populations run; with every memo recomputed
/// at every step; and compared (each step made both ways, a difference an
/// `engine.memo_mismatch` record) — and the three must give the same records and the same
/// state to save. Half the users are lived as a trace keeps them (every record, with
/// explanations, which the comparing runs compare too), half as a population lives them
/// (records of decisions only, no snapshot, no explanations). Prints the users and records checked and every
/// user that differs; the last line says whether all were identical. Not a timing: run it
/// in a release build because it lives 420,000 user-days.
enum MemoCheck {
    struct Finding: Sendable {
        var user: Int
        var what: String
    }

    static func run(repository: String, users: Int = 10_000, days: Int = 14) {
        guard let (population, ruleset) = PopulationBenchmark.load(repository) else {
            print("memo-check: the shipped ruleset or populations/office_workers.yaml does not load")
            return
        }
        let options = PopulationOptions(population: population, users: users, days: days, jobs: 1)
        let jobs = 2
        let results = PopulationRun.Results<(records: Int, findings: [Finding])>(count: jobs)
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var records = 0
            var findings: [Finding] = []
            for number in stride(from: 1 + job, through: users, by: jobs) {
                // Even users as a trace keeps them (every record, explanations compared);
                // odd ones as a population lives them (records of decisions, no explanations).
                let asTrace = number % 2 == 0
                func lived(_ verification: Verification) -> SimulationResult {
                    PopulationRun.replay(
                        population, ruleset: ruleset, user: number, options: options,
                        simulation: SimulationOptions(recordsKept: asTrace ? .all : .decisions, verification: verification, explains: asTrace))
                }
                let (memoised, recomputed, compared) = (lived(.memoised), lived(.recomputed), lived(.compared))
                records += memoised.records.count
                if let what = memoised.switchDifference(recomputed: recomputed, compared: compared) {
                    findings.append(Finding(user: number, what: what))
                }
            }
            results.set(job, (records, findings))
        }
        let all = results.all()
        let findings = all.flatMap(\.findings).sorted { $0.user < $1.user }
        for finding in findings.prefix(20) { print("memo-check: user \(finding.user): \(finding.what)") }
        let checked = all.map(\.records).reduce(0, +)
        print(
            "memo-check: \(users) users x \(days) days, \(checked) records each way (memoised, recomputed, compared): "
                + (findings.isEmpty ? "identical" : "\(findings.count) users differ"))
    }
}
