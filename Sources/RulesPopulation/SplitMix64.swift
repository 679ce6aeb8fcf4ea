/// The population's random numbers: SplitMix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014), chosen because it is tiny, fast, passes BigCrush,
/// and needs nothing but 64-bit wrapping arithmetic — the same seed gives the same numbers on
/// every platform and compiler.
///
/// - Each step adds 0x9E3779B97F4A7C15 to the state and returns the state mixed:
///   `z = (z ^ z >> 30) &* 0xBF58476D1CE4E5B9; z = (z ^ z >> 27) &* 0x94D049BB133111EB; z ^ z >> 31`.
/// - A uniform number in [0, 1) is the top 53 bits of a step times 2⁻⁵³ (exact in a `Double`).
/// - A standard normal number is the sum of twelve uniforms minus 6 (Irwin–Hall): additions
///   only, so no platform's `log` or `cos` can change a draw; tails end at ±6 standard deviations.
/// - Streams: user `u` of seed `s` draws from `SplitMix64(mixing: s, u)`; a response to a
///   delivered notification from a stream keyed by the user and the notification's id (FNV-1a),
///   so a change of what is delivered never shifts the draws of the user's days.
package struct SplitMix64: Sendable {
    package private(set) var state: UInt64

    package init(state: UInt64) { self.state = state }

    /// A stream for `key` under `seed`: the seed's first output mixed with the key.
    package init(mixing seed: UInt64, _ key: UInt64) {
        var base = SplitMix64(state: seed)
        let first = base.next()
        var keyed = SplitMix64(state: first ^ (key &* 0xD1B5_4A32_D192_ED03))
        state = keyed.next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    package mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool {
        uniform() < p
    }

    /// Standard normal (Irwin–Hall of twelve uniforms), in [-6, 6].
    package mutating func normal() -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += uniform() }
        return sum - 6
    }

    /// 64-bit FNV-1a of `text`'s UTF-8 bytes: a stable key for a string on every platform.
    package static func fnv1a(_ text: String) -> UInt64 {
        // Over the contiguous bytes when the string has them (a native string does): the
        // UTF-8 view's own iteration cost about 20 instructions a byte, at every delivery.
        if let hash = text.utf8.withContiguousStorageIfAvailable({ fnv1a(bytes: $0) }) { return hash }
        return fnv1a(bytes: text.utf8)
    }

    private static func fnv1a<Bytes: Sequence<UInt8>>(bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
