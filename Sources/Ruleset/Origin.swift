import RulesDiagnostics

/// Where an entry of the ruleset was written: its file (as the user names it) and the
/// position of the entry. Kept in bundles so run-time diagnostics still name the YAML file.
public struct Origin: Hashable, Sendable, Codable {
    /// The file, relative to the ruleset's root.
    public var file: String
    /// Line and column in it (1-based).
    public var location: SourceLocation

    /// A place in a file.
    public init(file: String, location: SourceLocation) {
        self.file = file
        self.location = location
    }

    /// No known place (a ruleset built in code).
    public static let unknown = Origin(file: "", location: .fileStart)
}
