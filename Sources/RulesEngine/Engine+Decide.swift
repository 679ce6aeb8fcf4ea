import Foundation
import RulesExpression
import Ruleset

extension OperatorEngine {
    /// The decisions of an app run (SPEC §5.1): risk, then route, with `now` = the run's
    /// time; recovery items and the quest; the snapshot and the lines; the notification plan.
    /// `routeRequested`: the run's event started a route (a user's request).
    mutating func decide(at time: Date, routeRequested: Bool = false) {
        // The day is lent to the decider (moved out and put back: a copy retained every array
        // it holds, and the first change of one of them copied that array too). The outcome
        // lives in a scope that ends before the reading is patched: alive, it shared the
        // reading's facts, and the patch copied them.
        var reading: DayReading
        let event: String
        do {
            let decider = dayDecider
            guard var outcome = lendDay({ decider.decide(&$0, at: time, routeRequested: routeRequested) }) else { return }
            (reading, event) = apply(&outcome)
        }
        keep(&reading, event: event)
        saveSnapshot(reading, event: event, at: time)
        plan(at: time, today: reading)
    }

    /// The part of an app run that decides the day, as this user's profile, permissions and
    /// clock stand.
    var dayDecider: DayDecider {
        DayDecider(
            prepared: prepared, reader: reader, tables: RouteTables(ruleset, dayStart: dayStart),
            recovery: RecoveryRoute(prepared: prepared, enabled: storedProfile.enabledRoutines), clock: clock, dayStart: dayStart,
            explains: explains, kept: recordsKept)
    }

    /// The notification plan of this run (`NotificationPlanner`), applied.
    private mutating func plan(at time: Date, today reading: DayReading) {
        guard let today = planDay else { return }
        // The memos and the requests are swapped into the plan's input and its results
        // swapped back, not copied: a kept array would be copied when the planner adds to it,
        // and each field copied out of the plan was retained and the plan then destroyed.
        var input = PlanInput(today: today, reading: reading, pending: [], refused: [], delivered: delivered, time: time, memos: PlanMemos())
        lend(to: &input)
        apply(planner.plan(consume input))
    }
}

/// An app run's reading, kept for the day's close as a memo (`Memo`) of its inputs alone:
/// until the next app run the day changes only by deliveries (`notifications.sent_today`),
/// so the close — which reads the day as of the last run — takes this reading with `event`
/// back to `home` and the deliveries counted anew, unless the day, what a reading reads of
/// the profile or the known permissions changed since.
typealias KeptReading = Memo<ReadingInputs, DayReading>

/// What a reading of the day is made from besides the day's own state: the logical day,
/// what it reads of the profile (`ReadingProfile`) and the permissions last known.
struct ReadingInputs: Equatable, Sendable {
    var day: Int
    var profile: ReadingProfile
    var permissions: KnownPermissions
}
