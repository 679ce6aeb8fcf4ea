import Foundation
import RulesPopulation

#if canImport(Glibc)
    import Glibc
#endif

/// `rules population POP --telemetry-out DIR`: the directory made (or an empty one used), and
/// each block of users written to it atomically as `telemetry-000001.jsonl` (a shard's as
/// `telemetry-2of8-000001.jsonl`), never over an input of the run nor through a link.
enum TelemetryOutput {
    static func blocks(_ directory: String, ruleset: String, options: PopulationOptions, inputs: [String], _ io: CommandIO) -> TelemetryBlocks? {
        guard !directory.isEmpty else {
            io.fail(.cannotWrite(directory, reason: "an empty name would mean the current directory; name the telemetry's own directory"))
            return nil
        }
        let absolute = io.resolve(directory)
        if let reason = insideRuleset(absolute, ruleset: ruleset, io) {
            io.fail(.cannotWrite(directory, reason: reason))
            return nil
        }
        // A link named as the directory is not followed (as `--write` follows none).
        var info = stat()
        if lstat(absolute, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            io.fail(.cannotWrite(directory, reason: "it is a link; links are not followed"))
            return nil
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                io.fail(.cannotWrite(directory, reason: "it is not a directory"))
                return nil
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: absolute, withIntermediateDirectories: true)
            } catch {
                io.fail(.cannotMakeDirectory(directory, reason: nil))
                return nil
            }
        }
        let shard = options.shard
        let prefix = shard == .whole ? "telemetry-" : "telemetry-\(shard.index)of\(shard.count)-"
        if let reason = earlierRun(in: absolute, prefix: prefix) {
            io.fail(.cannotWrite(directory, reason: reason))
            return nil
        }
        let writer = Writer(io: io)
        // Each block streamed into a temporary file beside its name and renamed into place when
        // whole (`TelemetryBlocks` calls these under its lock, one at a time).
        return TelemetryBlocks(count: shard.size(of: options.users)) { block in
            let name = prefix + String(format: "%06d", block) + ".jsonl"
            guard let output = writer.io.openOutput((directory as NSString).appendingPathComponent(name), inputs: inputs) else { return nil }
            let box = Writer.Box(output)
            return TelemetryBlocks.BlockOutput(write: { box.output.write($0) }, finish: { box.output.finish() }, discard: { box.output.discard() })
        }
    }

    /// Why `absolute` is among the ruleset's own files (its routines, rules, templates,
    /// scenarios, populations), or nil when it is outside them.
    private static func insideRuleset(_ absolute: String, ruleset: String, _ io: CommandIO) -> String? {
        let real = URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
        for folder in TunedCopy.folders {
            let inside = URL(fileURLWithPath: (io.resolve(ruleset) as NSString).appendingPathComponent(folder)).standardizedFileURL
                .resolvingSymlinksInPath().path
            if real == inside || real.hasPrefix(inside + "/") {
                return "it is inside the ruleset's \(folder)/; choose a directory outside"
            }
        }
        return nil
    }

    /// Telemetry of an earlier run left beside this one's would be fitted as one population: a
    /// directory already holding this run's names is refused (other shards' names are not this
    /// run's, so a batch's shards still land in one directory).
    private static func earlierRun(in absolute: String, prefix: String) -> String? {
        let held = ((try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []).filter {
            $0.hasPrefix(prefix) && $0.hasSuffix(".jsonl") && $0.dropFirst(prefix.count).dropLast(6).allSatisfy(\.isNumber)
        }
        guard let first = held.sorted().first else { return nil }
        return "it already holds telemetry (\(first)) of an earlier run, which a fit would read as the same users; use a new or empty directory"
    }

    /// The command's I/O for the jobs: `TelemetryBlocks` writes under its lock.
    final class Writer: @unchecked Sendable {
        let io: CommandIO
        init(io: CommandIO) { self.io = io }

        /// An output used only under `TelemetryBlocks`' lock.
        final class Box: @unchecked Sendable {
            let output: Output
            init(_ output: Output) { self.output = output }
        }
    }
}
