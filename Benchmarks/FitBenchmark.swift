import Foundation
import RulesCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `rules population fit` on 10,000 office workers × 28 days of telemetry (30 % of deliveries
/// withheld; written once to `.build/bench-telemetry/` and kept): the fit's wall time and peak
/// memory (goals ≤ 30 s, < 512 MB), measured in a child process of its own so the memory is
/// the fit's alone, next to reading the same bytes line by line with Foundation's JSON.
enum FitBenchmark {
    static func run(repository: String) {
        // Everything heavy in children of their own, the fit's first: a child forked from a parent
        // that has read a gigabyte starts with the parent's pages, and its peak would be the parent's.
        guard let directory = telemetry(repository: repository) else {
            print("fit: the telemetry could not be written")
            return
        }
        guard let (seconds, rss) = child(["fit-child", directory], repository: repository) else {
            print("fit: the child process failed")
            return
        }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
        var bytes = 0
        var lines = 0
        let json = Measure.best(runs: 1) {
            for path in files.map({ directory + "/" + $0 }) {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                bytes += data.count
                for line in data.split(separator: 0x0A) {
                    lines += 1
                    blackHole(try? JSONSerialization.jsonObject(with: Data(line)))
                }
            }
        }
        print(
            "fit: \(Measure.format(seconds, decimals: 1)) s for 10,000 users x 28 days (\(lines) lines, \(bytes / 1_000_000) MB), peak memory \(rss / 1024) MB "
                + "(goals ≤ 30 s, < 512 MB); Foundation's JSON reads the same lines in \(Measure.format(json, decimals: 1)) s "
                + "(the fit takes \(Measure.format(seconds / json, decimals: 2))x that)")
    }

    /// The warehouse loop on the same telemetry, by `scripts/bench-warehouse` (each step a process
    /// of its own, its wall time and peak memory): the features query on DuckDB, chDB and Spark
    /// local (`BENCH_ENGINES` to choose), `fit --features` on its rows and on a million users'
    /// rows, `fit` and `fit --check` on 200,000 users of one line. Its lines are printed as they come.
    static func warehouse(repository: String) {
        guard let directory = telemetry(repository: repository) else {
            print("warehouse: the telemetry could not be written")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let engines = ProcessInfo.processInfo.environment["BENCH_ENGINES"] ?? "duckdb,chdb,spark"
        process.arguments = [
            "python3", repository + "/scripts/bench-warehouse", directory, repository + "/.build/bench-warehouse", "--rules",
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path, "rules-child", "--engines", engines,
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: repository)
        guard (try? process.run()) != nil else {
            print("warehouse: python3 could not be started")
            return
        }
        process.waitUntilExit()
        if process.terminationStatus != 0 { print("warehouse: a step failed (said above)") }
    }

    /// The benchmark's telemetry directory, written (in a child) unless it is there already.
    static func telemetry(repository: String) -> String? {
        let directory = repository + "/.build/bench-telemetry"
        if FileManager.default.fileExists(atPath: directory + "/telemetry-000010.jsonl") { return directory }
        return child(["telemetry-child", directory], repository: repository) == nil ? nil : directory
    }

    /// In a child: `rules ARGUMENTS` as the command line runs them (in the repository), its
    /// output dropped and its exit status the command's.
    static func rulesChild(_ arguments: [String], repository: String) -> Never {
        let io = CommandIO(
            out: { _ in }, err: { FileHandle.standardError.write(Data($0.utf8)) }, stdoutIsTerminal: false, environment: [:],
            currentDirectory: repository)
        exit(RulesCLI.run(arguments: arguments, io: io).rawValue)
    }

    /// In a child: the telemetry of 10,000 office workers × 28 days, 30 % withheld.
    static func telemetryChild(_ directory: String, repository: String) {
        // A run cut short leaves some blocks: start again (telemetry never mixes two runs).
        try? FileManager.default.removeItem(atPath: directory)
        let io = CommandIO(out: { _ in }, err: { print($0, terminator: "") }, stdoutIsTerminal: false, environment: [:], currentDirectory: repository)
        let code = RulesCLI.run(
            arguments: [
                "population", "populations/office_workers.yaml", "--users", "10000", "--days", "28", "--randomize", "0.3", "--telemetry-out",
                directory,
            ], io: io)
        exit(code == .usage ? 1 : 0)
    }

    /// In the child: the fit itself, as `rules population fit DIR --out FILE` runs it.
    static func fitChild(_ directory: String, repository: String) {
        let out = NSTemporaryDirectory() + "/bench-fitted-\(getpid()).yaml"
        let io = CommandIO(out: { _ in }, err: { _ in }, stdoutIsTerminal: false, environment: [:], currentDirectory: repository)
        let code = RulesCLI.run(arguments: ["population", "fit", directory, "--out", out], io: io)
        try? FileManager.default.removeItem(atPath: out)
        // Its own peak: the parent's RUSAGE_CHILDREN is the largest child's, which is the
        // telemetry writer's when the telemetry was written in the same run.
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        print("peak \(usage.ru_maxrss)")
        exit(code == .success ? 0 : 1)
    }

    /// Runs this benchmark binary with `arguments`; its wall time and peak RSS (KiB).
    static func child(_ arguments: [String], repository: String) -> (Double, Int)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: repository)
        let pipe = Pipe()
        process.standardOutput = pipe
        let start = Date()
        guard (try? process.run()) != nil else { return nil }
        let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        // The child's own peak when it says it (`peak KiB`), else the largest child's.
        let own = said.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.dropFirst(5)) }
        return process.terminationStatus == 0 ? (seconds, own ?? Int(usage.ru_maxrss)) : nil
    }
}
