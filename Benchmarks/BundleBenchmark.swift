import Foundation
import RulesCLI
import RulesDocument
import RulesYAML
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
        many(repository: repository)
    }

    /// The app's store offered a signed bundle of the shipped ruleset plus n small template
    /// documents, n = 5,000 and 50,000: linear in documents (10x the documents, about 10x the time).
    static func many(repository: String) {
        let files = RulesetDirectory.files(in: repository, folders: RulesetDirectory.rulesetFolders)
        let shipped = RulesetDirectory.read(files).documents
        guard let pair = Ed25519Signer.generate(), let keys = TrustedKeys(publicKeys: [pair.publicKey]) else {
            print("bundle.many: no Ed25519 library")
            return
        }
        var times: [Double] = []
        for count in [5_000, 50_000] {
            var yaml = ""
            var documents = shipped
            for index in 0..<count {
                yaml = "templates:\n  - id: extra_\(index)\n    surface: home\n    text: 한 줄 \(index)\n"
                if let node = YAMLReader.parse(yaml, file: "templates/extra_\(index).yaml").documents.first {
                    documents.append(RuleDocument(file: "templates/extra_\(index).yaml", kind: .sections, node: node, source: nil))
                }
            }
            let text = RulesetBundle.make(documents, release: BundleRelease(sequence: 1)) { message in
                Ed25519Signer.sign(message, seed: pair.seed).map { [BundleSignature(keyID: TrustedKeys.keyID(pair.publicKey), signature: $0)] } ?? []
            }
            let data = Data(text.utf8)
            var accepted = false
            let seconds = Measure.best(runs: 1) {
                let store = RulesetStore(ruleset: Ruleset(), keys: keys, installID: "i")
                accepted = (try? store.offer(bundle: data).get()) != nil
            }
            times.append(seconds)
            print(
                "bundle.many_\(count): \(data.count) bytes, \(documents.count) documents; store offer \(Measure.format(seconds, decimals: 2)) s (accepted: \(accepted))"
            )
        }
        if times.count == 2 { print("bundle.many.ratio: 10x the documents take \(Measure.format(times[1] / times[0]))x the time (goal: about 10x)") }
    }
}
