import Foundation
import TestSupport
import Testing

/// README is a front door: short, its two commands true, the rest in docs/ and linked from it,
/// and no table cell anywhere a wall of text.
@Suite struct DocumentationTests {
    static let root = Fixtures.repositoryRoot()

    static func read(_ path: String) throws -> String { try String(contentsOfFile: root + "/" + path, encoding: .utf8) }

    @Test func readmeIsShortAndLinksTheDocs() throws {
        let readme = try Self.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 200, "README has \(lines.count) lines")
        for doc in [
            "docs/ARCHITECTURE.md", "docs/BENCHMARKS.md", "docs/FUZZING.md", "docs/CI.md", "docs/GUIDE.md", "docs/REFERENCE.md", "docs/WAREHOUSE.md",
        ] {
            #expect(readme.contains("(\(doc))"), "README does not link \(doc)")
            #expect(FileManager.default.fileExists(atPath: Self.root + "/" + doc), "\(doc) is missing")
        }
        // The first screen: the main job and the tests, and CI runs the same test command.
        let firstScreen = lines.prefix(25).joined(separator: "\n")
        #expect(firstScreen.contains("swift run rules simulate scenarios/collapsed_day.yaml"))
        #expect(firstScreen.contains("swift test "))
        #expect(try Self.read(".ci/run").contains("\nswift test\n"))
        #expect(FileManager.default.fileExists(atPath: Self.root + "/scenarios/collapsed_day.yaml"))
    }

    /// No table cell of README or the docs is more than a few lines of text (about 400 characters).
    @Test(arguments: [
        "README.md", "docs/ARCHITECTURE.md", "docs/BENCHMARKS.md", "docs/FUZZING.md", "docs/CI.md", "docs/GUIDE.md", "docs/WAREHOUSE.md",
    ])
    func noTableCellIsAWall(_ path: String) throws {
        for (index, line) in try Self.read(path).split(separator: "\n").enumerated() where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            for cell in cells where cell.count > 400 {
                Issue.record("\(path):\(index + 1): a table cell of \(cell.count) characters: \(cell.prefix(60))…")
            }
        }
    }

    /// Every relative link of README and the docs leads to a file that exists.
    @Test(arguments: [
        "README.md", "docs/ARCHITECTURE.md", "docs/BENCHMARKS.md", "docs/FUZZING.md", "docs/CI.md", "docs/GUIDE.md", "docs/WAREHOUSE.md",
    ])
    func relativeLinksLeadSomewhere(_ path: String) throws {
        let text = try Self.read(path)
        let directory = (path as NSString).deletingLastPathComponent
        var rest = text[...]
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close]).split(separator: "#").first.map(String.init) ?? ""
            guard !target.isEmpty, !target.contains("://") else { continue }
            let resolved = directory.isEmpty ? target : directory + "/" + target
            #expect(FileManager.default.fileExists(atPath: Self.root + "/" + resolved), "\(path) links \(target), which does not exist")
        }
    }
}
