import Foundation

/// The behaviour keys from the trial: the difference the trial measures — a log or tick within
/// 45 minutes after a delivered decision point, minus after a withheld one, with the
/// cluster-robust error by user (`ClusteredDifference`, the primary analysis of a
/// micro-randomized trial) — is what a delivery does; an act follows only a notice the user
/// did not ignore, so a type's act chance is that difference over the share not ignored. The
/// half-life comes from how the difference falls with the deliveries a user had had.
enum FitBehaviour {
    /// Middle of each bin of deliveries so far (0–6, 7–13, 14–27, 28+).
    static let middles: [Int: Double] = [0: 3, 7: 10, 14: 20.5, 28: 35]

    static func acts(
        _ members: [UserFeatures], notIgnored: Double
    ) -> (acts: [(type: String, p: PopulationFit.Estimate)], halfLife: Double?, note: String?) {
        var overall: [String: ClusteredDifference] = [:]
        var byBin: [String: [Int: ClusteredDifference]] = [:]
        for user in members {
            for (type, trial) in user.trial {
                var all = [0, 0, 0, 0]
                for (bin, cell) in trial.bins {
                    byBin[type, default: [:]][bin, default: ClusteredDifference()].add(n1: cell[0], y1: cell[1], n0: cell[2], y0: cell[3])
                    all = zip(all, cell).map { $0 + $1 }
                }
                overall[type, default: ClusteredDifference()].add(n1: all[0], y1: all[1], n0: all[2], y0: all[3])
            }
        }
        let withheld = overall.values.reduce(0) { $0 + $1.n0 }
        guard withheld > 0 else {
            return ([], nil, "the telemetry has no withheld deliveries (no trial ran): acts are left at their defaults")
        }
        var acts: [(type: String, p: PopulationFit.Estimate)] = []
        for type in overall.keys.sorted() {
            guard let e = overall[type]?.estimate else { continue }
            let scale = 1 / Swift.max(0.05, notIgnored)
            acts.append((type, PopulationFit.Estimate(value: Swift.min(1, Swift.max(0, e.difference * scale)), se: (e.high - e.low) / 3.92 * scale)))
        }
        // Half-lives from each type's first bin against each later bin with an effect.
        var lives: [Double] = []
        for bins in byBin.values {
            guard let first = bins[0]?.estimate, first.difference > 0.02 else { continue }
            for (bin, cell) in bins where bin > 0 {
                guard let e = cell.estimate, e.difference > 0.005, e.difference < first.difference, let a = middles[0], let b = middles[bin] else {
                    continue
                }
                lives.append((b - a) * log(2) / log(first.difference / e.difference))
            }
        }
        let halfLife = lives.isEmpty ? nil : lives.sorted()[lives.count / 2]
        return (acts, halfLife, halfLife == nil ? "the trial's effect does not fall with deliveries here: no half-life is written" : nil)
    }
}
