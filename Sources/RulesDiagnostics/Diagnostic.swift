/// How bad a finding is. Ordered: `note < warning < error`.
public enum Severity: String, Comparable, Sendable, Codable, CaseIterable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One finding about one place in one file. Every phase (YAML, expressions, ruleset, lint,
/// scenarios) reports through this type, built by that phase's message catalogue.
public struct Diagnostic: Hashable, Sendable, Codable {
    /// Stable machine-readable code such as `yaml.duplicate_key`; never reworded.
    public var code: DiagnosticCode
    public var severity: Severity
    /// Path of the file as the user named it (relative paths stay relative).
    public var file: String
    /// Where the problem starts; file-level problems use 1:1.
    public var location: SourceLocation
    /// One past the end of the offending span on the same or a later line, when known.
    public var end: SourceLocation?
    /// One sentence saying what is wrong.
    public var message: String
    /// What to do about it ("did you mean 'completion_rate'?").
    public var hint: String?

    public init(
        code: DiagnosticCode, severity: Severity, file: String, location: SourceLocation,
        end: SourceLocation? = nil, message: String, hint: String? = nil
    ) {
        self.code = code
        self.severity = severity
        self.file = file
        self.location = location
        self.end = end
        self.message = message
        self.hint = hint
    }

    public init(
        code: DiagnosticCode, severity: Severity, file: String, range: SourceRange,
        message: String, hint: String? = nil
    ) {
        self.init(
            code: code, severity: severity, file: file, location: range.start, end: range.end,
            message: message, hint: hint)
    }

    /// The same diagnostic reported against another file (used when a phase works on
    /// text that does not know its file name yet).
    public func inFile(_ file: String) -> Diagnostic {
        var copy = self
        copy.file = file
        return copy
    }

    /// Total order used for output: file, line, column, then severity (errors first),
    /// code and message, so reports are byte-for-byte reproducible.
    public static func outputOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.file != b.file { return a.file < b.file }
        if a.location != b.location { return a.location < b.location }
        if a.severity != b.severity { return a.severity > b.severity }
        if a.code != b.code { return a.code.rawValue < b.code.rawValue }
        return a.message < b.message
    }
}
