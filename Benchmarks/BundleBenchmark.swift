import Foundation
import Ruleset
import RulesetFiles

/// Loading the shipped ruleset from its bundle (JSON → checked ruleset, what the app does)
/// against loading its YAML directory, in the same run. The bundle should not be slower.
enum BundleBenchmark {
    static func run(repository: String) {
        let files = RulesetDirectory.files(in: repository, folders: RulesetDirectory.rulesetFolders)
        let bundle = Data(RulesetBundle.make(RulesetDirectory.read(files).documents).utf8)
        guard Ruleset.load(bundle: bundle).ruleset != nil else {
            print("bundle: the shipped bundle does not load")
            return
        }
        let yaml = Measure.best(runs: 20) { blackHole(Ruleset.load(directory: repository)) }
        let json = Measure.best(runs: 20) { blackHole(Ruleset.load(bundle: bundle)) }
        print(
            "bundle.load: \(bundle.count) bytes; bundle \(Measure.format(json * 1000, decimals: 3)) ms, YAML directory \(Measure.format(yaml * 1000, decimals: 3)) ms"
        )
        print("  ratio bundle/YAML: \(Measure.format(json / yaml))x (goal <= 1.00x)")
    }
}
