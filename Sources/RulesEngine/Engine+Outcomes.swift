import Foundation
import RulesExpression
import Ruleset

/// Where the outcomes of the engine's parts become its state: each part returns what it
/// decided (its records, the day after it, what it explains) and is applied here. The only
/// file of the engine that writes its stored properties (`OneApplyTests`); the others read
/// them, lend them to a part (`lendDay`, `lend(to:)`, `lendKeptLines`) and call these.
extension OperatorEngine {
    /// An app run's decisions about the day (`DayDecider`; the day itself was changed in
    /// place): its records after the step's, the tables' readings kept to be explained.
    /// Returns the reading with the route in force and the run's event.
    mutating func apply(_ outcome: inout DayOutcome) -> (reading: DayReading, event: String) {
        append(outcome.log)
        if let risk = outcome.risk.take() { decisions.risk = risk }
        if let route = outcome.route.take() { decisions.route = route }
        return (outcome.reading, outcome.event)
    }

    /// The run's reading with its `event`, kept for the day's close and `currentFacts()`
    /// (`KeptReading`).
    mutating func keep(_ reading: inout DayReading, event: String) {
        // Patched (the reading's array is shared with the decisions kept for explanations):
        // with `risk` and `event` patched, a candidate's `now` still fits without a copy.
        if let index = EnumCells.eventIndex(event), let cell = EnumCells.eventCells[index] {
            reading.facts.patch(layout.event, cell: cell)
        } else {
            reading.facts.patch(layout.event, .string(event))
        }
        guard let today = currentDay else { return }
        let inputs = ReadingInputs(day: today, profile: ReadingProfile(profileBox.value), permissions: lastPermissions)
        memos.reading = KeptReading(inputs: inputs, value: reading)
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
        open(closed + 1)
    }

    /// An app run's lines (`LineChooser`): their records, the lines kept for later runs, the
    /// lines to explain, the snapshot saved or dropped.
    mutating func apply(_ outcome: inout LinesOutcome) {
        append(outcome.log)
        swap(&memos.lines, &outcome.kept)
        if let lines = outcome.lines.take() { decisions.lines = lines }
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
        if !plan.records.isEmpty { records += plan.records }
        swap(&pending, &plan.pending)
        swap(&refused, &plan.refused)
        if let planned = plan.planned { decisions.planned = planned }
        swap(&memos.planning, &plan.memos)
    }

    /// The user's actions on the day (`DayActions`): their records, the day put back, the
    /// permissions a sync learnt, the route request to explain.
    mutating func apply(_ actions: inout DayActions) {
        append(actions.log)
        day = actions.day.take()
        if let permissions = actions.permissions { lastPermissions = permissions }
        if let route = actions.route { decisions.route = route }
    }

    /// Records a part made, after the step's.
    mutating func apply(_ log: consuming RecordLog) {
        append(log)
    }

    /// A part's records after the step's (none, most often: nothing to append).
    @inline(__always)
    private mutating func append(_ log: borrowing RecordLog) {
        if !log.records.isEmpty { records += log.records }
    }

    /// Lends the current day to `body`: moved out and put back (a copy would retain every
    /// array it holds, and copy one at its first change). Nil when no day is open. Inlined:
    /// called, the day was copied into the closure's frame.
    @inline(__always)
    mutating func lendDay<Result>(_ body: (inout DayState) -> Result) -> Result? {
        guard var current = day.take() else { return nil }
        let result = body(&current)
        day = current
        return result
    }

    /// Moves the current day out to a part whose apply puts it back
    /// (`apply(_: inout DayActions)`).
    mutating func lendDay() -> DayState? {
        day.take()
    }

    /// Moves what plans keep and the requests into the plan's input; they come back with the
    /// plan (`apply(_: Plan)`).
    mutating func lend(to input: inout PlanInput) {
        swap(&input.memos, &memos.planning)
        swap(&input.pending, &pending)
        swap(&input.refused, &refused)
    }

    /// Moves the lines earlier runs kept out to the line chooser; they come back with its
    /// outcome (`apply(_: inout LinesOutcome)`).
    mutating func lendKeptLines() -> [KeptLine] {
        var kept: [KeptLine] = []
        swap(&kept, &memos.lines)
        return kept
    }

    /// A fresh day `logical`, nothing delivered on it yet.
    mutating func open(_ logical: Int) {
        day = DayState(day: logical)
        delivered = [:]
    }

    /// The refusals whose fire time came by `time` (`due`, every one of them, in the order
    /// they are reported): reported, and every refusal due by then forgotten.
    mutating func apply(suppressed due: [SuppressedNotification], upTo time: Date) {
        refused.removeAll { $0.fireAt <= time }
        for item in due { records.append(EngineRecord(at: item.fireAt, kind: .notificationSuppressed(item))) }
    }

