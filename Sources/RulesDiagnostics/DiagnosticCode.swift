/// A stable diagnostic code, `<phase>.<name>` (`yaml.duplicate_key`, `type.mismatch`).
/// Codes are part of the public contract: scripts filter on them and SARIF rules use them
/// as ids, so a code is never renamed once shipped.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The phase part before the first dot (`yaml`, `expr`, `type`, `ruleset`, `lint`, …).
    public var phase: Substring { rawValue.prefix { $0 != "." } }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// What a code means, for `rules check --explain` and SARIF's rule catalogue.
public struct CodeDescription: Hashable, Sendable {
    public var code: DiagnosticCode
    /// The severity the code is reported with unless `--strict` promotes it.
    public var severity: Severity
    /// One line: what the code reports.
    public var summary: String
    /// Why it matters and how to fix it; may span several sentences.
    public var rationale: String

    public init(code: DiagnosticCode, severity: Severity, summary: String, rationale: String) {
        self.code = code
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
    }
}
