import RulesCLI

/// Runs `rules` in-process and keeps what it wrote.
public final class CapturedRun {
    public private(set) var stdout = ""
    public private(set) var stderr = ""
    public private(set) var exitCode: ExitCode = .success

    /// Runs `arguments` with `directory` as the working directory.
    public init(
        _ arguments: [String], in directory: String, terminal: Bool = false, environment: [String: String] = [:]
    ) {
        var out = ""
        var err = ""
        let io = CommandIO(
            out: { out += $0 }, err: { err += $0 }, stdoutIsTerminal: terminal, environment: environment,
            currentDirectory: directory)
        exitCode = RulesCLI.run(arguments: arguments, io: io)
        stdout = out
        stderr = err
    }
}