    /// The state reconciled with the ruleset in force (`reconciled()`), each change a
    /// `state.reconciled` record and each request cancelled a `notification.cancelled` one.
    mutating func apply(_ outcome: consuming Reconciled, at time: Date) {
        needsReconciliation = false
        stateRulesetSHA256 = ruleset.sha256
        settingsFittedAtStart = []
        if outcome.profile != profile { profile = outcome.profile }
        day = outcome.day
        pending = outcome.pending
        refused = outcome.refused
        delivered = outcome.delivered
        for change in outcome.changes { note(at: time, .stateReconciled(change)) }
        for request in outcome.cancelled {
            records.append(EngineRecord(at: time, kind: .notificationCancelled(request, reason: .removedFromRuleset)))
        }
    }

    /// The device's new clock: the memos made with the old one go.
    mutating func apply(clock new: LocalClock) {
        clock = new
        memos = memos.emptied
    }

    /// The user's settings (one change of the profile, only when they differ).
    mutating func apply(settings: [String: Value]) {
        guard settings != profile.settings else { return }
        var updated = profile
        updated.settings = settings
        profile = updated
    }

    /// The routines the user has on (one change of the profile, only when they differ).
    mutating func apply(enabledRoutines: Set<String>) {
        guard enabledRoutines != profile.enabledRoutines else { return }
        var updated = profile
        updated.enabledRoutines = enabledRoutines
        profile = updated
    }

    /// The tool's verdict, kept to be explained.
    mutating func explain(tool explanation: Explanation) {
        decisions.tool = explanation
    }
}

extension OperatorEngine {
    /// The user's settings, enabled routines, streak, XP and ignore counts.
    public internal(set) var profile: OperatorProfile {
        get { storedProfile }
        set {
            let old = storedProfile
            storedProfile = newValue
            // The ruleset read through the prepared box in the closure: `self.ruleset` is a copy
            // (a retain of each of its fields).
            let prepared = self.prepared
            profileBox = profileBox.changed {
                $0.update(from: old, to: newValue, ruleset: prepared.ruleset, layout: prepared.layout, derived: prepared.derived)
            }
        }
    }
    /// Replaces the ruleset mid-day (hot reload): the day's logs, route and history stay.
    /// At the next step the state is reconciled with the new ruleset (see `EngineState`):
    /// settings it does not declare are dropped, new ones take their defaults, requests of
    /// removed types are cancelled; each change is a `state.reconciled` record.
    public mutating func replaceRuleset(_ new: Ruleset) {
        prepared = PreparedRuleset(new)
        profileBox = ProfileBox(profile, prepared)
        // The memos were made under the old ruleset.
        memos = memos.emptied
        needsReconciliation = true
    }

    /// A step's records start empty. The buffer is kept: once the caller has let go of the
    /// last step's records it is reused, and a step's appends do not grow a fresh array.
    mutating func beginStep() {
        records.removeAll(keepingCapacity: true)
    }

    /// Appends a record of what a run did that decides nothing (an app run's cause, a sync,
    /// a log, a line, the snapshot, …): skipped when the engine keeps `.decisions` only.
    @inline(__always)
    mutating func note(at time: Date, _ kind: @autoclosure () -> EngineRecord.Kind) {
        guard recordsKept == .all else { return }
        records.append(EngineRecord(at: time, kind: kind()))
    }

    mutating func problem(at time: Date, _ code: ProblemCode, _ message: String) {
        records.append(EngineRecord(at: time, kind: .problem(code: code, message: message)))
    }

    /// The memo layer's switch (`Verification`, a host's): whether memos may be read.
    mutating func apply(memoReads reads: Bool) {
        memos.reads = reads
    }
    /// A delivery: the request leaves the plan and counts for today's cap and cooldowns.
    mutating func deliver(_ request: ScheduledNotification, staleCondition: Bool) {
        pending.removeAll { $0.sameID(as: request) }
        if request.day == currentDay {
            day?.deliveries.append(Delivery(type: request.type, category: request.category, at: request.scheduledAt))
            delivered[request.id] = request
        }
        records.append(EngineRecord(at: request.scheduledAt, kind: .notificationDelivered(request, staleCondition: staleCondition)))
    }

    /// Sets one type's run of ignores and the day it became weakened: one change of the
    /// profile, and of what runs read off it only that type's count (a change through
    /// `profile` compares every setting and count).
    mutating func setIgnores(_ type: String, streak: Int, weakenedSince: Int?) {
        storedProfile.ignoredStreaks[type] = streak
        storedProfile.weakenedSince[type] = weakenedSince
        if let index = prepared.ruleBox(type)?.index {
            // The policy read through the prepared box: `ruleset` is a copy of all of it.
            let (layout, policy) = (self.layout, prepared.ruleset.policy)
            profileBox = profileBox.changed { $0.setIgnoredStreak(index, streak, weakenedSince: weakenedSince, layout: layout, policy: policy) }
        }
    }
}
