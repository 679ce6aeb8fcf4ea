import Foundation

/// The verification switch: what an app run may keep from an earlier one (the plan,
/// tomorrow's plan, lines, the last reading at the close) is keyed by everything it was made
/// from, so the records, the saved state and the explanations are the same whether it is kept
/// or worked out again. The tests and FuzzEngine check it with `compared`.
public enum Verification: Sendable, Hashable {
    /// Memos are read when their keys match (the app, populations).
    case memoised
    /// Nothing kept is read: every step works everything out again.
    case recomputed
    /// Every step runs twice, on the engine as it is and on a copy with everything recomputed,
    /// and the two are compared: records, the state to save and the explanations. A
    /// difference is an `engine.memo_mismatch` problem record after the step's own (the
    /// engine goes on from the memoised step).
    case compared
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
