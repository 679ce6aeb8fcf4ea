import Foundation
import RulesDiagnostics
import RulesSimulator
import Ruleset
import RulesetFiles

/// What a tuned copy changes beyond its figures: the scenarios whose expectations it now
/// fails (a moved notice fails every expectation that pinned its time), with the step that
/// accepts them after review. Run on the written copy, as `rules test` would.
enum TunedScenarios {
    /// Each scenario of the copy with failing expectations, and how many fail.
    static func failing(in directory: String) -> [(file: String, failed: Int)] {
        let load = Ruleset.load(directory: directory)
        guard let ruleset = load.ruleset else { return [] }
        let files = RulesetDirectory.files(in: directory, folders: ["scenarios"])
        var out: [(String, Int)] = []
        for loaded in SimulationSupport.scenarios(files, ruleset: ruleset) {
            guard let scenario = loaded.scenario else {
                out.append((loaded.file, 1))
                continue
            }
            var failed = 0
            _ = Simulation.run(
                scenario, ruleset: ruleset,
                sink: KeepingForExpectations(dayDone: { failed += ExpectationChecker.check($0, ruleset: ruleset).filter { !$0.passed }.count }))
            if failed > 0 { out.append((loaded.file, failed)) }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// The lines `rules tune --write` prints about them.
    static func lines(_ failing: [(file: String, failed: Int)], directory: String) -> [String] {
        guard !failing.isEmpty else { return ["the tuned copy passes every scenario's expectations"] }
        let total = failing.reduce(0) { $0 + $1.failed }
        var out = [
            "the tuned copy fails \(total) expectation\(total == 1 ? "" : "s") in \(failing.count) scenario\(failing.count == 1 ? "" : "s") (the behaviour they pinned has moved):"
        ]
        out += failing.map { "  \($0.file): \($0.failed)" }
        out.append(
            "review the moves, then: rules test --ruleset \(directory) --update \((directory as NSString).appendingPathComponent("scenarios")) (and rules diff . \(directory) to see them)"
        )
        return out
    }
}
