import Foundation
import RulesExpression

/// One value an app run may keep for a later one: kept with what it was made from — the
/// inputs it read besides facts, compared whole, and what it read of the run's facts (its
/// reader's `FactReads`: the values of the slots whose value matters and the side of each
/// constant a banded fact is compared with) — and given back only while both are the same
/// again. Nothing is bumped by hand: equal inputs and equal reads make an equal value, which
/// the recompute-and-compare switch (`Verification`) checks.
///
/// Every memo of the engine has this shape (`MemoLayer`): the lines (`KeptLine`) and the
/// plan (`KeptPlan`) read facts; tomorrow's plan (`KeptTomorrow`) and the close's reading
/// (`KeptReading`) read none of the run's, only their inputs.
struct Memo<Inputs: Equatable & Sendable, Value: Sendable>: Sendable {
    /// The part of an app run that made it, in the facts graph (`FactReaders`); nil for a
    /// value made from its inputs alone.
    let reader: FactReaders.Reader?
    let inputs: Inputs
    /// The facts it read, as they were, and the sides of the constants its banded facts were on.
    let sample: FactSample
    let sides: BandSides
    var value: Value

    /// `value`, made by `reader` from `inputs` and `facts` (of which it read `reads`).
    init(_ reader: FactReaders.Reader, inputs: Inputs, facts: FactValues, reads: FactReads, dayStart: Int, value: Value) {
        self.reader = reader
        self.inputs = inputs
        sample = FactSample(facts, slots: reads.slots)
        sides = reads.sides(of: facts, dayStart: dayStart)
        self.value = value
    }

    /// `value`, made from `inputs` alone (no fact of the run read).
    init(inputs: Inputs, value: Value) {
        reader = nil
        self.inputs = inputs
        sample = .empty
        sides = .none
        self.value = value
    }

    private init(reader: FactReaders.Reader?, inputs: Inputs, sample: FactSample, sides: BandSides, value: Value) {
        (self.reader, self.inputs, self.sample, self.sides, self.value) = (reader, inputs, sample, sides, value)
    }

    /// The kept value when it was made from these inputs and facts that read the same
    /// (`reads`, the reader's); nil when it must be made again.
    func value(for inputs: Inputs, facts: FactValues, reads: FactReads, dayStart: Int) -> Value? {
        inputs == self.inputs && read(facts, reads, dayStart: dayStart) ? value : nil
    }

    /// The kept value of a memo made from its inputs alone, when they are these; nil when it
    /// must be made again (and for a memo that read facts: those must be compared too).
    func value(for inputs: Inputs) -> Value? {
        reader == nil && inputs == self.inputs ? value : nil
    }

    /// Whether `facts` read the same as the facts this value was made from.
    func read(_ facts: FactValues, _ reads: FactReads, dayStart: Int) -> Bool {
        sample.matches(facts, slots: reads.slots) && reads.sidesMatch(sides, facts, dayStart: dayStart)
    }

    /// The same reads kept for another value made from other inputs (a plan after
    /// deliveries: what it read of the facts is compared by the caller).
    func replacing(inputs: Inputs, value: Value) -> Memo {
        Memo(reader: reader, inputs: inputs, sample: sample, sides: sides, value: value)
    }
}
