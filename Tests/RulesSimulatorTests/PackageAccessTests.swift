import Foundation
import Testing

/// No product exports the simulator's rooms: what the CLI, the language server, tests,
/// benchmarks and fuzzers of this package use of them is `package`, and nothing is `public` (a
/// public declaration would promise another package an API nobody can import).
@Suite struct PackageAccessTests {
    @Test(arguments: [("RulesSimulator", 20), ("RulesChangeImpact", 8), ("RulesPopulation", 20), ("RulesTune", 10), ("RulesFit", 15)])
    func theSimulatorDeclaresNothingPublic(_ room: String, _ least: Int) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("Sources/" + room)
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
        #expect(files >= least, "\(room): \(files) files")
    }
}
