import Foundation
import RulesDiagnostics
import RulesEngine
import RulesFit
import RulesPopulation
import RulesTune
import Ruleset

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `rules population fit TELEMETRY… --out FILE`: a population file fitted to what the app
/// recorded; `--check FITTED TELEMETRY…`: whether a population's users behave like the real
/// ones on the headline metrics.
enum PopulationFitCommand {
    static func mixed(_ text: String) throws(UsageError) -> TelemetryReader.Mixed {
        guard let value = TelemetryReader.Mixed(rawValue: text) else { throw UsageError(message: "--mixed takes refuse, majority or all") }
        return value
    }

    /// The usage error when the options do not go together; nil when they do.
    static func misused(_ files: [String], _ given: PopulationCommand.Options, _ io: CommandIO) -> ExitCode? {
        guard !files.isEmpty else { return PopulationCommand.usage("fit takes telemetry files (JSON lines) or directories of them", io) }
        guard given.check != nil || given.out != nil || given.featuresOut != nil else {
            return PopulationCommand.usage("fit writes a population file: give --out FILE", io)
        }
        if given.features, given.featuresOut != nil {
            return PopulationCommand.usage(
                "--features-out writes the features of telemetry lines; with --features the files are features already", io)
        }
        if given.features, given.mixed != .refuse {
            return PopulationCommand.usage("--mixed reads telemetry lines of several rulesets; a features file holds one ruleset's rows", io)
        }
        if let groups = given.groups, groups != "auto" {
            guard let n = Int(groups), (1...50).contains(n) else {
                return PopulationCommand.usage("--groups takes a number from 1 to 50, or auto", io)
            }
        }
        return nil
    }

    static func run(_ files: [String], _ given: PopulationCommand.Options, _ io: CommandIO) -> ExitCode {
        if let misused = misused(files, given, io) { return misused }
        // A number of groups (checked above), or nil: chosen by the data.
        let k = given.groups.flatMap { Int($0) }
        guard let (ruleset, _) = SimulationSupport.ruleset(given.ruleset, io) else { return .usage }
        guard let paths = telemetryFiles(files, features: given.features, io) else { return .usage }
        let key = String(ruleset.sha256.prefix(16))
        // A fit of features files (no check) reads them twice rather than keeping their users.
        let streams = given.features && given.check == nil
        guard
            let reader = read(
                paths, ruleset: ruleset, mixed: given.mixed, features: given.features ? key : nil, keepsRows: given.featuresOut != nil,
                streams: streams, io)
        else { return .usage }
        if let featuresOut = given.featuresOut {
            let inputs = paths + SimulationSupport.inputs(ruleset: given.ruleset, io, extra: given.out.map { [$0] } ?? [])
            guard io.writeAtomically(reader.featureLines(rulesetKey: reader.majority ?? key), to: featuresOut, inputs: inputs) else { return .usage }
            io.out("wrote \(featuresOut): the features of \(reader.users.count) users\n")
            if given.out == nil, given.check == nil { return .success }
        }
        guard reader.userCount >= PopulationFit.minimumGroup else {
            io.fail(
                .unreadable(
                    file: files[0],
                    reason:
                        "the telemetry holds \(reader.userCount) users; a fit needs at least \(PopulationFit.minimumGroup) (it never describes a handful of people)"
                ))
            return .usage
        }
        if let fitted = given.check { return check(fitted, reader: consume reader, ruleset: ruleset, given, io) }
        let majority = reader.majority
        let fit: PopulationFit
        if reader.stream != nil {
            guard let streamed = streamed(consume reader, paths, k: k, ruleset: ruleset, key: key, io) else { return .usage }
            fit = streamed
        } else {
            fit = PopulationFit(reader, ruleset: ruleset, k: k)
        }
        for warning in fit.warnings { io.err("warning: \(warning)\n") }
        let name = ((given.out ?? "fitted") as NSString).lastPathComponent.replacingOccurrences(of: ".yaml", with: "")
        let text = fit.yaml(name: name, seed: 7, timeZone: "Asia/Seoul", rulesetKey: majority, ruleset: ruleset)
        guard let out = given.out, io.writeAtomically(text, to: out, inputs: paths + SimulationSupport.inputs(ruleset: given.ruleset, io, extra: []))
        else {
            return .usage
        }
        io.out("wrote \(out): \(fit.groups.count) group\(fit.groups.count == 1 ? "" : "s") from \(fit.users) users × \(fit.days) days\n")
        return .success
    }

