import Foundation
import RulesEngine

/// `rules population POP --telemetry-out DIR`: every synthetic user's telemetry, as the app
/// would send it, written in blocks of consecutive users (`telemetry-000001.jsonl` holds users
/// 1–1,000 of the run) in user order whatever the jobs. Each user's lines go out as soon as
/// every earlier user of the block has gone out (the jobs live users in turn, so few wait):
/// memory holds the users lived out of turn, never a whole block's lines — 1,000 users × 365
/// days once needed 2.4 GB held, and a year for 1,000 users aborted.
package final class TelemetryBlocks: @unchecked Sendable {
    /// Where one block's text goes, in pieces: `write` appends, `finish` makes it whole (false:
    /// it could not be written, and the run fails).
    package struct BlockOutput: Sendable {
        package var write: @Sendable (String) -> Void
        package var finish: @Sendable () -> Bool
        /// Drops what was written (another block failed: nothing half-written is left).
        package var discard: @Sendable () -> Void

        package init(
            write: @escaping @Sendable (String) -> Void, finish: @escaping @Sendable () -> Bool, discard: @escaping @Sendable () -> Void = {}
        ) {
            self.write = write
            self.finish = finish
            self.discard = discard
        }
    }

    /// Users a block holds.
    package static let blockSize = 1_000

    private let lock = NSLock()
    private let count: Int
    private let open: @Sendable (_ block: Int) -> BlockOutput?
    /// Per block: its output, the next position to go out, and the users lived ahead of it.
    private var outputs: [Int: BlockOutput] = [:]
    private var next: [Int: Int] = [:]
    private var waiting: [Int: [String]] = [:]
    private var failed = false

    /// `count`: the users the run lives (a shard's); `open` starts block `block` (1-based).
    package init(count: Int, open: @escaping @Sendable (_ block: Int) -> BlockOutput?) {
        self.count = count
        self.open = open
    }

    /// Blocks handed over whole: `write` gets each block's text (1-based), for callers that
    /// read the lines back in memory.
    package convenience init(count: Int, write: @escaping @Sendable (_ block: Int, _ text: String) -> Bool) {
        self.init(count: count) { block in
            let text = Collected()
            return BlockOutput(write: { text.append($0) }, finish: { write(block, text.value) })
        }
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ piece: String) { lock.withLock { text += piece } }
        var value: String { lock.withLock { text } }
    }

    /// Whether every block was written.
    package var succeeded: Bool { lock.withLock { !failed } }

    /// The lines of user `number` (the `position`-th of the run, 0-based). Written under the
    /// lock, one user at a time, in position order within the block.
    func add(position: Int, lines: [String]) {
        let block = position / Self.blockSize
        let first = block * Self.blockSize
        let last = Swift.min(count, first + Self.blockSize) - 1
        lock.withLock {
            guard !failed else { return }
            waiting[position] = lines
            if outputs[block] == nil {
                guard let output = open(block + 1) else {
                    fail()
                    return
                }
                outputs[block] = output
                next[block] = first
            }
            guard let output = outputs[block] else { return }
            var position = next[block] ?? first
            while let ready = waiting.removeValue(forKey: position) {
                var text = ""
                for line in ready { text += line + "\n" }
                output.write(text)
                position += 1
            }
            next[block] = position
            if position > last {
                outputs[block] = nil
                next[block] = nil
                if !output.finish() { fail() }
            }
        }
    }

    /// A block could not be written: the run fails and the blocks still open are dropped.
    private func fail() {
        failed = true
        for output in outputs.values { output.discard() }
        outputs.removeAll()
        waiting.removeAll()
    }

    /// Whether the engine's record goes into telemetry (the rest is dropped as it streams by).
    static func keeps(_ kind: EngineRecord.Kind) -> Bool {
        switch kind {
        case .appRun, .log, .check, .notificationDelivered, .notificationResponse, .settingsChanged, .sync, .routeChanged, .dayClosed: true
        default: false
        }
    }

    /// The key synthetic installs are hashed with: the population's seed (a real app keeps its
    /// own secret).
    static func key(seed: UInt64) -> [UInt8] { Array("synthetic population \(seed)".utf8) }
}
