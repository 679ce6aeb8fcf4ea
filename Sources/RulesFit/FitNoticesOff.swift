import Foundation

/// What one user's telemetry says about switching every notice off at the system level: the
/// deliveries the user saw while notices were on, by their place in the day (1st … 5th or
/// later), and the place of the one after which they went off.
///
/// The app reads the permission only at its runs, so the delivery that made the user switch
/// off lies between the last run that read "on" and the run that read "off". A delivery after
/// it was never shown and gets no response; so it is taken to be the last delivery in that
/// stretch that got one, or the first of the stretch when none did. (A trigger nobody answered
/// is then placed a delivery or so early: a small bias towards more exposures, shown by the
/// calibration of the fit.)
package struct NoticesWatch: Sendable, Equatable {
    /// The places a delivery can have: 1st … 5th, the last holding every later one.
    static let places = 5
    struct Delivery: Sendable, Equatable {
        var place: Int
        var type: String
        var answered = false
    }
    /// Deliveries seen before the last run that read "on", by place (index 0: a day's 1st).
    var exposed = PlaceCounts(places: places)
    /// Deliveries since that run; once a run read "off", those up to the trigger.
    var stretch: [Delivery] = []
    var off = false

    /// A delivery, the `place`-th of its day.
    mutating func delivered(place: Int, type: String) {
        guard !off else { return }
        stretch.append(Delivery(place: Swift.min(Swift.max(1, place), Self.places), type: type))
    }

    /// A response to the latest unanswered delivery of `type` (after "off", only the trigger
    /// can still be answered: it is kept until then).
    mutating func answered(type: String) {
        guard let index = stretch.lastIndex(where: { $0.type == type && !$0.answered }) else { return }
        stretch[index].answered = true
    }

    /// A run that read notices on: every delivery before it was seen while on.
    mutating func ranWithNoticesOn() {
        guard !off else { return }
        for delivery in stretch { exposed[delivery.place - 1] += 1 }
        stretch.removeAll(keepingCapacity: true)
    }

    /// The run that read notices off.
    mutating func wentOff() { off = true }

    /// Where the trigger is in the stretch: the last answered delivery, else the first.
    var trigger: Int { stretch.lastIndex { $0.answered } ?? 0 }

    /// The place (1-based) of the delivery after which notices went off; 0 when none came since
    /// the last run that read "on"; nil: never off.
    package var offAfter: Int? {
        guard off else { return nil }
        return stretch.isEmpty ? 0 : stretch[trigger].place
    }

    /// Deliveries seen while notices were on, by place.
    package var exposures: PlaceCounts {
        var all = exposed
        for delivery in stretch[..<(off ? Swift.min(stretch.count, trigger + 1) : stretch.count)] { all[delivery.place - 1] += 1 }
        return all
    }
}

/// `opt_out.all` and `opt_out.above` of a group. Per place in the day, the switch-offs over the
/// deliveries seen there give a hazard; the simulator's is a step — nothing up to the day's
/// `above`-th delivery, `all` past it. `above` is where a step fits the hazards better than one
/// level by a likelihood ratio beyond χ²₁'s 99th percentile (6.63), the lower level being the
/// smaller; else 0. (A step, not the first place anybody switched off: a trigger nobody answered
/// is sometimes placed a delivery early, and one such user would move a minimum.) `all` is the
/// switch-offs past `above` over the deliveries seen there, its error clustered by user.
enum FitNoticesOff {
    /// Per place, the users' switch-offs after it and their deliveries seen there; and for each
    /// place a step may come after, the users' switch-offs past it over their deliveries past it.
    struct Sums: Sendable {
        var triggers = [Int](repeating: 0, count: NoticesWatch.places)
        var exposures = [Int](repeating: 0, count: NoticesWatch.places)
        var past = [ClusteredSums](repeating: ClusteredSums(), count: NoticesWatch.places)

        mutating func add(_ user: UserFeatures) {
            let after = user.notices.offAfter
            if let place = after, place > 0 { triggers[place - 1] += 1 }
            let seen = user.notices.exposures
            for (index, count) in seen.enumerated() { exposures[index] += count }
            for above in past.indices {
                past[above].add((after ?? 0) > above ? 1 : 0, of: Double(seen[above...].reduce(0, +)))
            }
        }

        var estimate: (all: PopulationFit.Estimate, above: Int)? {
            guard triggers.reduce(0, +) > 0 else { return nil }
            let above = step(triggers.map(Double.init), exposures.map(Double.init))
            return (past[above].estimate(), above)
        }
    }

    /// The place after which the hazard steps up, by the likelihood ratio (0: no step).
    static func step(_ triggers: [Double], _ exposures: [Double]) -> Int {
        func logL(_ range: Range<Int>) -> (h: Double, logL: Double) {
            let t = triggers[range].reduce(0, +)
            let n = exposures[range].reduce(0, +)
            guard n > 0 else { return (0, 0) }
            let h = t / n
            return (h, (t > 0 ? t * log(h) : 0) + (n - t > 0 && h < 1 ? (n - t) * log(1 - h) : 0))
        }
        let one = logL(0..<triggers.count).logL
        var best = (above: 0, ratio: 6.63)
        for above in 1..<triggers.count {
            let low = logL(0..<above)
            let high = logL(above..<triggers.count)
            let ratio = 2 * (low.logL + high.logL - one)
            if low.h < high.h, ratio > best.ratio { best = (above, ratio) }
        }
        return best.above
    }
}
