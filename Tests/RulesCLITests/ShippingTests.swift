import CLITestSupport
import Foundation
import RulesCLI
import RulesDocument
import Ruleset
import TestSupport
import Testing

/// docs/GUIDE.md's "Shipping a ruleset", followed end to end: keygen → bundle --sign → verify → the
/// embedding example accepts it; a forgery with its hash computed again is refused by
/// `rules verify`, `rules check` and the example.
@Suite struct ShippingTests {
    static let root = Fixtures.repositoryRoot()

    @Test func keygenSignVerifyAndTheExampleAcceptsThenAForgeryIsRefused() throws {
        let work = Fixtures.temporaryDirectory()
        let keygen = CapturedRun(["keygen", "--out", work + "/keys"], in: Self.root)
        #expect(keygen.exitCode == .success, "\(keygen.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: work + "/keys").sorted()
        let key = work + "/keys/" + (try #require(names.first { $0.hasSuffix(".key") }))
        let pub = work + "/keys/" + (try #require(names.first { $0.hasSuffix(".pub") }))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let bundle = work + "/ruleset.bundle.json"
        let make = CapturedRun(["bundle", "--sign", key, "--sequence", "1", "--out", bundle], in: Self.root)
        #expect(make.exitCode == .success, "\(make.stderr)")
        #expect(make.stdout.contains("signed by"))
        let verify = CapturedRun(["verify", bundle, "--trust", pub], in: Self.root)
        #expect(verify.exitCode == .success && verify.stdout.contains("accepted"), "\(verify.stdout)")
        #expect(CapturedRun(["check", bundle, "--trust", pub], in: Self.root).exitCode == .success)
        // It says what it accepted first (its only line was the refusal of a replay).
        let accepted = try runExample([bundle, "--trust", pub])
        #expect(accepted.status == 0)
        #expect(accepted.stdout.hasPrefix("accepted \(bundle): sequence 1, channel stable, signed by "), "\(accepted.stdout.prefix(200))")

        // The forgery: cap 10, hash computed again.
        var text = try String(contentsOfFile: bundle, encoding: .utf8)
        text = text.replacingOccurrences(of: #""max_per_day":"3""#, with: #""max_per_day":"10""#)
        let parsed = try #require(JSONReader.parse(text, file: "b", maxBytes: .max, maxDepth: 200).documents.first)
        let hash = SHA256.hex(Array(RulesetBundle.canonical(try #require(parsed["content"])).rendered().utf8))
        text = text.replacingOccurrences(of: try #require(parsed["sha256"]?.scalar), with: hash)
        let forged = work + "/forged.json"
        try text.write(toFile: forged, atomically: true, encoding: .utf8)
        let refused = CapturedRun(["verify", forged, "--trust", pub], in: Self.root)
        #expect(refused.exitCode == .failure && refused.stdout.contains("bundle.bad_signature"), "\(refused.stdout)")
        #expect(CapturedRun(["check", forged, "--trust", pub], in: Self.root).stdout.contains("bundle.bad_signature"))
        let example = try runExample([forged, "--trust", pub])
        #expect(example.status == 1 && example.stderr.contains("bundle.bad_signature"), "\(example.stderr)")
        // Unsigned, the bundle is refused too; a second keygen into the same place never overwrites.
        let unsigned = work + "/unsigned.json"
        #expect(CapturedRun(["bundle", "--out", unsigned], in: Self.root).exitCode == .success)
        #expect(CapturedRun(["verify", unsigned, "--trust", pub], in: Self.root).stdout.contains("bundle.unsigned"))
        #expect(CapturedRun(["check", unsigned], in: Self.root).exitCode == .failure)
        #expect(CapturedRun(["bundle", "--sign", key, "--out", unsigned], in: Self.root).exitCode == .usage)
    }

    /// A key rotation from the command line: two --sign, each key alone verifies it; check
    /// with --after refuses it as a replay.
    @Test func twoSignaturesForAKeyRotation() throws {
        let work = Fixtures.temporaryDirectory()
        #expect(CapturedRun(["keygen", "--out", work + "/old"], in: Self.root).exitCode == .success)
        #expect(CapturedRun(["keygen", "--out", work + "/new"], in: Self.root).exitCode == .success)
        func file(_ folder: String, _ suffix: String) throws -> String {
            work + "/" + folder + "/"
                + (try #require(try FileManager.default.contentsOfDirectory(atPath: work + "/" + folder).first { $0.hasSuffix(suffix) }))
        }
        let bundle = work + "/b.json"
        let make = CapturedRun(
            ["bundle", "--sign", try file("old", ".key"), "--sign", try file("new", ".key"), "--sequence", "7", "--out", bundle], in: Self.root)
        #expect(make.exitCode == .success, "\(make.stderr)")
        for folder in ["old", "new"] {
            #expect(CapturedRun(["verify", bundle, "--trust", try file(folder, ".pub")], in: Self.root).exitCode == .success, "\(folder)")
        }
        let replay = CapturedRun(["check", bundle, "--trust", try file("new", ".pub"), "--after", "7"], in: Self.root)
        #expect(replay.exitCode == .failure && replay.stdout.contains("bundle.replayed"), "\(replay.stdout)")
    }

    /// Runs the built embedding example (built with the package, as CI builds it).
    func runExample(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = try BuiltProduct.path("EmbeddingExample")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
