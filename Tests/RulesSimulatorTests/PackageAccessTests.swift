import Foundation
import Testing

/// No product exports RulesSimulator: what the CLI, the language server, tests, benchmarks
/// and fuzzers of this package use of it is `package`, and nothing is `public` (a public
/// declaration would promise another package an API nobody can import).
@Suite struct PackageAccessTests {
    @Test func theSimulatorDeclaresNothingPublic() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("Sources/RulesSimulator")
        let walk = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var files = 0
        let declaration = #/^\s*(@\w+\s+)*((static|final|nonisolated|mutating|override)\s+)*public\s/#
        while let url = walk?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            files += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(declaration) {
                Issue.record("\(url.lastPathComponent):\(index + 1): a public declaration (write package): \(line)")
            }
        }
        #expect(files > 30)
    }
}
