import Foundation
import RulesExpression

/// One value an app run may keep for a later one: kept with what it was made from — the
/// inputs it read besides facts, compared whole, and the values of the facts its reader reads
/// (`PreparedRuleset.reads(of:)`, the slots of the facts graph `FactReaders`) — and given back
/// only while both are the same again. Nothing is bumped by hand: equal inputs and equal facts
/// make an equal value, which the recompute-and-compare switch (`Verification`) checks.
struct Memo<Inputs: Equatable & Sendable, Value: Sendable>: Sendable {
    /// The part of an app run that made it.
    let reader: FactReaders.Reader
    let inputs: Inputs
    /// The facts it read, as they were.
    let reads: FactSample
    var value: Value

    /// `value`, made by `reader` from `inputs` and `facts` (of which it read `slots`).
    init(_ reader: FactReaders.Reader, inputs: Inputs, facts: FactValues, slots: [Int], value: Value) {
        self.reader = reader
        self.inputs = inputs
        reads = FactSample(facts, slots: slots)
        self.value = value
    }

    /// The kept value when it was made from these inputs and these values of the facts
    /// `slots` names (the reader's); nil when it must be made again.
    func value(for inputs: Inputs, facts: FactValues, slots: [Int]) -> Value? {
        inputs == self.inputs && reads.matches(facts, slots: slots) ? value : nil
    }
}
