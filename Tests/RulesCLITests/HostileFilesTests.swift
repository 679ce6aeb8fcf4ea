import CLITestSupport
import Foundation
import RulesCLI
import Ruleset
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs that are not files and outputs that would lose or damage something: a FIFO given
/// as a bundle, a key or a trusted key is refused at once (it blocked forever); an output
/// never lands on a ruleset file, on another output of the run, on a directory named with a
/// trailing slash, and a name as long as the system allows is written; a key pair or a set
/// of files that cannot be written whole leaves nothing behind.
@Suite struct HostileFilesTests {
    static let root = Fixtures.repositoryRoot()

    /// A key pair and a signed bundle of the shipped ruleset in a fresh directory.
    static func signed() throws -> (directory: String, key: String, pub: String, bundle: String) {
        let directory = Fixtures.temporaryDirectory()
        let keygen = CapturedRun(["keygen", "--out", directory + "/keys"], in: Self.root)
        try #require(keygen.exitCode == .success, "\(keygen.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/keys").sorted()
        let key = directory + "/keys/" + (try #require(names.first { $0.hasSuffix(".key") }))
        let pub = directory + "/keys/" + (try #require(names.first { $0.hasSuffix(".pub") }))
        let bundle = directory + "/ruleset.json"
        let made = CapturedRun(["bundle", "--sign", key, "--sequence", "1", "--out", bundle], in: Self.root)
        try #require(made.exitCode == .success, "\(made.stderr)")
        return (directory, key, pub, bundle)
    }

    @Test func aFIFOIsRefusedAtOnceWhereverAFileIsRead() throws {
        let (directory, key, pub, bundle) = try Self.signed()
        let fifo = directory + "/fifo.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        let runs: [[String]] = [
            ["check", fifo], ["check", fifo, "--trust", pub], ["check", bundle, "--trust", fifo], ["verify", fifo, "--trust", pub],
            ["verify", bundle, "--trust", fifo], ["bundle", "--sign", fifo, "--sequence", "1", "--out", directory + "/out.json"],
            ["simulate", fifo], ["test", fifo],
        ]
        for arguments in runs {
            let run = CapturedRun(arguments, in: Self.root)
            #expect(run.exitCode != .success, "\(arguments)")
            #expect((run.stdout + run.stderr).contains("not a regular file"), "\(arguments): \(run.stdout) \(run.stderr)")
        }
        _ = key
    }

    @Test func previewNeverWritesOverTheRulesetItShows() throws {
        let directory = try Fixtures.copyOfShipped()
        let before = try String(contentsOfFile: directory + "/templates/notifications.yaml", encoding: .utf8)
        let run = CapturedRun(["preview", "--out", "templates/notifications.yaml"], in: directory)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("it is an input of this run"), "\(run.stderr)")
        #expect(try String(contentsOfFile: directory + "/templates/notifications.yaml", encoding: .utf8) == before)
    }

