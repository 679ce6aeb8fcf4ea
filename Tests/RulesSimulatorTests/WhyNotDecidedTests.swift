import Foundation
import Testing

@testable import RulesEngine
@testable import RulesSimulator

/// Why-not tells the entries that could not be evaluated from the engine's trace, by their
/// place in the table: two entries may share a label.
struct WhyNotDecidedTests {
    /// A table `high` (not matched), `medium` (not matched), `high` (failed): asked about
    /// `medium`, the failure after it is not told; asked about the last entry, it is.
    @Test func failuresAreCountedByPositionNotLabel() {
        let explanation = Explanation(
            decision: "risk", outcome: "low", at: Date(timeIntervalSince1970: 0),
            entries: [
                Explanation.Entry(label: "high", condition: "a", origin: nil, result: .notMatched),
                Explanation.Entry(label: "medium", condition: "b", origin: nil, result: .notMatched),
                Explanation.Entry(label: "high", condition: "c", origin: nil, result: .failed("division by zero")),
            ], facts: [])
        let decided = WhyNot.Decided(explanation)
        #expect(decided.outcome == "low")
        #expect(decided.failures(through: 1) == "")
        #expect(decided.failures(through: 2) == "; entry high could not be evaluated (division by zero) and counted as not matched")
    }
}
