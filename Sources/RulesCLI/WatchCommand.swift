import Dispatch
import Foundation
import RulesetFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `rules watch [SCENARIO] [--html FILE]`: checks, tests and simulates again on every save.
///
/// No server and no file-system events: the watch polls the files' sizes and modification
/// times (every `--interval` seconds) under `routines/`, `rules/`, `templates/` and
/// `scenarios/`, plus SCENARIO. A report written with `--html` carries a small script that
/// reloads the page (keeping its scroll position) while the watch runs — a page opened from
/// a file cannot fetch other files, but it can reload itself. When the watch ends (Ctrl-C),
/// the report is rewritten without the script.
enum WatchCommand {
    static var command: Command {
        Command(
            name: "watch",
            abstract: "Check, test and simulate again on every save of a rule or scenario file.",
            discussion: """
                Runs 'rules check', 'rules test' on scenarios/ and, with SCENARIO, the simulation, then
                again whenever a file under routines/, rules/, templates/ or scenarios/ (or SCENARIO)
                changes. With --html FILE the simulation is written there as a report that reloads
                itself in the browser while the watch runs: open it once and keep editing. Ctrl-C
                ends the watch and leaves a report that no longer reloads.
                """,
            usageArguments: "[SCENARIO]",
            arguments: [("SCENARIO", "A scenario to simulate on every change (optional).")],
            options: Options.self,
            run: run)
    }

    /// Set by SIGINT or SIGTERM; read by the polling loop.
    final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        func stop() { lock.withLock { stopped = true } }
        var isStopped: Bool { lock.withLock { stopped } }
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var ruleset = "."
        var html: String?
        /// Seconds from 0.05 to 60 between two looks at the files.
        var interval = 0.5
        /// Rounds before the watch stops; nil: until stopped.
        var rounds: Int?

        static var fields: [OptionField<Self>] {
            [
                SimulationSupport.rulesetOption(\.ruleset),
                .option(
                    \.html, OptionSpec(name: "--html", valueName: "FILE", help: "Write the simulation of SCENARIO as a self-reloading HTML report.")),
                .option(
                    \.interval, OptionSpec(name: "--interval", valueName: "SECONDS", help: "How often to look for changes (default: 0.5)."),
                    as: { text throws(UsageError) in
                        guard let interval = Double(text), interval >= 0.05, interval <= 60 else {
                            throw UsageError(message: "--interval takes seconds from 0.05 to 60")
                        }
                        return interval
                    }),
                .option(
                    \.rounds, OptionSpec(name: "--rounds", valueName: "N", help: "Stop after N rounds (default: run until interrupted)."),
                    as: { text throws(UsageError) in
                        guard let value = Int(text), value >= 1 else { throw UsageError(message: "--rounds takes a positive whole number") }
                        return value
                    }),
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard given.positional.count <= 1 else {
            return RulesCLI.usageError("watch takes at most one scenario file", usage: command.usage, helpName: "watch", io: io)
        }
        let scenario = given.positional.first
        let html = given.html
        if html != nil, scenario == nil {
            return RulesCLI.usageError("--html needs a SCENARIO to simulate", usage: command.usage, helpName: "watch", io: io)
        }
        let (interval, rounds) = (given.interval, given.rounds)
        let rulesetPath = given.ruleset
        let directory = io.resolve(rulesetPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            io.fail(.noRulesetDirectory(rulesetPath))
            return .usage
        }
        // A report that can never be written (a device, a directory, an input) is said before
        // watching starts, with exit 2.
        if let html, io.outputTarget(html, inputs: given.positional) == nil { return .usage }

        let flag = StopFlag()
        let sources = stopOnSignals(flag)
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }

        var last: [String: Stamp]?
        var round = 0
        var watch = WatchRound(scenario: scenario, html: html, rulesetPath: rulesetPath, directory: directory)
        io.out("watching \(rulesetPath == "." ? "the current directory" : rulesetPath) — Ctrl-C to stop\n")
        while !flag.isStopped {
            let now = fingerprint(directory: directory, scenario: scenario.map(io.resolve))
            if now != last {
                round += 1
                let changed = last.map { changes(from: $0, to: now) } ?? []
                io.out("\n── round \(round)\(changed.isEmpty ? "" : ": " + changed.joined(separator: ", ")) ──\n")
                watch.run(io)
                last = now
                if let rounds, round >= rounds { break }
            }
            Thread.sleep(forTimeInterval: interval)
        }
        // The report stays, without its reload script (with the errors, if the rules were broken).
        let kept = html.flatMap { html in watch.shown.map { io.writeAtomically($0, to: html) } } ?? true
        io.out("\nwatch ended after \(round) round\(round == 1 ? "" : "s")\n")
        return kept ? .success : .usage
    }

    /// SIGINT and SIGTERM stop the watch (at the end of its round) instead of the process.
    static func stopOnSignals(_ flag: StopFlag) -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { flag.stop() }
            source.resume()
            return source
        }
    }

    /// A file's size and modification time.
    struct Stamp: Equatable {
        var size: Int64
        var modified: Int64
    }

    /// Every watched file with its stamp, by path.
    static func fingerprint(directory: String, scenario: String?) -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        func add(_ path: String, as name: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return }
            #if canImport(Darwin)
                let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            #else
                let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            #endif
            stamps[name] = Stamp(size: Int64(info.st_size), modified: modified)
        }
        for file in RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders + ["scenarios"]) {
            add(file.path, as: file.display)
        }
        if let scenario { add(scenario, as: scenario) }
        return stamps
    }

    /// The names of files added, changed or removed, sorted.
    static func changes(from old: [String: Stamp], to new: [String: Stamp]) -> [String] {
        let names = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }
        return names.sorted()
    }
}
