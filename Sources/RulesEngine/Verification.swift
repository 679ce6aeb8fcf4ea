import Foundation

/// The verification switch, a host's (the simulator, `rules test`, populations, the fuzz
/// targets; never the app's engine, which always reads its memos): what an app run may keep
/// from an earlier one (the plan, tomorrow's plan, lines, the last reading at the close) is
/// keyed by everything it was made from, so the records, the saved state and the
/// explanations are the same whether it is kept or worked out again. A host runs each step
/// through its switch (`run`, `step`); the tests and FuzzEngine check with `compared`.
public enum Verification: Sendable, Hashable {
    /// Memos are read when their keys match (the app, populations).
    case memoised
    /// Nothing kept is read: every step works everything out again (the engine's memo layer
    /// does not read).
    case recomputed
    /// Every step runs twice, on the engine as it is and on a copy whose memo layer does not
    /// read, and the two are compared: records, the state to save and the explanations. A
    /// difference is an `engine.memo_mismatch` problem record after the step's own (the
    /// engine goes on from the memoised step).
    case compared

    /// One app run (`OperatorEngine.run`) on `engine` as this switch says.
    public func run(_ engine: inout OperatorEngine, _ events: [EngineEvent], now: Date, presumingDeliveries: Bool = true) -> Effects {
        Effects(records: step(&engine, at: now) { $0.records(of: events, now: now, presumingDeliveries: presumingDeliveries) })
    }

    /// One step of a host on `engine` (an app run, the clock moved, a day opened: `body`, which
    /// returns the step's records) as this switch says: with `compared`, once more on a copy
    /// that reads no memo, and a difference reported after the step's records.
    package func step(_ engine: inout OperatorEngine, at time: Date, _ body: (inout OperatorEngine) -> [EngineRecord]) -> [EngineRecord] {
        switch self {
        case .memoised, .recomputed:
            if engine.memoises != (self == .memoised) { engine.apply(memoReads: self == .memoised) }
            return body(&engine)
        case .compared:
            if !engine.memoises { engine.apply(memoReads: true) }
            var shadow = engine
            shadow.apply(memoReads: false)
            let expected = body(&shadow)
            let got = body(&engine)
            guard let difference = MemoComparison.difference(kept: engine, got, recomputed: shadow, expected) else { return got }
            engine.problem(at: LocalClock.bounded(time), .memoMismatch, "kept memos changed what the step decided: \(difference)")
            return got + engine.records.suffix(1)
        }
    }
}

/// The comparison of one step made with the memos and again without (`Verification.compared`).
struct MemoComparison {
    /// What differs between the step as kept and as recomputed, nil when nothing does.
    static func difference(
        kept: OperatorEngine, _ keptRecords: [EngineRecord], recomputed: OperatorEngine, _ recomputedRecords: [EngineRecord]
    )
        -> String?
    {
        if keptRecords != recomputedRecords {
            let shared = Swift.min(keptRecords.count, recomputedRecords.count)
            let index = (0..<shared).first { keptRecords[$0] != recomputedRecords[$0] } ?? shared
            return "record \(index + 1) of the step: kept \(shown(keptRecords, index)), recomputed \(shown(recomputedRecords, index))"
        }
        if kept.state != recomputed.state { return "the state to save differs" }
        if kept.explanationsTranscript != recomputed.explanationsTranscript { return "the explanations differ" }
        return nil
    }

    private static func shown(_ records: [EngineRecord], _ index: Int) -> String {
        guard index < records.count else { return "none" }
        let text = String(describing: records[index].kind)
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
