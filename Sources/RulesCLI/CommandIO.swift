import Foundation
import RulesDiagnostics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a command exits: 0 clean, 1 findings (or failed expectations), 2 usage, I/O or
/// internal error — the linters' convention.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    /// `rules diff`: no scenario behaved differently, but some changed element was never
    /// reached by them (so "no change" would be a guess).
    case unreached = 3
}

/// Everything a command may touch outside itself, so tests run commands in-process with
/// captured output and an explicit working directory (tests never change the process's).
public struct CommandIO {
    /// Writes to standard output.
    public var out: (String) -> Void
    /// Writes to standard error.
    public var err: (String) -> Void
    /// Whether standard output is a terminal (colour is used only then).
    public var stdoutIsTerminal: Bool
    public var environment: [String: String]
    /// Directory that relative paths are resolved against.
    public var currentDirectory: String

    /// `out` and `err` receive text with control characters from input escaped
    /// (`TextRenderer.terminalSafe`): whatever a command prints, a hostile name never drives
    /// the terminal. Files written with `--out` are written as they are.
    public init(
        out: @escaping (String) -> Void, err: @escaping (String) -> Void, stdoutIsTerminal: Bool,
        environment: [String: String], currentDirectory: String
    ) {
        self.out = { out(TextRenderer.terminalSafe($0)) }
        self.err = { err(TextRenderer.terminalSafe($0)) }
        self.stdoutIsTerminal = stdoutIsTerminal
        self.environment = environment
        self.currentDirectory = currentDirectory
    }

