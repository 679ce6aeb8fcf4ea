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
        if path == "-" {
            out(text)
            return true
        }
        let target = URL(fileURLWithPath: resolve(path)).standardizedFileURL.path
        let parent = (target as NSString).deletingLastPathComponent
        let realParent = OutputPath.real(parent) ?? parent
        if ["/dev", "/proc", "/sys"].contains(where: { realParent == $0 || realParent.hasPrefix($0 + "/") }) {
            err("Error: cannot write \(path): not a place for a file (to print, give '-')\n")
            return false
        }
        let realTarget = (realParent as NSString).appendingPathComponent((target as NSString).lastPathComponent)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue {
            err("Error: cannot write \(path): it is a directory\n")
            return false
        }
        let followed = OutputPath.real(target)
        for input in inputs {
            let absolute = resolve(input)
            let real = OutputPath.real(absolute) ?? absolute
            if real == realTarget || real == followed || absolute == target {
                err("Error: cannot write \(path): it is an input of this run (\(input)); choose another output\n")
                return false
            }
        }
        let temporary = (parent as NSString).appendingPathComponent(".\((target as NSString).lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary), options: [.withoutOverwriting])
        } catch {
            err("Error: cannot write \(path): \(error.localizedDescription)\n")
            return false
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            err("Error: cannot write \(path): \(reason)\n")
            return false
        }
        return true
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
