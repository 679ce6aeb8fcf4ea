/// Every limit on input, in one place. Each protects the app or CI from a file,
/// expression or tool call crafted to exhaust time or memory; crossing one is a diagnostic,
/// never a trap.
public enum InputLimits {
    /// Largest rule, template or scenario file read, in bytes (4 MiB).
    public static let maxFileBytes = 4 * 1024 * 1024
    /// Deepest nesting of mappings and sequences in a YAML or JSON document.
    public static let maxNestingDepth = 64
    /// Most nodes that anchors and aliases may add to one document by expansion
    /// (a "billion laughs" file stops here).
    public static let maxAliasExpansion = 10_000
    /// Longest expression source, in Unicode scalars.
    public static let maxExpressionLength = 4_096
    /// Deepest nesting of an expression tree.
    public static let maxExpressionDepth = 64
    /// Evaluation steps allowed for one evaluation of one expression.
    public static let evaluationBudget = 10_000
    /// Largest tool-call JSON text, in bytes (64 KiB).
    public static let maxToolCallBytes = 64 * 1024
    /// Deepest nesting of a tool-call JSON text.
    public static let maxToolCallDepth = 32
    /// Most diagnostics one report lists; the rest are counted in a final note.
    public static let maxDiagnostics = 100
    /// Largest ruleset bundle accepted by `Ruleset.load(bundle:)`, in bytes (16 MiB).
    public static let maxBundleBytes = 16 * 1024 * 1024
    /// Largest magnitude of any number a rule file, bundle or scenario gives (goals, targets,
    /// deltas, XP, limits, counts, setting values), unless a field says less: 10^9. The
    /// engine turns such numbers into integers and multiplies them; bounded, it never traps.
    public static let maxNumber = 1_000_000_000
    /// Longest duration a rule file gives (cooldowns, `expires_after`), in seconds: 10^9.
    public static let maxDurationSeconds = 1_000_000_000
    /// Largest value of one habit log (an event, a tool call or an edit).
    public static let maxLogValue = 1_000_000.0
    /// Largest population result `rules population merge` reads, in bytes (256 MiB).
    public static let maxPopulationResultBytes = 256 * 1024 * 1024
    /// Logs a day keeps one by one: past this, the oldest merge per routine and source
    /// (never across the start of a recovery route, a merged log holding at most 10^9), so a
    /// state stays small and decodable however many taps a day holds.
    public static let maxLogsPerDay = 64
    /// Largest saved engine state accepted by `EngineState.decode`, in bytes (4 MiB).
    public static let maxStateBytes = 4 * 1024 * 1024
    /// Deepest nesting of a saved engine state's JSON.
    public static let maxStateDepth = 32
    /// The calendar days the engine lives, as days since 1970-01-01: 2000-01-01 to
    /// 2199-12-31. An event at a time outside them is refused with a `problem` record, a
    /// saved state holding a date outside them is corrupt, and a scenario or population day
    /// outside them gets a diagnostic. Bounded so, no clock reading overflows and a device
    /// clock set far ahead costs at most ~63,000 day closes, never an unbounded catch-up.
    /// (Inlinable constants: the engine reads them at every clock reading.)
    @inlinable public static var engineDays: ClosedRange<Int> { 10_957...84_005 }
    /// The days a scenario or population may hold: the engine's days but the last, since
    /// a day closes (and is judged) at the next day's start.
    @inlinable public static var simulatedDays: ClosedRange<Int> { engineDays.lowerBound...(engineDays.upperBound - 1) }
    /// The instants of `engineDays` in seconds since 1970 (UTC), a day wider on each side
    /// for time zones.
    @inlinable public static var engineSeconds: ClosedRange<Double> {
        Double((engineDays.lowerBound - 1) * 86_400)...Double((engineDays.upperBound + 2) * 86_400)
    }
}