    /// The process's real streams, environment and working directory.
    public static func standard() -> CommandIO {
        CommandIO(
            out: { StandardStream.output.write($0) },
            err: { StandardStream.error.write($0) },
            stdoutIsTerminal: isatty(1) == 1,
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Writes `text` to `path`: `-` is standard output; otherwise through a temporary file
    /// beside the target and a rename over the target path itself — a symbolic link there
    /// is replaced, never written through (its target, inside or outside the tree, is left
    /// alone). Never over one of `inputs` (the files this run read), never into `/dev` or
    /// `/proc`, never onto a directory. On failure prints one line and returns false.
    public func writeAtomically(_ text: String, to path: String, inputs: [String] = []) -> Bool {
        guard let output = openOutput(path, inputs: inputs) else { return false }
        output.write(text)
        return output.finish()
    }

    /// Writes every file or none (a full disk halfway leaves nothing half written): each to a
    /// temporary file beside its target, with the checks of `writeAtomically`, and only when
    /// all are whole are they renamed into place. False after one line on standard error.
    public func writeAll(_ files: [(path: String, text: String)]) -> Bool {
        var outputs: [Output] = []
        for file in files {
            guard let output = openOutput(file.path) else {
                for written in outputs { written.discard() }
                return false
            }
            output.write(file.text)
            guard output.complete() else {
                for written in outputs { written.discard() }
                return false
            }
            outputs.append(output)
        }
        return outputs.allSatisfy { $0.finish() }
    }

    /// An output to write in pieces (a long run streamed as it happens), with the checks of
    /// `writeAtomically`: `-` (or nil) is standard output; a file is a temporary file beside
    /// the path, renamed over it by `finish()`. Nil, after one line on standard error, when
    /// the path may not be written.
    public func openOutput(_ path: String?, inputs: [String] = []) -> Output? {
        guard let path, path != "-" else { return Output(standard: out) }
        guard let target = outputTarget(path, inputs: inputs) else { return nil }
        let parent = (target as NSString).deletingLastPathComponent
        // A short name of its own (a name as long as the system allows, 255 bytes, plus a
        // suffix would be too long to create).
        let temporary = (parent as NSString).appendingPathComponent(".rules-\(UUID().uuidString.prefix(8)).tmp")
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            fail(.cannotWrite(path, reason: "cannot create a file beside it"))
            return nil
        }
        return Output(path: path, target: target, temporary: temporary, handle: handle, err: err)
    }

    /// The absolute path a file output `path` is written to, after the checks of
    /// `writeAtomically` (nothing is created); nil after one line on standard error when the
    /// path may not be written.
    public func outputTarget(_ path: String, inputs: [String] = []) -> String? {
        // `x/` names a directory: never the file `x`.
        if path.hasSuffix("/") || path.hasSuffix("/.") || path.hasSuffix("/..") || path == "." || path == ".." {
            fail(.cannotWrite(path, reason: "it names a directory; give a file name"))
            return nil
        }
        let target = URL(fileURLWithPath: resolve(path)).standardizedFileURL.path
        let parent = (target as NSString).deletingLastPathComponent
        let realParent = OutputPath.real(parent) ?? parent
        if ["/dev", "/proc", "/sys"].contains(where: { realParent == $0 || realParent.hasPrefix($0 + "/") }) {
            fail(.cannotWrite(path, reason: "not a place for a file (to print, give '-')"))
            return nil
        }
        let realTarget = (realParent as NSString).appendingPathComponent((target as NSString).lastPathComponent)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue {
            fail(.cannotWrite(path, reason: "it is a directory"))
            return nil
        }
        let followed = OutputPath.real(target)
        for input in inputs {
            let absolute = resolve(input)
            let real = OutputPath.real(absolute) ?? absolute
            if real == realTarget || real == followed || absolute == target {
                fail(.cannotWrite(path, reason: "it is an input of this run (\(input)); choose another output"))
                return nil
            }
        }
        return target
    }

    /// Whether two outputs of one run land in one place (both standard output, or one file
    /// named two ways, through a link or not): the second would replace the first.
    public func sameOutput(_ a: String, _ b: String) -> Bool {
        if a == "-" || b == "-" { return a == b }
        let (first, second) = (URL(fileURLWithPath: resolve(a)).standardizedFileURL.path, URL(fileURLWithPath: resolve(b)).standardizedFileURL.path)
        if first == second { return true }
        func real(_ path: String) -> String {
            let parent = (path as NSString).deletingLastPathComponent
            return ((OutputPath.real(parent) ?? parent) as NSString).appendingPathComponent((path as NSString).lastPathComponent)
        }
        return real(first) == real(second)
    }

    /// Colour only on a terminal, and never when `NO_COLOR` is set to anything non-empty.
    public var useColor: Bool {
        stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// `path` made absolute against `currentDirectory`.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path == "." { return currentDirectory }
        return (currentDirectory as NSString).appendingPathComponent(path)
    }
}

/// Paths as the output writer compares them.
enum OutputPath {
    /// `path` with every symbolic link resolved; nil when it does not exist.
    static func real(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Text written in pieces to standard output or to a file that appears whole at `finish()`.
public final class Output {
    private let standard: ((String) -> Void)?
    private let path: String
    private let target: String
    private let temporary: String
    private let handle: FileHandle?
    private let err: (String) -> Void
    private var buffer = Data()
    private var failure: String?

    init(standard: @escaping (String) -> Void) {
        self.standard = standard
        path = "-"
        target = ""
        temporary = ""
        handle = nil
        err = { _ in }
    }

    init(path: String, target: String, temporary: String, handle: FileHandle, err: @escaping (String) -> Void) {
        standard = nil
        self.path = path
        self.target = target
        self.temporary = temporary
        self.handle = handle
        self.err = err
    }

    /// Appends `text` (written out in pieces of 64 KiB).
    public func write(_ text: String) {
        if let standard { return standard(text) }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 65_536 { flush() }
    }

    private func flush() {
        guard let handle, failure == nil, !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch { failure = error.localizedDescription }
        buffer.removeAll(keepingCapacity: true)
    }

    private var closed = false

    /// Writes out what is buffered and closes the temporary file, without renaming it; false,
    /// after one line on standard error (the temporary file removed), when it could not be
    /// written whole. `finish()` then renames it.
    public func complete() -> Bool {
        guard let handle else { return true }
        if !closed {
            closed = true
            flush()
            do { try handle.synchronize() } catch { failure = failure ?? error.localizedDescription }
            try? handle.close()
        }
        if let failure {
            unlink(temporary)
            err(CommandError.cannotWrite(path, reason: failure).line)
            return false
        }
        return true
    }

    /// Removes the temporary file: nothing of this output is kept.
    public func discard() {
        guard let handle else { return }
        if !closed {
            closed = true
            try? handle.close()
        }
        unlink(temporary)
    }

    /// Renames the file into place (standard output: nothing to do); false, after one line on
    /// standard error, when it could not be written.
    public func finish() -> Bool {
        guard handle != nil else { return true }
        guard complete() else { return false }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            err(CommandError.cannotWrite(path, reason: reason).line)
            return false
        }
        return true
    }
}

/// Text kept in an unlinked temporary file while a long run goes, then copied into an
/// output in pieces: memory holds a piece, not the text.
final class SpooledText {
    private var handle: FileHandle?
    private var buffer = ""

    init() {
        let path = NSTemporaryDirectory() + "rules-spool-\(UUID().uuidString)"
        if FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) {
            handle = FileHandle(forUpdatingAtPath: path)
            unlink(path)
        }
    }

    func append(_ text: String) {
        buffer += text
        guard buffer.utf8.count >= 1 << 20 else { return }
        flushBuffer()
    }

    private func flushBuffer() {
        guard let handle else { return }
        try? handle.write(contentsOf: Data(buffer.utf8))
        buffer = ""
    }

    /// Everything appended, in order, written to `output`.
    func copy(to output: Output) {
        guard let handle else { return output.write(buffer) }
        flushBuffer()
        try? handle.seek(toOffset: 0)
        var carried: [UInt8] = []
        while let piece = try? handle.read(upToCount: 1 << 20), !piece.isEmpty {
            var bytes = carried + piece
            // Cut before a character a piece would split: its bytes go with the next piece.
            var cut = bytes.count
            while cut > 0, bytes.count - cut < 4, bytes[cut - 1] & 0xC0 == 0x80 { cut -= 1 }
            if cut > 0, bytes[cut - 1] >= 0xC0 { cut -= 1 } else { cut = bytes.count }
            carried = Array(bytes[cut...])
            bytes.removeSubrange(cut...)
            output.write(String(decoding: bytes, as: UTF8.self))
        }
        if !carried.isEmpty { output.write(String(decoding: carried, as: UTF8.self)) }
        try? handle.close()
        self.handle = nil
    }
}
