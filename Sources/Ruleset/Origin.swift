import RulesDiagnostics

/// Where an entry of the ruleset was written: its file (as the user names it) and the
/// position of the entry. Kept in bundles so run-time diagnostics still name the YAML file.
public struct Origin: Hashable, Sendable, Codable {
    public var file: String
    public var location: SourceLocation

    public init(file: String, location: SourceLocation) {
        self.file = file
        self.location = location
    }

    public static let unknown = Origin(file: "", location: .fileStart)
}
