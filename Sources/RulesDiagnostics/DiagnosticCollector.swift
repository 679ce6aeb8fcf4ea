/// Gathers diagnostics from every phase and hands them out in output order, capped at
/// `InputLimits.maxDiagnostics` (a final note says how many more there were).
public struct DiagnosticCollector: Sendable {
    public private(set) var all: [Diagnostic] = []

    public init() {}

    public init(_ diagnostics: [Diagnostic]) { all = diagnostics }

    public mutating func append(_ diagnostic: Diagnostic) { all.append(diagnostic) }

    public mutating func append(contentsOf diagnostics: some Sequence<Diagnostic>) {
        all.append(contentsOf: diagnostics)
    }

    /// Whether anything fails the run: an error, or with `strict`, a warning.
    public func hasFailures(strict: Bool) -> Bool {
        all.contains { $0.severity == .error || (strict && $0.severity == .warning) }
    }

    public var errorCount: Int { all.count { $0.severity == .error } }
    public var warningCount: Int { all.count { $0.severity == .warning } }

    /// Sorted, de-duplicated and capped diagnostics. With `strict`, warnings become errors.
    public func report(strict: Bool = false, limit: Int = InputLimits.maxDiagnostics) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        var sorted = all.filter { seen.insert($0).inserted }.sorted(by: Diagnostic.outputOrder)
        // A file that does not parse is said first, whatever its name: what the other files
        // report may follow from it.
        let unparsed = sorted.filter(\.isParseError)
        if !unparsed.isEmpty { sorted = unparsed + sorted.filter { !$0.isParseError } }
        if strict {
            for index in sorted.indices where sorted[index].severity == .warning {
                sorted[index].severity = .error
            }
        }
        guard sorted.count > limit else { return sorted }
        let dropped = sorted.count - limit
        var capped = Array(sorted.prefix(limit))
        capped.append(
            Diagnostic(
                code: "diagnostics.truncated", severity: .note, file: capped.last?.file ?? "",
                location: .fileStart,
                message: "\(dropped) more diagnostic\(dropped == 1 ? "" : "s") not shown",
                hint: "fix the problems above and run again to see the rest"))
        return capped
    }
}

extension Diagnostic {
    /// A YAML error: the file did not parse.
    var isParseError: Bool { severity == .error && code.rawValue.hasPrefix("yaml.") }
}
