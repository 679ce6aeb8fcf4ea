import Foundation
import Ruleset
import RulesetFiles

/// `rules check` work (read, parse, decode, check expressions, lint) on the shipped
/// ruleset and on a generated ruleset 100× its size: time per file, which should stay flat.
enum CheckBenchmark {
    static func run(repository: String) {
        let base = Measure.best(runs: 5) { blackHole(Ruleset.load(directory: repository)) }
        let baseFiles = RulesetDirectory.files(in: repository, folders: RulesetDirectory.rulesetFolders).count
        let large = generate(from: repository, copies: 100)
        let largeFiles = RulesetDirectory.files(in: large, folders: RulesetDirectory.rulesetFolders).count
        let check = Ruleset.load(directory: large)
        if check.hasErrors { print("check: generated ruleset has errors: \(check.diagnostics.prefix(3).map(\.message))") }
        let big = Measure.best(runs: 3) { blackHole(Ruleset.load(directory: large)) }
        let perBase = base / Double(baseFiles) * 1e6
        let perLarge = big / Double(largeFiles) * 1e6
        print("check: shipped ruleset \(baseFiles) files in \(Measure.format(base * 1000)) ms (\(Measure.format(perBase, decimals: 0)) µs per file)")
        print("  generated 100x: \(largeFiles) files in \(Measure.format(big * 1000)) ms (\(Measure.format(perLarge, decimals: 0)) µs per file)")
        print("  per-file cost ratio large/shipped: \(Measure.format(perLarge / perBase))x (goal: close to 1)")
        try? FileManager.default.removeItem(atPath: large)
    }

    /// The shipped ruleset plus `copies - 1` renamed copies of its routines, templates,
    /// notifications and tools (singleton sections stay single).
    static func generate(from repository: String, copies: Int) -> String {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("rules-bench-\(UUID().uuidString)")
        let fm = FileManager.default
        for folder in RulesetDirectory.rulesetFolders {
            try? fm.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
            for name in RulesetDirectory.yamlFiles(under: repository + "/" + folder) {
                try? fm.copyItem(atPath: repository + "/" + folder + "/" + name, toPath: directory + "/" + folder + "/" + name)
            }
        }
        func read(_ path: String) -> String { (try? String(contentsOfFile: repository + "/" + path, encoding: .utf8)) ?? "" }
        for copy in 1..<copies {
            for name in RulesetDirectory.yamlFiles(under: repository + "/routines") {
                let text = read("routines/" + name).replacingOccurrences(of: "\nid: ", with: "\nid: c\(copy)_")
                try? text.write(toFile: "\(directory)/routines/c\(copy)_\(name)", atomically: false, encoding: .utf8)
            }
            let templates =
                read("templates/character.yaml") + "\n"
                + read("templates/notifications.yaml")
                .replacingOccurrences(of: "templates:\n", with: "")
            try? templates.replacingOccurrences(of: "  - id: ", with: "  - id: c\(copy)_")
                .write(toFile: "\(directory)/templates/c\(copy).yaml", atomically: false, encoding: .utf8)
            let notifications = read("rules/notifications.yaml")
            let list = notifications.range(of: "notifications:").map { String(notifications[$0.lowerBound...]) } ?? ""
            try? list.replacingOccurrences(of: "  - id: ", with: "  - id: c\(copy)_")
                .replacingOccurrences(of: "template: ", with: "template: c\(copy)_")
                .write(toFile: "\(directory)/rules/n\(copy).yaml", atomically: false, encoding: .utf8)
            try? read("rules/tools.yaml").replacingOccurrences(of: "  - name: ", with: "  - name: c\(copy)_")
                .write(toFile: "\(directory)/rules/t\(copy).yaml", atomically: false, encoding: .utf8)
        }
        return directory
    }
}
