import Foundation

/// One user's features once read: the finished `UserCounts`, shared, never changed. A fit passes
/// users through filters, groups and estimators many times over; as a reference, handing one
/// on retains one object rather than each of a tally's counts (a million users' fit spent a
/// quarter of its time copying them), and a table of users holds a reference each, not the
/// tally inline.
package final class UserFeatures: Sendable {
    let tally: UserCounts

    /// The tally as a finished user leaves it: its last day closed, nothing left pending.
    init(_ tally: UserCounts) {
        var finished = tally
        finished.settle()
        self.tally = finished
    }

    package var days: Int { tally.days }
    var openBins: [OpenBin] { tally.openBins }
    package var opens: [Int] { tally.opens }
    package var logs: [String: RoutineUse] { tally.logs }
    package var ticks: [String: RoutineUse] { tally.ticks }
    package var deliveries: Int { tally.deliveries }
    package var withheld: Int { tally.withheld }
    package var opened: Int { tally.opened }
    package var ignored: Int { tally.ignored }
    package var acted: Int { tally.acted }
    package var skips: Int { tally.skips }
    package var stepsGranted: Bool? { tally.stepsGranted }
    package var sleepGranted: Bool? { tally.sleepGranted }
    package var sleep: Moments { tally.sleep }
    package var wake: Moments { tally.wake }
    package var steps: Moments { tally.steps }
    package var ignoredByType: [String: Int] { tally.ignoredByType }
    package var switchedOff: Set<String> { tally.switchedOff }
    package var routeDays: [String: Int] { tally.routeDays }
    package var resultDays: [String: Int] { tally.resultDays }
    package var trial: [String: UserTrial] { tally.trial }
    var deliveredSoFar: [String: Int] { tally.deliveredSoFar }
    package var ran: Bool { tally.ran }
    package var enabled: Set<String>? { tally.enabled }
    package var setOn: [String: Bool] { tally.setOn }
    package var setChoice: [String: String] { tally.setChoice }
    package var setAt: [String: Int] { tally.setAt }
    package var noticesOff: Bool { tally.noticesOff }
    package var notices: NoticesWatch { tally.notices }
    package var deliveredByPlace: PlaceCounts { tally.deliveredByPlace }
    package var ignoredByPlace: PlaceCounts { tally.ignoredByPlace }
    package var seenByType: [String: Int] { tally.seenByType }
}
