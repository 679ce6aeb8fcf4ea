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

    /// Writes `text` to `path` (resolved, symlinks followed) through a temporary file and a
    /// rename, so a reader never sees half a file; on failure prints one line and returns
    /// false. Anything but a regular file (`/dev/stdout`, a device, a pipe) is written in
    /// place: a rename would replace the device node or the link itself.
    public func writeAtomically(_ text: String, to path: String) -> Bool {
        let target = URL(fileURLWithPath: resolve(path)).resolvingSymlinksInPath()
        let type = (try? FileManager.default.attributesOfItem(atPath: target.path))?[.type] as? FileAttributeType
        let regular = type == nil || type == .typeRegular
        do {
            try Data(text.utf8).write(to: target, options: regular ? .atomic : [])
            return true
        } catch {
            err("Error: cannot write \(path): \(error.localizedDescription)\n")
            return false
        }
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