    /// The files named, a directory standing for its `.jsonl` files (sorted).
    /// A file named twice (directly, through its directory or a link) is refused: its lines
    /// would be read as the same users twice. What a directory holds besides `.jsonl` files
    /// (subdirectories, `*.json`) is named in a note, not skipped silently.
    static func telemetryFiles(_ names: [String], features: Bool = false, _ io: CommandIO) -> [String]? {
        // Engines write a features table as a directory of parts (`part-00000-….json`).
        let suffixes = features ? [".jsonl", ".json"] : [".jsonl"]
        func wanted(_ entry: String) -> Bool { suffixes.contains { entry.hasSuffix($0) } && !entry.hasPrefix(".") }
        var out: [String] = []
        var seen: [String: String] = [:]
        for name in names {
            let path = io.resolve(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                io.fail(.noSuchPath(name))
                return nil
            }
            var files: [(String, String)] = []
            if isDirectory.boolValue {
                let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                let skipped = entries.filter { !wanted($0) && !$0.hasPrefix(".") && !(features && ($0.hasPrefix("_") || $0.hasSuffix(".crc"))) }
                if !skipped.isEmpty {
                    let shown = skipped.prefix(5).map { TuneQuestion.shown($0) }.joined(separator: ", ") + (skipped.count > 5 ? ", …" : "")
                    io.err(
                        "note: \(TuneQuestion.shown(name)): \(skipped.count) entr\(skipped.count == 1 ? "y" : "ies") not read (only \(features ? ".jsonl and .json files are features" : ".jsonl files are telemetry"); name a subdirectory to read it): \(shown)\n"
                    )
                }
                files = entries.filter(wanted).map {
                    ((path as NSString).appendingPathComponent($0), (name as NSString).appendingPathComponent($0))
                }
            } else {
                files = [(path, name)]
            }
            for (file, shown) in files {
                let real = URL(fileURLWithPath: file).resolvingSymlinksInPath().standardizedFileURL.path
                if let first = seen[real] {
                    io.fail(
                        .unreadable(
                            file: TuneQuestion.shown(shown),
                            reason: "given twice (also as \(TuneQuestion.shown(first))): its users would be read twice"))
                    return nil
                }
                seen[real] = shown
                out.append(file)
            }
        }
        return out
    }

