import Foundation
import Ruleset

/// Where the outcomes of the engine's parts become its state: each part returns what it
/// decided (its records, the day after it, what it explains) and is applied here.
extension OperatorEngine {
    /// An app run's decisions about the day (`DayDecider`; the day itself was changed in
    /// place): its records after the step's, the tables' readings kept to be explained.
    /// Returns the reading with the route in force and the run's event.
    mutating func apply(_ outcome: consuming DayOutcome) -> (reading: DayReading, event: String) {
        records += outcome.log.records
        if let risk = outcome.risk { decisions.risk = risk }
        if let route = outcome.route { decisions.route = route }
        return (outcome.reading, outcome.event)
    }

    /// A day's close (`Judgement.close`): its problems and record, streak and XP carried on in
    /// one change of the profile (each change works out what runs read off it), and a fresh
    /// day open for the device's deliveries.
    mutating func apply(_ closing: Judgement.Closing, closed: Int, at time: Date) {
        for message in closing.problems { problem(at: time, .evaluation, message) }
        if explains, let explanation = closing.explanation { decisions.day = explanation }
        var updated = profile
        updated.streakDays = closing.close.streak
        updated.xp = closing.close.xp
        profile = updated
        records.append(EngineRecord(at: time, kind: .dayClosed(closing.close)))
        day = DayState(day: closed + 1)
        delivered = [:]
    }

    /// An app run's lines (`LineChooser`): their records, the lines kept for later runs, the
    /// lines to explain, the snapshot saved or dropped.
    mutating func apply(_ outcome: consuming LinesOutcome) {
        records += outcome.log.records
        swap(&memos.lines, &outcome.kept)
        if let lines = outcome.lines { decisions.lines = lines }
        switch outcome.snapshot {
        case .unchanged: break
        case .dropped: day?.dropSnapshot()
        case .saved(let snapshot): day?.lastSnapshot = snapshot
        }
    }

    /// A run's notification plan (`NotificationPlanner`): its records, the requests iOS holds,
    /// the refusals, what is kept to explain and what the next plan may keep. Swapped in, not
    /// copied: each field copied out of the plan was retained and the plan then destroyed.
    mutating func apply(_ plan: consuming Plan) {
        records += plan.records
        swap(&pending, &plan.pending)
        swap(&refused, &plan.refused)
        if let planned = plan.planned { decisions.planned = planned }
        swap(&memos.planning, &plan.memos)
    }

    /// The user's actions on the day (`DayActions`): their records, the day put back, the
    /// permissions a sync learnt, the route request to explain.
    mutating func apply(_ actions: consuming DayActions) {
        records += actions.log.records
        day = actions.day.take()
        if let permissions = actions.permissions { lastPermissions = permissions }
        if let route = actions.route { decisions.route = route }
    }
}
