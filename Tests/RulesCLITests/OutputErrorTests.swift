import CLITestSupport
import Foundation
import RulesExpression
import TestSupport
import Testing

/// The built `rules` under hostile output: a full disk, a closed descriptor and a reader
/// that goes away. Never a trap: exit 2 with one line, or (a closed pipe) a quiet end.
@Suite struct OutputErrorTests {
    static let root = Fixtures.repositoryRoot()

    /// Runs `script` in `bash` with `$RULES` set to the built binary; returns exit code and stderr.
    func shell(_ script: String) throws -> (status: Int32, stderr: String) { try Self.shell(script, in: Self.root) }

    /// Runs `script` in `bash` in `directory` with `$RULES` set to the built binary; returns
    /// exit code and stderr.
    static func shell(_ script: String, in directory: String) throws -> (status: Int32, stderr: String) {
        let binary = try BuiltProduct.path("rules")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["RULES": binary, "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func standardOutputOnAFullDiskIsExitTwoWithOneLine() throws {
        let run = try shell(#""$RULES" check . > /dev/full"#)
        #expect(run.status == 2)
        #expect(run.stderr == "Error: cannot write to standard output: No space left on device\n")
    }

    @Test func standardErrorOnAFullDiskIsExitTwo() throws {
        // The unknown option's usage error goes to standard error, which is full.
        let run = try shell(#""$RULES" check --no-such-option 2> /dev/full; echo "status $?" >&2"#)
        #expect(run.stderr.hasSuffix("status 2\n"))
        #expect(!run.stderr.contains("Fatal error"))
    }

    @Test func aClosedStandardOutputIsExitTwoWithOneLine() throws {
        let run = try shell(#""$RULES" check . >&-"#)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: cannot write to standard output:"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    /// A scenario of 60 busy days: its JSON trace is far larger than a pipe's buffer.
    func longScenario() throws -> String {
        var yaml = "name: long\ntimezone: Asia/Seoul\nroutines: [water, study]\ndays:\n"
        for day in 0..<60 {
            yaml += "  - date: \(DateFormat.string(DateFormat.days("2026-03-01")! + day))\n"
            yaml +=
                "    events: [{ at: \"08:00\", app: open }, { at: \"09:00\", log: { routine: water, value: 250 } }, { at: \"21:00\", app: open }]\n"
        }
        let path = Fixtures.temporaryDirectory() + "/long.yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aReaderThatGoesAwayEndsTheCommandQuietlyWithSigpipeIgnored() throws {
        let path = try longScenario()
        let run = try shell("trap '' PIPE; \"$RULES\" simulate \(path) --format json | head -c 100 > /dev/null; echo \"status ${PIPESTATUS[0]}\" >&2")
        #expect(run.stderr == "status 0\n")
    }

    @Test func aReaderThatGoesAwayEndsTheCommandQuietly() throws {
        let path = try longScenario()
        let run = try shell("\"$RULES\" simulate \(path) --format json | head -c 100 > /dev/null; echo done >&2")
        #expect(run.stderr == "done\n")
    }
}

/// Directory walks follow symlinks but never loop, and say what they could not read.
@Suite struct DirectoryWalkTests {
    static let root = Fixtures.repositoryRoot()

    /// A copy of the shipped ruleset and scenarios with a symlink loop (`a -> .`) in every
    /// folder, and with `upward`, one to the parent too (`x -> ..`).
    func loopedCopy(upward: Bool = false) throws -> String {
        let directory = Fixtures.temporaryDirectory()
        for folder in ["routines", "rules", "templates", "scenarios"] {
            try FileManager.default.copyItem(atPath: Self.root + "/" + folder, toPath: directory + "/" + folder)
            try FileManager.default.createSymbolicLink(atPath: directory + "/" + folder + "/a", withDestinationPath: ".")
            if upward { try FileManager.default.createSymbolicLink(atPath: directory + "/" + folder + "/x", withDestinationPath: "..") }
        }
        return directory
    }

    @Test func aLinkToTheParentEndsWithDiagnosticsNotAHang() throws {
        let directory = try loopedCopy(upward: true)
        // routines/x/rules/… are read as routines (and refused); nothing is entered twice.
        let check = CapturedRun(["check", "."], in: directory)
        #expect(check.exitCode == .failure)
        #expect(check.stdout.contains("routines/x/rules/"))
        #expect(!check.stdout.contains("routines/x/routines/"))
    }

    @Test func symlinkLoopsAreEnteredOnce() throws {
        let directory = try loopedCopy()
        let check = CapturedRun(["check", "."], in: directory)
        #expect(check.exitCode == .success, "\(check.stdout)")
        let test = CapturedRun(["test", "scenarios"], in: directory)
        #expect(test.exitCode == .success, "\(test.stdout)")
        let shipped = CapturedRun(["test", "scenarios"], in: Self.root)
        #expect(test.stdout.split(separator: "\n").last == shipped.stdout.split(separator: "\n").last)
    }

    @Test func aDanglingSymlinkIsReportedAndAnEmptyScenarioFolderIsAnError() throws {
        let directory = try loopedCopy()
        try FileManager.default.createSymbolicLink(atPath: directory + "/scenarios/gone.yaml", withDestinationPath: "nowhere.yaml")
        let test = CapturedRun(["test", "scenarios"], in: directory)
        #expect(test.exitCode == .failure)
        #expect(test.stdout.contains("scenarios/gone.yaml:1:1: error: a symbolic link that leads nowhere [io.dangling_link]"))
        try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: true)
        let empty = CapturedRun(["test", "empty"], in: directory)
        #expect(empty.exitCode == .usage)
        #expect(empty.stderr.contains("no scenario files"))
    }

    @Test func aFileNameThatIsNotUTF8IsReportedNotSkipped() throws {
        let directory = try loopedCopy()
        // bad\xFF.yaml holding a broken mapping: it used to vanish from the walk.
        let bytes = Array((directory + "/rules/bad").utf8) + [0xFF] + Array(".yaml".utf8)
        let file = try #require(fopen(bytes.map { CChar(bitPattern: $0) } + [0], "w"))
        fputs("settings: [[[\n", file)
        fclose(file)
        let check = CapturedRun(["check", "."], in: directory)
        #expect(check.exitCode == .failure)
        #expect(check.stdout.contains("rules/bad\\xFF.yaml:1:1: error: a file name that is not UTF-8 [io.file_name]"), "\(check.stdout)")
    }
}

/// `rules check` and `simulate` on scenario files report what `rules check .` reports, once
/// each and at most 100.
@Suite struct ScenarioCheckTests {
    static let root = Fixtures.repositoryRoot()

    func copyWithScenario(_ name: String, _ text: String) throws -> String {
        let directory = try Fixtures.copyOfShipped()
        try FileManager.default.createDirectory(atPath: directory + "/scenarios", withIntermediateDirectories: true)
        try text.write(toFile: directory + "/scenarios/" + name, atomically: true, encoding: .utf8)
        return directory
    }

    @Test func checkingOneScenarioFileFindsItsUnknownKey() throws {
        let directory = try copyWithScenario("bad.yaml", "name: bad\ndate: 2026-07-20\ntimezone: Asia/Seoul\nevnts: []\n")
        let one = CapturedRun(["check", "scenarios/bad.yaml"], in: directory)
        let all = CapturedRun(["check", "."], in: directory)
        #expect(one.exitCode == .failure)
        #expect(one.stdout.contains("scenarios/bad.yaml:4:1: error: unknown key 'evnts'"))
        #expect(all.stdout.contains("scenarios/bad.yaml:4:1: error: unknown key 'evnts'"))
    }

    @Test func thousandsOfUnknownSettingsAreReportedOnceEachAndCapped() throws {
        let keys = (0..<500).map { "k\($0): 1" }.joined(separator: ", ")
        let directory = try copyWithScenario("keys.yaml", "name: keys\ndate: 2026-07-20\ntimezone: Asia/Seoul\nsettings: { \(keys) }\nevents: []\n")
        let run = CapturedRun(["simulate", "scenarios/keys.yaml"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.components(separatedBy: "unknown key 'k0' in settings").count == 2)
        #expect(run.stdout.components(separatedBy: "[ruleset.unknown_key]").count - 1 <= 100)
        #expect(run.stdout.utf8.count < 1_000_000)
    }
}

/// `--out` writes a regular file through a rename over the path itself, and never into a
/// device: `/dev/full` stays a device and the write is refused.
@Suite struct OutFileTests {
    static let root = Fixtures.repositoryRoot()

    @Test func outToADeviceIsRefused() throws {
        let run = CapturedRun(["reference", "--out", "/dev/full"], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.hasPrefix("Error: cannot write /dev/full:"))
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }

    /// A link at the output path is replaced by the written file; what it pointed at is left
    /// as it was (an output never writes through a link a pull request may have planted).
    @Test func outThroughASymlinkReplacesTheLinkAndLeavesTheTarget() throws {
        let directory = Fixtures.temporaryDirectory()
        try "old".write(toFile: directory + "/target.md", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.md", withDestinationPath: directory + "/target.md")
        let run = CapturedRun(["reference", "--out", directory + "/link.md"], in: Self.root)
        #expect(run.exitCode == .success)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link.md")) == nil)
        #expect(try String(contentsOfFile: directory + "/link.md", encoding: .utf8).hasPrefix("# Operator rules — reference"))
        #expect(try String(contentsOfFile: directory + "/target.md", encoding: .utf8) == "old")
    }
}

/// Files are read up to their limit and no further: a huge file is refused from its size
/// (a sparse 1 TiB file costs a `stat`, where reading it took minutes and gigabytes), and a
/// pipe or device is refused from its type without blocking.
@Suite struct InputFileTests {
    static let root = Fixtures.repositoryRoot()

    /// A sparse file of `bytes` bytes: no disk, no time.
    func sparse(_ name: String, bytes: UInt64) throws -> String {
        let path = Fixtures.temporaryDirectory() + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data("name: x\n".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: bytes)
        try handle.close()
        return path
    }

    @Test func aTerabyteScenarioIsRefusedFromItsSize() throws {
        let path = try sparse("huge.yaml", bytes: 1 << 40)
        for command in [["check", path], ["simulate", path], ["test", path]] {
            let run = CapturedRun(command, in: Self.root)
            #expect(run.exitCode == .failure, "\(command)")
            // The size comes from the file's metadata: a reader that read it would stop at the limit.
            let refusal = "huge.yaml:1:1: error: file is 1099511627776 bytes, over the limit of 4194304 bytes [yaml.too_large]"
            #expect(run.stdout.contains(refusal), "\(run.stdout)")
        }
    }

    @Test func aTerabyteRuleFileIsRefusedFromItsSize() throws {
        let directory = try Fixtures.copyOfShipped()
        let huge = try sparse("huge.yaml", bytes: 1 << 40)
        try FileManager.default.moveItem(atPath: huge, toPath: directory + "/rules/huge.yaml")
        let run = CapturedRun(["check", "."], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("rules/huge.yaml:1:1: error: file is 1099511627776 bytes, over the limit"), "\(run.stdout)")
    }

    @Test func aHugePopulationResultIsRefusedFromItsSize() throws {
        let path = try sparse("shard.json", bytes: 1 << 40)
        let run = CapturedRun(["population", "merge", path], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("is 1099511627776 bytes, over the limit of 268435456 bytes for a population result"), "\(run.stderr)")
    }

    @Test func aPipeOrDeviceIsNotAFileAndNothingBlocks() throws {
        let fifo = Fixtures.temporaryDirectory() + "/day.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/null"] {
            let run = CapturedRun(["check", path], in: Self.root)
            #expect(run.exitCode == .failure)
            #expect(run.stdout.contains("1:1: error: not a regular file (a directory, device or pipe) [io.unreadable]"), "\(run.stdout)")
        }
        let merge = CapturedRun(["population", "merge", fifo], in: Self.root)
        #expect(merge.exitCode == .usage)
        #expect(merge.stderr.contains("not a regular file"))
    }
}