    /// Reads `path` into `reader` when it is a regular file. It is opened without blocking and
    /// its type taken from the open descriptor, so a FIFO, a device (`/dev/zero`, `/dev/stdin`)
    /// or a file swapped for one after it was listed is refused at once, never read.
    static func readRegular(_ path: String, into reader: inout TelemetryReader) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            reader.problem("\(path): cannot be read")
            return
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            reader.problem("\(path): not a regular file (a directory, device or pipe): telemetry is read only from regular files")
            return
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        reader.read(handle: handle, name: path)
        try? handle.close()
    }

    /// The fit of features files read by `first` (streamed: users not kept): the users grouped,
    /// then every row read again and added to its group's sums; nil after saying what is wrong
    /// (a file that changed since the first pass).
    static func streamed(
        _ first: consuming TelemetryReader, _ paths: [String], k: Int?, ruleset: Ruleset, key: String, _ io: CommandIO
    ) -> PopulationFit? {
        let (span, unknownKinds) = ((first.firstDay, first.lastDay), first.unknownKinds)
        guard var stream = first.stream else { return nil }
        // The reader goes with its copy of the stream: the points are let go once grouped.
        _ = consume first
        stream.group(k: k, ruleset: ruleset, seed: 7)
        var reader = TelemetryReader(features: key)
        reader.stream = consume stream
        reader.secondPass = true
        for path in paths { readRegular(path, into: &reader) }
        for problem in reader.problems { io.err("error: \(problem)\n") }
        guard !reader.failed, let finished = reader.stream?.finished() else { return nil }
        switch finished {
        case .success(let grouping): return PopulationFit(grouping, span: span, unknownKinds: unknownKinds, ruleset: ruleset)
        case .failure(let failure):
            io.err("error: \(failure.message)\n")
            return nil
        }
    }

    /// Every file read into one reader (twice under `--mixed majority`: the first pass finds
    /// the ruleset most lines have); nil after saying what is wrong.
    static func read(
        _ paths: [String], ruleset: Ruleset, mixed: TelemetryReader.Mixed, features: String? = nil, keepsRows: Bool = false,
        streams: Bool = false, _ io: CommandIO
    ) -> TelemetryReader? {
        var reader: TelemetryReader
        if let features {
            // Rows stand for their users' lines; what follows reads them alike.
            reader = TelemetryReader(features: features)
            if streams { reader.stream = FeaturesStream() }
        } else {
            var keep: String?
            if mixed == .majority {
                var counting = TelemetryReader(dayStart: ruleset.dayStartsAt, mixed: .all)
                for path in paths { readRegular(path, into: &counting) }
                keep = counting.majority
            }
            reader = TelemetryReader(dayStart: ruleset.dayStartsAt, mixed: mixed, keepRuleset: keep)
            reader.keepsRows = keepsRows
        }
        // Lines (or rows) naming what the ruleset lacks are skipped (or refused).
        reader.knownRoutines = Set(ruleset.routines.map(\.id))
        reader.knownTypes = Set(ruleset.notifications.map(\.id))
        for path in paths { readRegular(path, into: &reader) }
        reader.finish()
        guard !reader.failed else {
            for problem in reader.problems { io.err("error: \(problem)\n") }
            return nil
        }
        if !reader.unknownNames.isEmpty {
            io.err(
                "note: lines naming what the ruleset lacks counted and skipped (telemetry of another ruleset?): \(reader.unknownNames.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))\n"
            )
        }
        if !reader.unknownKinds.isEmpty {
            io.err(
                "note: lines of unknown kinds counted and skipped: \(reader.unknownKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))\n"
            )
        }
        return reader
    }

    /// Lives `fitted` for the telemetry's users and days, reads its telemetry as the real one
    /// was read, and compares. The telemetry's users are measured first and let go (`reader` is
    /// consumed): memory then holds the two sides' measures, never both sides' users.
    static func check(
        _ fitted: String, reader: consuming TelemetryReader, ruleset: Ruleset, _ given: PopulationCommand.Options, _ io: CommandIO
    ) -> ExitCode {
        // A fitted file that does not load is a finding of that file (exit 1), as in `rules population`.
        guard let population = PopulationCommand.load(fitted, ruleset: ruleset, io) else { return .failure }
        let days = Swift.min(Swift.max(1, reader.lastDay - reader.firstDay + 1), population.days)
        var options = PopulationOptions(
            population: population, users: Swift.min(reader.users.count, Population.maxUsers), days: days,
            jobs: given.sizes.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        guard Population.livesWithinEngineDays(start: population.start, days: days) else {
            return PopulationCommand.usage("\(fitted) starts on a day from which \(days) days run past what the engine lives", io)
        }
        if let problem = population.workProblem(users: options.users, days: days, ruleset: ruleset) { return PopulationCommand.usage(problem, io) }
        // The telemetry's own trial, if it ran one: the fitted users withhold as often.
        let held = reader.users.values.reduce(0) { $0 + $1.withheld }
        let due = held + reader.users.values.reduce(0) { $0 + $1.deliveries }
        options.randomize = due == 0 ? 0 : (Double(held) / Double(due) * 100).rounded() / 100
        let metrics = FitCheck.metrics(reader, dayStart: ruleset.dayStartsAt)
        let real = FitCheck.measured(reader, metrics)
        _ = consume reader
        let lived = LivedTelemetry(dayStart: ruleset.dayStartsAt, metrics: metrics)
        // Each user's lines are read as soon as they go out, and measured: memory holds measures,
        // never a block's lines or the lived users' counts.
        let blocks = TelemetryBlocks(count: options.users) { _ in TelemetryBlocks.BlockOutput(write: { lived.add($0) }, finish: { true }) }
        _ = PopulationRun.run(population, ruleset: ruleset, options: options, telemetry: blocks)
        let check = FitCheck(names: metrics.map(\.0), real: real, fitted: lived.measured())
        io.out(check.text)
        return check.failures.isEmpty ? .success : .failure
    }

    /// The fitted population's telemetry, read as it is written — a user whole at a time — and
    /// each user measured by the check's metrics as soon as read, then let go.
    final class LivedTelemetry: @unchecked Sendable {
        private let lock = NSLock()
        private var reader: TelemetryReader
        private let metrics: [(String, FitCheck.Parts)]
        private var users: [(key: String, parts: [(Double, Double)])] = []

        init(dayStart: Int, metrics: [(String, FitCheck.Parts)]) {
            reader = TelemetryReader(dayStart: dayStart, mixed: .all)
            self.metrics = metrics
        }

        /// One user's lines (`TelemetryBlocks` writes each user's whole).
        func add(_ text: String) {
            lock.withLock {
                reader.read(text: text, name: "fitted")
                for (key, user) in reader.handOver() { users.append((key, metrics.map { $0.1(user) })) }
            }
        }

        /// By metric, every lived user's (top, bottom), in key order.
        func measured() -> [[(Double, Double)]] { lock.withLock { FitCheck.measured(users, metrics: metrics.count) } }
    }
}
