import CLITestSupport
import Foundation
import TestSupport
import Testing

/// A verdict asked of a fitted population must be the verdict of the users it was fitted to.
/// A world whose users switch every notice off past a day's first delivery (3 % a delivery)
/// is lived with a trial, exported, fitted; the same tune question — which daily cap gets the
/// most supplements taken while under 30 % of users switch everything off — is asked of both,
/// and both pick the same cap (cap 1: every higher cap is ruled out by the target). The same
/// fitted file without its `opt_out.all` (what the fit wrote before it fitted switch-offs)
/// answers differently: the check can fail.
@Suite struct FittedTuneAgreementTests {
    static let root = Fixtures.repositoryRoot()
    static let question = [
        "--vary", "policy.max_per_day=1..3", "--target", "answers.opted_out_all.share < 30 %", "--maximise",
        "answers.completions.supplement.completions", "--users", "200", "--days", "14", "--jobs", "2", "--format", "json",
    ]

    static func best(_ population: String) throws -> String? {
        let run = CapturedRun(["tune", population] + question, in: root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
        guard let best = report["best"] as? Int, let candidates = report["candidates"] as? [[String: Any]], best < candidates.count else {
            return nil
        }
        return (candidates[best]["values"] as? [String: String])?["policy.max_per_day"]
    }

    @Test func aTuneQuestionGetsTheSameAnswerFromTheFittedPopulation() throws {
        let directory = Fixtures.temporaryDirectory()
        let truth = directory + "/truth.yaml"
        try PlantedPopulations.reminderWorld(seed: 3, users: 400, days: 14, all: (0.03, 1)).write(toFile: truth, atomically: true, encoding: .utf8)
        let lived = CapturedRun(["population", truth, "--randomize", "0.5", "--telemetry-out", directory + "/telemetry"], in: Self.root)
        #expect(lived.exitCode == .success, "\(lived.stderr)")
        let fitted = directory + "/fitted.yaml"
        let fit = CapturedRun(["population", "fit", directory + "/telemetry", "--groups", "1", "--out", fitted], in: Self.root)
        #expect(fit.exitCode == .success, "\(fit.stderr)")
        let text = try String(contentsOfFile: fitted, encoding: .utf8)
        #expect(text.contains("all: ") && text.contains("above: 1"), "\(text)")
        let expected = try Self.best(truth)
        #expect(expected == "1")
        #expect(try Self.best(fitted) == expected)
        // Without switch-offs in the fitted file every cap meets the target and the pick moves.
        let blind = directory + "/blind.yaml"
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains("opt_out:")
                ? line.replacingOccurrences(of: #", all: [0-9.]+, above: [0-9]+"#, with: "", options: .regularExpression) : String(line)
        }
        try lines.joined(separator: "\n").write(toFile: blind, atomically: true, encoding: .utf8)
        #expect(!(try String(contentsOfFile: blind, encoding: .utf8)).contains("above:"))
        #expect(try Self.best(blind) != expected)
    }
}
