import Foundation
import Ruleset

/// Everything the estimates of one group read of its users, summed a user at a time (`add`) in
/// one pass: counts, exact sums of values and of the products a clustered error needs. Users
/// may come in any order (sums are exact: `ExactSum`) and are not kept, so a group of a million
/// users costs what one of a thousand does.
package struct GroupSums: Sendable {
    /// One routine's logs (or ticks) over the users who have any.
    struct RoutineSums: Sendable {
        var users = 0
        var days = 0
        var count = 0
        var value = ExactSum()
        var minutes = ExactSum()
        var minutesSquared = ExactSum()
        /// A user's share numerator (days with a log; ticks), its square and its product with the
        /// user's days, over users with days.
        var y = ExactSum()
        var yy = ExactSum()
        var yDays = ExactSum()

        mutating func add(_ use: RoutineUse, y share: Double, days: Int) {
            users += 1
            self.days += use.days
            count += use.count
            value.add(use.value)
            minutes.add(use.minutes)
            minutesSquared.add(use.minutesSquared)
            guard days > 0 else { return }
            y.add(share)
            yy.add(share * share)
            yDays.add(share * Double(days))
        }
    }

    /// Pooled moments [n, Σx, Σx²].
    struct MomentSums: Sendable {
        var n = ExactSum()
        var sum = ExactSum()
        var squares = ExactSum()

        mutating func add(_ moments: Moments) {
            n.add(moments.n)
            sum.add(moments.sum)
            squares.add(moments.squares)
        }

        mutating func add(count: Int, sum: Double, squares: Double) {
            n.add(Double(count))
            self.sum.add(sum)
            self.squares.add(squares)
        }

        var values: [Double] { [n.value, sum.value, squares.value] }
    }

    var users = 0
    var userDays = 0
    /// Users with days, their days summed and squared: the denominators of shares of days.
    var dayUsers = 0
    var daySum = ExactSum()
    var daySquares = ExactSum()
    var stepsGranted = 0
    var sleepGranted = 0
    var noticesOff = 0
    var sleepUsers = 0
    var stepsUsers = 0
    var sleep = MomentSums()
    var wake = MomentSums()
    var steps = MomentSums()
    var logs: [String: RoutineSums] = [:]
    var ticks: [String: RoutineSums] = [:]
    /// Every tick's minute: [ticks, Σ minutes, Σ minutes²].
    var ticking = MomentSums()
    /// Users who say which routines they keep, and how many keep each.
    var keeping = 0
    var kept: [String: Int] = [:]
    /// Users who log or tick each routine.
    var using: [String: Int] = [:]
    var ignored = ClusteredSums()
    var opened = ClusteredSums()
    var skips = ClusteredSums()
    var optOutType = ClusteredSums()
    var slots = FitSlots.Sums()
    var fatigue = FitFatigue.Sums()
    var behaviour = FitBehaviour.Sums()
    var noticesOffSums = FitNoticesOff.Sums()
    var settings: FitSettings.Sums
    var between = FitBetweenUsers.Sums()

    init(ruleset: Ruleset, dayStart: Int) { settings = FitSettings.Sums(ruleset: ruleset, dayStart: dayStart) }

    mutating func add(_ user: UserFeatures) {
        users += 1
        userDays += user.days
        if user.days > 0 {
            dayUsers += 1
            daySum.add(Double(user.days))
            daySquares.add(Double(user.days) * Double(user.days))
        }
        if user.stepsGranted == true { stepsGranted += 1 }
        if user.sleepGranted == true { sleepGranted += 1 }
        if user.noticesOff { noticesOff += 1 }
        if user.sleep.n > 0 { sleepUsers += 1 }
        if user.steps.n > 0 { stepsUsers += 1 }
        sleep.add(user.sleep)
        wake.add(user.wake)
        steps.add(user.steps)
        for (routine, use) in user.logs { logs[routine, default: RoutineSums()].add(use, y: Double(use.days), days: user.days) }
        for (routine, use) in user.ticks {
            ticks[routine, default: RoutineSums()].add(use, y: Double(use.count), days: user.days)
            ticking.add(count: use.count, sum: use.minutes, squares: use.minutesSquared)
        }
        if let enabled = user.enabled {
            keeping += 1
            for routine in enabled { kept[routine, default: 0] += 1 }
        }
        for routine in Set(user.logs.keys).union(user.ticks.keys) { using[routine, default: 0] += 1 }
        let seen = user.notices.exposures.reduce(0, +)
        ignored.add(Double(user.ignored), of: Double(seen))
        opened.add(Double(user.opened), of: Double(seen - user.ignored - user.acted))
        skips.add(Double(user.skips), of: Double(user.days))
        optOutType.add(Double(user.switchedOff.count), of: Double(user.ignoredByType.values.reduce(0, +)))
        slots.add(user)
        fatigue.add(user)
        behaviour.add(user)
        noticesOffSums.add(user)
        settings.add(user)
        between.add(user)
    }

    /// A routine's share of users' days (`scale`: items a day, for a checklist's ticks):
    /// Σy / Σ(days · scale), clustered by user — every user with days counts, with or without it.
    func shareOfDays(_ use: RoutineSums, scale: Double = 1) -> ClusteredSums {
        var sums = ClusteredSums()
        sums.users = dayUsers
        sums.y = use.y
        sums.yy = use.yy
        sums.n.add(daySum.value * scale)
        sums.yn.add(use.yDays.value * scale)
        sums.nn.add(daySquares.value * scale * scale)
        return sums
    }
}
