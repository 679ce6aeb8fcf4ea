import Foundation
import Testing

@testable import RulesCLI

/// Errors a command says come from one catalogue (`CommandError`): no command writes its own
/// `Error: …` text, so one message is worded once wherever it is said.
@Suite struct CommandErrorTests {
    @Test func noCommandWritesItsOwnErrorText() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("Sources/RulesCLI")
        let walk = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        // The catalogue itself, the usage error's format and the standard streams' own failure.
        let own: Set<String> = ["CommandError.swift", "RulesCLI.swift", "StandardStream.swift"]
        var files = 0
        while let url = walk?.nextObject() as? URL {
            guard url.pathExtension == "swift", !own.contains(url.lastPathComponent) else { continue }
            files += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("\"Error: ") && !line.contains("CommandError.") {
                Issue.record("\(url.lastPathComponent):\(index + 1): an error worded in place: add a CommandError case")
            }
        }
        #expect(files > 20)
    }

    @Test func theCatalogueWordsEachError() {
        #expect(
            CommandError.tooLarge(file: "s.json", size: 9, limit: 8, what: "a saved engine state").message
                == "s.json is 9 bytes, over the limit of 8 bytes for a saved engine state")
        #expect(CommandError.cannotMakeDirectory("out", reason: nil).message == "cannot make the directory out")
        #expect(CommandError.unknownCode("x", near: "y").message == "unknown code 'x'; did you mean 'y'?")
    }

    @Test func theGuardedReadSaysWhyItRefuses() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("command-error-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(repeating: 65, count: 10).write(to: directory.appendingPathComponent("big.json"))
        var said = ""
        let io = CommandIO(out: { _ in }, err: { said += $0 }, stdoutIsTerminal: false, environment: [:], currentDirectory: directory.path)
        #expect(io.read("big.json", limit: 4, what: "a population result") == nil)
        #expect(said == "Error: big.json is 10 bytes, over the limit of 4 bytes for a population result\n")
        said = ""
        #expect(io.read("big.json", limit: 64, what: "a population result")?.count == 10)
        #expect(said.isEmpty)
        #expect(io.read("missing.json", limit: 64, what: "a population result") == nil)
        #expect(said.hasPrefix("Error: missing.json: "))
    }
}
