import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset
import RulesetFiles
import ShippedRuleset
import TestSupport
import Testing

/// The shipped ruleset, and variants of it for one test.
enum Shipped {
    static let root = ShippedRuleset.root
    static let ruleset = ShippedRuleset.ruleset
    static func variant(_ edits: [(String, String, String)]) throws -> Ruleset { try ShippedRuleset.variant(edits) }
}
