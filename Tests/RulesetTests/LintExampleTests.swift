import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// Every lint check's examples: triggering ones report the check exactly at each `1️⃣`,
/// non-triggering ones do not report it, and neither has other errors.
@Suite struct LintExampleTests {
    static let marker = "1️⃣"

    /// Writes the example (markers removed) and returns the expected marker positions.
    static func materialize(_ example: LintExample) throws -> (directory: String, markers: Set<String>) {
        let directory = Fixtures.temporaryDirectory()
        var markers: Set<String> = []
        var files: [String: String] = [:]
        for (path, text) in example.files {
            var clean = ""
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var rest = Substring(line)
                var lineOut = ""
                while let range = rest.range(of: marker) {
                    lineOut += rest[..<range.lowerBound]
                    markers.insert("\(path):\(index + 1):\(lineOut.unicodeScalars.count + 1)")
                    rest = rest[range.upperBound...]
                }
                lineOut += rest
                clean += (index > 0 ? "\n" : "") + lineOut
            }
            files[path] = clean + "\n"
        }
        try Fixtures.write(files, to: directory)
        return (directory, markers)
    }

    static var checks: [LintCheck] { LintCatalogue.checks }

    @Test(arguments: LintCatalogue.checks.map(\.description.code.rawValue))
    func examplesBehave(code: String) throws {
        let check = try #require(LintCatalogue.checks.first { $0.description.code.rawValue == code })
        #expect(!check.triggering.isEmpty && !check.nonTriggering.isEmpty, "every check has both kinds of example")
        for example in check.triggering {
            let (directory, markers) = try Self.materialize(example)
            let load = Ruleset.load(directory: directory)
            let found = Set(load.diagnostics.filter { $0.code.rawValue == code }.map { "\($0.file):\($0.location.line):\($0.location.column)" })
            #expect(!markers.isEmpty)
            #expect(found == markers, "\(code): \(load.diagnostics.map { "\($0.file):\($0.location) \($0.code) \($0.message)" })")
            let others = load.diagnostics.filter { $0.severity == .error && $0.code.rawValue != code }
            #expect(others.isEmpty, "\(code) example has other errors: \(others.map { "\($0.code) \($0.message)" })")
        }
        for example in check.nonTriggering {
            let (directory, _) = try Self.materialize(example)
            let load = Ruleset.load(directory: directory)
            #expect(!load.diagnostics.contains { $0.code.rawValue == code }, "\(code): \(load.diagnostics.map(\.message))")
            #expect(!load.hasErrors, "\(code) non-triggering example has errors: \(load.diagnostics.map { "\($0.code) \($0.message)" })")
        }
    }

    @Test func everyCheckHasAUniqueStableCode() {
        let codes = LintCatalogue.checks.map(\.description.code.rawValue)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.hasPrefix("lint.") })
    }
}