    @Test func twoOutputsOfOneRunMayNotShareAPath() throws {
        let directory = Fixtures.temporaryDirectory()
        let run = CapturedRun(
            ["simulate", "scenarios/good_day.yaml", "--out", directory + "/x.json", "--state-out", directory + "/x.json"], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("--out and --state-out name the same file"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/x.json"))
    }

    @Test func anOutputNamedWithATrailingSlashIsADirectoryNotAFile() throws {
        let directory = Fixtures.temporaryDirectory()
        for arguments in [["simulate", "scenarios/good_day.yaml", "--out"], ["preview", "--out"], ["reference", "--out"]] {
            let run = CapturedRun(arguments + [directory + "/x/"], in: Self.root)
            #expect(run.exitCode == .usage, "\(arguments)")
            #expect(run.stderr.contains("names a directory"), "\(arguments): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/x"), "\(arguments)")
        }
    }

    /// A name of 255 bytes (the most a file name may have) is written: the temporary file
    /// beside it has a short name of its own.
    @Test func theLongestNameAFileMayHaveIsWritten() throws {
        let directory = Fixtures.temporaryDirectory()
        for length in [214, 240, 255] {
            let name = String(repeating: "a", count: length - 5) + ".json"
            let run = CapturedRun(["simulate", "scenarios/good_day.yaml", "--format", "json", "--out", directory + "/" + name], in: Self.root)
            #expect(run.exitCode == .success, "\(length): \(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: directory + "/" + name), "\(length)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func watchExitsTwoWhenItsReportCannotBeWritten() throws {
        let run = CapturedRun(
            ["watch", "scenarios/good_day.yaml", "--html", "/dev/full", "--rounds", "1", "--interval", "0.05"], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("cannot write /dev/full"), "\(run.stderr)")
    }

    /// `check --trust` verifies every file it is given as a bundle, whatever its name, and
    /// with the channel the app's store has unless told (stable), as `verify` does.
    @Test func checkTrustVerifiesEveryBundleAsVerifyDoes() throws {
        let (directory, key, pub, bundle) = try Self.signed()
        for name in ["x.bundle", "x.JSON"] {
            try FileManager.default.copyItem(atPath: bundle, toPath: directory + "/" + name)
            let run = CapturedRun(["check", directory + "/" + name, "--trust", pub], in: Self.root)
            #expect(run.exitCode == .success, "\(name): \(run.stdout)")
            try "{}".write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
            let broken = CapturedRun(["check", directory + "/" + name, "--trust", pub], in: Self.root)
            #expect(broken.exitCode == .failure, "\(name): \(broken.stdout)")
        }
        let beta = directory + "/beta.json"
        #expect(
            CapturedRun(["bundle", "--sign", key, "--sequence", "2", "--channel", "beta", "--out", beta], in: Self.root).exitCode == .success)
        let check = CapturedRun(["check", beta, "--trust", pub], in: Self.root)
        let verify = CapturedRun(["verify", beta, "--trust", pub], in: Self.root)
        #expect(verify.exitCode != .success)
        #expect(check.exitCode != .success, "\(check.stdout)")
        #expect(check.stdout.contains("bundle.wrong_channel"), "\(check.stdout)")
        #expect(CapturedRun(["check", beta, "--trust", pub, "--channel", "beta"], in: Self.root).exitCode == .success)
    }

    /// What every store refuses is said when the bundle is made: more signatures than a
    /// store reads, or an expiry already past.
    @Test func aBundleEveryStoreRefusesIsRefusedWhenItIsMade() throws {
        let (directory, key, _, _) = try Self.signed()
        let nine = Array(repeating: ["--sign", key], count: 9).flatMap { $0 }
        let many = CapturedRun(["bundle"] + nine + ["--sequence", "1", "--out", directory + "/nine.json"], in: Self.root)
        #expect(many.exitCode == .usage, "\(many.stderr)")
        #expect(many.stderr.contains("signatures"), "\(many.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/nine.json"))
        let past = CapturedRun(
            ["bundle", "--sign", key, "--sequence", "1", "--expires", "2001-01-01", "--out", directory + "/past.json"], in: Self.root)
        #expect(past.exitCode == .usage, "\(past.stderr)")
        #expect(past.stderr.contains("already past"), "\(past.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/past.json"))
    }

    /// A public key of all zeros, or of small order (a point any signature can be made to
    /// pass for), is no key to trust.
    @Test func weakPublicKeysAreRefusedAsTrust() throws {
        let (directory, _, _, bundle) = try Self.signed()
        let weak: [[UInt8]] = [
            Array(repeating: 0, count: 32),
            [1] + Array(repeating: 0, count: 31),  // the identity point
            [0xEC] + Array(repeating: 0xFF, count: 30) + [0x7F],  // -1 mod p: order 2
        ]
        for (index, key) in weak.enumerated() {
            let file = directory + "/weak\(index).pub"
            try SigningKeyFile.text(kind: "ed25519-public", keyID: TrustedKeys.keyID(key), key: key).write(
                toFile: file, atomically: true, encoding: .utf8)
            let run = CapturedRun(["verify", bundle, "--trust", file], in: Self.root)
            #expect(run.exitCode == .usage, "\(index): \(run.stdout) \(run.stderr)")
            #expect(run.stderr.contains("weak") || run.stderr.contains("not a usable"), "\(index): \(run.stderr)")
        }
    }

    /// Runs `script` in bash with `$RULES` the built binary and files limited to 0 bytes (a
    /// full disk, as far as writing goes: `ulimit -f 0`, SIGXFSZ ignored). Returns the exit
    /// status and standard error.
    func fullDisk(_ script: String) throws -> (status: Int32, stderr: String) {
        try OutputErrorTests.shell("trap '' XFSZ; ulimit -f 0; " + script, in: Self.root)
    }

    /// On a full disk nothing half written is left: no 0-byte private key (blamed on "a file
    /// appeared"), no schema or boundary scenario folder half filled.
    @Test func aFullDiskLeavesNothingHalfWritten() throws {
        let directory = Fixtures.temporaryDirectory()
        let keygen = try fullDisk("\"$RULES\" keygen --out \(directory)/keys")
        #expect(keygen.status == 2)
        #expect(keygen.stderr.contains("File too large") || keygen.stderr.contains("No space"), "\(keygen.stderr)")
        #expect(!keygen.stderr.contains("appeared"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: directory + "/keys"))?.isEmpty ?? true)
        for (arguments, folder) in [("schema --out \(directory)/schemas", "schemas"), ("test --generate-boundaries \(directory)/days", "days")] {
            let run = try fullDisk("\"$RULES\" " + arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("cannot write"), "\(arguments): \(run.stderr)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []
            #expect(left.isEmpty, "\(arguments) left \(left)")
        }
    }

    /// `keygen --out keys` inside a git work tree that does not ignore the folder warns that
    /// `git add -A` would commit the private key; ignored (as this repository's .gitignore
    /// ignores keys/), it says nothing.
    @Test func aPrivateKeyInAWorkTreeThatDoesNotIgnoreItIsWarnedOf() throws {
        let directory = Fixtures.temporaryDirectory()
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "init", "-q", directory]
        git.standardOutput = FileHandle.nullDevice
        git.standardError = FileHandle.nullDevice
        try git.run()
        git.waitUntilExit()
        try #require(git.terminationStatus == 0, "git is needed for this test")
        let bare = CapturedRun(["keygen", "--out", "keys"], in: directory)
        #expect(bare.exitCode == .success)
        #expect(bare.stderr.contains("warning: the private key keys/") && bare.stderr.contains("not ignored"), "\(bare.stderr)")
        try "keys/\n".write(toFile: directory + "/.gitignore", atomically: true, encoding: .utf8)
        let ignored = CapturedRun(["keygen", "--out", "keys"], in: directory)
        #expect(ignored.exitCode == .success)
        #expect(!ignored.stderr.contains("warning"), "\(ignored.stderr)")
        let outside = CapturedRun(["keygen", "--out", Fixtures.temporaryDirectory() + "/keys"], in: directory)
        #expect(!outside.stderr.contains("warning"), "\(outside.stderr)")
    }
}
