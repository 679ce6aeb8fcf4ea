import Foundation
import RulesEngine

extension SimulationResult {
    /// What differs between one scenario lived memoised (`self`, as the app and populations
    /// run), with every memo recomputed, and compared (each step made both ways): a
    /// difference the comparing run recorded (`engine.memo_mismatch`), then the first record
    /// or the state to save that differs from the memoised run's; nil when nothing does.
    package func switchDifference(recomputed: SimulationResult, compared: SimulationResult) -> String? {
        if let mismatch = compared.records.first(where: { if case .problem(.memoMismatch, _) = $0.kind { true } else { false } }) {
            return "the comparing run found a difference: \(mismatch.kind)"
        }
        for (name, other) in [("recomputed", recomputed), ("compared", compared)] {
            if other.records != records {
                let first = zip(records, other.records).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                return "\(name) records differ from the memoised run's at record \((first ?? Swift.min(records.count, other.records.count)) + 1)"
            }
            if other.engine.state != engine.state { return "\(name) state to save differs from the memoised run's" }
        }
        return nil
    }
}
