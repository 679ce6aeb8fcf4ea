import Foundation
import RulesSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// `rules population POP --telemetry-out DIR`: the directory made (or an empty one used), and
/// each block of users written to it atomically as `telemetry-000001.jsonl` (a shard's as
/// `telemetry-2of8-000001.jsonl`), never over an input of the run nor through a link.
enum TelemetryOutput {
    static func blocks(_ directory: String, options: PopulationOptions, inputs: [String], _ io: CommandIO) -> TelemetryBlocks? {
        let absolute = io.resolve(directory)
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
