import Foundation

/// How long the server waits after an edit before it checks the workspace: a small multiple
/// of what the last check took, within bounds. A small ruleset (a few milliseconds of work)
/// answers a keystroke within a few tens of milliseconds; a ruleset whose check takes 100 ms
/// waits 300 ms, so typing does not run a check per keystroke and the editor stays ahead.
/// A fixed delay (`fixed`) serves tests that need one.
public struct DiagnosticsDelay: Sendable, Equatable {
    /// The multiple of the last check's duration waited.
    public static let multiple = 3.0
    /// Seconds: the least and the most waited.
    public static let bounds: ClosedRange<Double> = 0.008...0.5
    /// Seconds waited before the first check has been timed.
    public static let first = 0.02

    /// Seconds the last check took (nil before any).
    public private(set) var lastCheck: Double?
    /// A delay that never adapts (seconds), when set.
    public var fixed: Double?

    public init(fixed: Double? = nil) { self.fixed = fixed }

    /// Seconds to wait after the latest edit.
    public var seconds: Double {
        if let fixed { return fixed }
        guard let lastCheck, lastCheck.isFinite, lastCheck >= 0 else { return Self.first }
        return Swift.min(Swift.max(lastCheck * Self.multiple, Self.bounds.lowerBound), Self.bounds.upperBound)
    }

    /// Records how long a check took (seconds).
    public mutating func checked(taking seconds: Double) { lastCheck = seconds }
}
