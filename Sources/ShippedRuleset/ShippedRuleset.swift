import Foundation
import Ruleset
import RulesetFiles
import TestSupport

/// The repository's shipped ruleset for tests, and edited copies of it.
public enum ShippedRuleset {
    /// The repository root.
    public static let root = Fixtures.repositoryRoot()
    /// The shipped ruleset (empty if it does not load: the tests that read it then fail).
    public static let ruleset: Ruleset = Ruleset.load(directory: root).ruleset ?? Ruleset()

    /// Why a variant could not be made: an edit whose old text its file lacks, or a copy
    /// that does not load.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The shipped ruleset with text edits: (file, old text, new text).
    public static func variant(_ edits: [(String, String, String)]) throws -> Ruleset {
        let (directory, missing) = try Fixtures.variantOfShipped(edits)
        guard missing.isEmpty else { throw Failure(description: missing.joined(separator: "; ")) }
        let load = Ruleset.load(directory: directory)
        guard let ruleset = load.ruleset else { throw Failure(description: load.diagnostics.map(\.message).joined(separator: "; ")) }
        return ruleset
    }
}
