import Foundation
import RulesEngine

/// `rules population POP --telemetry-out DIR`: every synthetic user's telemetry, as the app
/// would send it, written in blocks of consecutive users (`telemetry-000001.jsonl` holds users
/// 1–1,000 of the run) in user order whatever the jobs: a block is written once all its users
/// are lived, so memory holds about one block per job, never the whole run.
package final class TelemetryBlocks: @unchecked Sendable {
    /// Users a block holds.
    package static let blockSize = 1_000

    private let lock = NSLock()
    private let count: Int
    private let write: @Sendable (_ block: Int, _ text: String) -> Bool
    private var pending: [Int: [Int: [String]]] = [:]
    private var failed = false

    /// `count`: the users the run lives (a shard's); `write` stores a block's text (1-based).
    package init(count: Int, write: @escaping @Sendable (_ block: Int, _ text: String) -> Bool) {
        self.count = count
        self.write = write
    }

    /// Whether every block was written.
    package var succeeded: Bool { lock.withLock { !failed } }

    /// The lines of user `number` (the `position`-th of the run, 0-based).
    func add(position: Int, lines: [String]) {
        let block = position / Self.blockSize
        let ready: [Int: [String]]? = lock.withLock {
            pending[block, default: [:]][position] = lines
            let size = Swift.min(Self.blockSize, count - block * Self.blockSize)
            guard pending[block]?.count == size else { return nil }
            return pending.removeValue(forKey: block)
        }
        guard let ready else { return }
        var text = ""
        for position in ready.keys.sorted() { for line in ready[position] ?? [] { text += line + "\n" } }
        // One block written at a time: the writer reports failures on the command's stream.
        lock.withLock { if !write(block + 1, text) { failed = true } }
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
