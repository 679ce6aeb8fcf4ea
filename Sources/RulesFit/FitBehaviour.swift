import Foundation
import RulesPopulation

/// The behaviour keys from the trial. Its decision points (delivered or withheld, at random)
/// are followed, or not, by a log or tick within 45 minutes — of the notice's routine for a
/// per-routine notice, of any routine otherwise. What a delivery adds is the share of the
/// points the user's own habit left undone that it got done, (p₁ − p₀)/(1 − p₀), with the
/// cluster-robust error by user (`ClusteredDifference.attributable`, the primary analysis of a
/// micro-randomized trial): the chance a delivery makes a user act, whatever else they would
/// have logged in the window. An act follows only a notice the user did not ignore, so a
/// type's act chance `p` is that share over the type's own share of deliveries not ignored —
/// the quantity the simulator lives. The half-life comes from how the share falls with the
/// deliveries a user had had.
enum FitBehaviour {
    /// Middle of each bin of deliveries so far (0–6, 7–13, 14–27, 28+).
    static let middles: [Int: Double] = [0: 3, 7: 10, 14: 20.5, 28: 35]

    /// The trial's decision points of a group's users by type (and bin of deliveries so far),
    /// and each type's deliveries seen and ignored.
    struct Sums: Sendable {
        var overall: [String: ClusteredDifference] = [:]
        var byBin: [String: [Int: ClusteredDifference]] = [:]
        var seen: [String: Int] = [:]
        var ignored: [String: Int] = [:]

        mutating func add(_ user: UserFeatures) {
            for (type, trial) in user.trial {
                var all = [0, 0, 0, 0]
                for (bin, cell) in trial.bins {
                    byBin[type, default: [:]][bin, default: ClusteredDifference()].add(n1: cell[0], y1: cell[1], n0: cell[2], y0: cell[3])
                    for index in 0..<Swift.min(4, cell.count) { all[index] += cell[index] }
                }
                overall[type, default: ClusteredDifference()].add(n1: all[0], y1: all[1], n0: all[2], y0: all[3])
            }
            for (type, count) in user.seenByType { seen[type, default: 0] += count }
            for (type, count) in user.ignoredByType { ignored[type, default: 0] += count }
        }

        func acts(users: Int) -> (acts: [(type: String, p: PopulationFit.Estimate)], halfLife: Double?, note: String?) {
            FitBehaviour.acts(overall: overall, byBin: byBin, users: users, notIgnored: notIgnored)
        }

        /// The share of a type's deliveries the users did not ignore (1 when none was delivered).
        func notIgnored(_ type: String) -> Double {
            let delivered = seen[type, default: 0]
            return delivered > 0 ? 1 - Double(ignored[type, default: 0]) / Double(delivered) : 1
        }
    }

    static func acts(
        overall: [String: ClusteredDifference], byBin: [String: [Int: ClusteredDifference]], users: Int, notIgnored: (String) -> Double
    ) -> (acts: [(type: String, p: PopulationFit.Estimate)], halfLife: Double?, note: String?) {
        let withheld = overall.values.reduce(0) { $0 + $1.n0 }
        guard withheld > 0 else {
            return ([], nil, "the telemetry has no withheld deliveries (no trial ran): acts are left at their defaults")
        }
        var acts: [(type: String, p: PopulationFit.Estimate)] = []
        for type in overall.keys.sorted() {
            guard let e = overall[type]?.attributable else { continue }
            let scale = 1 / Swift.max(0.05, notIgnored(type))
            acts.append((type, PopulationFit.Estimate(value: Swift.min(1, Swift.max(0, e.value * scale)), se: e.se * scale)))
        }
        // Half-lives from each type's first bin against each later bin with an effect.
        var lives: [Double] = []
        for bins in byBin.values {
            guard let first = bins[0]?.attributable?.value, first > 0.02 else { continue }
            for (bin, cell) in bins where bin > 0 {
                guard let e = cell.attributable?.value, e > 0.005, e < first, let a = middles[0], let b = middles[bin] else { continue }
                lives.append((b - a) * log(2) / log(first / e))
            }
        }
        let halfLife = lives.isEmpty ? nil : lives.sorted()[lives.count / 2]
        let note = "a group of \(users) users: the trial's effect does not fall with its deliveries, so the group has no half-life"
        return (acts, halfLife, halfLife == nil ? note : nil)
    }
}
