import Foundation

/// Timing helpers: monotonic clock, best-of-N runs (the least disturbed run).
enum Measure {
    /// Seconds taken by the fastest of `runs` executions of `body`.
    static func best(runs: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, elapsed)
        }
        return best
    }

    /// The best time of each of `bodies`, measured in turns (`rounds` times each, one after
    /// the other): a host whose speed drifts during the run slows them all alike.
    static func bestInTurns(rounds: Int, _ bodies: [() -> Void]) -> [Double] {
        var best = [Double](repeating: .infinity, count: bodies.count)
        for _ in 0..<rounds {
            for (index, body) in bodies.enumerated() { best[index] = min(best[index], self.best(runs: 1, body)) }
        }
        return best
    }

    /// The median of `runs` timings of `body`, in seconds.
    static func median(runs: Int, _ body: () -> Void) -> Double {
        withoutActuallyEscaping(body) { medianInTurns(runs: runs, [$0])[0] }
    }

    /// The median time of each of `bodies` over `runs` rounds, measured in turns (one run of
    /// each per round): a drift of the host's speed moves them all alike.
    static func medianInTurns(runs: Int, _ bodies: [() -> Void]) -> [Double] {
        var times = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<runs {
            for (index, body) in bodies.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                body()
                times[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        return times.map { $0.sorted()[$0.count / 2] }
    }

    static func format(_ value: Double, decimals: Int = 2) -> String {
        String(format: "%.\(decimals)f", value)
    }
}

/// Keeps the optimiser from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
