import CLITestSupport
import Foundation
import RulesCLI
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// A designer can write any file from docs/REFERENCE.md alone: its "Files to start from" — a
/// routine, a notification with its template, a scenario — are taken from the committed
/// reference, added to the shipped ruleset, and load and pass clean; every key of every file
/// kind the decoders accept is listed.
@Suite struct ReferenceExamplesTests {
    static let root = Fixtures.repositoryRoot()

    @Test func theReferencesExampleFilesLoadAndPassClean() throws {
        let reference = try String(contentsOfFile: Self.root + "/docs/REFERENCE.md", encoding: .utf8)
        let section = try #require(
            reference.components(separatedBy: "## Files to start from").dropFirst().first?.components(separatedBy: "\n## ").first)
        var files: [String: String] = [:]
        for part in section.components(separatedBy: "\n### ").dropFirst() {
            let name = try #require(part.components(separatedBy: "`").dropFirst().first)
            let yaml = try #require(part.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "\n```").first)
            files[name] = yaml + "\n"
        }
        #expect(Set(files.keys) == ["routines/stretching.yaml", "rules/stretching.yaml", "rules/settings.yaml", "scenarios/stretching_day.yaml"])
        let directory = try Fixtures.copyOfShipped()
        try FileManager.default.createDirectory(atPath: directory + "/scenarios", withIntermediateDirectories: true)
        for (name, text) in files {
            let path = directory + "/" + name
            // The setting is a line added at the end of the settings section.
            let before = name == "rules/settings.yaml" ? try String(contentsOfFile: path, encoding: .utf8) : ""
            try (before + text).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let check = CapturedRun(["check", "."], in: directory)
        #expect(check.exitCode == .success && check.stdout.hasSuffix("no problems\n"), "\(check.stdout)")
        let test = CapturedRun(["test", "scenarios/stretching_day.yaml"], in: directory)
        #expect(test.exitCode == .success && test.stdout.hasSuffix("2 passed, 0 failed\n"), "\(test.stdout)")
    }

    /// The keys the issue found missing are in the reference, each with an example.
    @Test(arguments: ["max_per_day", "quick_log", "source", "deep_link", "for_each", "sensitive_words", "permission", "max_items"])
    func aKeyDesignersLookedForIsListed(_ key: String) throws {
        let reference = try String(contentsOfFile: Self.root + "/docs/REFERENCE.md", encoding: .utf8)
        #expect(reference.contains("| `\(key)`"), "\(key)")
        #expect(reference.contains("| \(key): "), "\(key) has no example")
    }
}
