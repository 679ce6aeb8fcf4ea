import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// What a plan reads of the current day (see `OperatorEngine.planDay`).
struct PlanDay {
    var day: Int
    var skipped: Bool
    var route: RouteKind
    var reason: String
    var deliveries: [Delivery]
}

/// What the snapshot reads of the current day.
struct SnapshotDay {
    var day: Int
    var route: RouteKind
    var risk: RiskLevel?
    var quest: WalkingQuest?
    var stepsPermission: HealthReading.Permission?
}

/// Which records an engine returns.
public enum RecordsKept: Sendable {
    /// Every record: what a trace shows.
    case all
    /// Only the records of decisions and of what reaches iOS: schedule, cancel, delivery,
    /// suppression, route changes, day closes and problems — what a population's tally and
    /// device model read. Causes of app runs, syncs, logs, ticks, responses, risk changes,
    /// route items, lines, snapshots, tool verdicts and reconciliations are not recorded
    /// (their effects on the day and the plan are the same), the plan's candidates are
    /// not kept to be explained, and no snapshot is kept (`snapshot` is nil; the lines are
    /// still chosen, so a template that fails to render is still a problem record).
    case decisions
}

/// The operator for one user: feed it the day's events in time order and read back what
/// the user sees, what is scheduled and what is said. Deterministic (same ruleset, same
/// events → same records) and never traps: impossible events become `problem` records.
///
/// Decisions happen at app runs. Between runs only the device acts: call
/// `advance(to:truth:)` to let it deliver what the last run scheduled (the simulator does;
/// `handle` does it too, without the truth needed to flag stale conditions).
public struct OperatorEngine: Sendable {
    /// The ruleset in force, prepared (one reference: copying an engine retains it once).
    var prepared: PreparedRuleset
    /// The ruleset in force.
    public var ruleset: Ruleset { prepared.ruleset }
    var layout: FactLayout { prepared.layout }
    /// The user's clock: the saved time zone, changed by `.timeZoneChanged`.
    public internal(set) var clock: LocalClock
    /// The profile itself: changed through `profile` (which works out what changed) or
    /// `setIgnores` (one type's run of ignores), both in Engine+Outcomes.
    var storedProfile: OperatorProfile
    /// What app runs read off the profile, worked out again when it changes.
    var fromProfile: ProfileDerived { profileBox.value }
    var profileBox: ProfileBox
    /// `day_starts_at` in force (the user's setting, else the ruleset's).
    var dayStart: Int { fromProfile.dayStart }
    /// Reading the day as this user's profile and permissions stand.
    var reader: DayReader { DayReader(prepared: prepared, profile: profileBox, permissions: lastPermissions) }
    /// The notification planner as this user's profile, clock and permissions stand.
    var planner: NotificationPlanner {
        NotificationPlanner(
            prepared: prepared, profileBox: profileBox, weakenedSince: storedProfile.weakenedSince, clock: clock, permissions: lastPermissions,
            explains: explains, memoises: memoises)
    }
    /// The notification rules, boxed once per ruleset.
    var ruleBoxes: [RuleBox] { prepared.ruleBoxes }
    /// The routines, boxed once per ruleset.
    var routineBoxes: [RoutineBox] { prepared.routineBoxes }
    /// What every app run would otherwise work out again from the ruleset.
    var derived: RulesetDerived { prepared.derived }
    var day: DayState?
    /// Permissions as last known (before any sync today: from the last sync of any day).
    var lastPermissions = KnownPermissions()
    /// The SHA-256 of the ruleset the restored state was written under.
    var stateRulesetSHA256: String
    /// Set when the ruleset changed under the state (restored under another ruleset, or
    /// replaced): the next step reconciles the state with it first.
    var needsReconciliation = false
    /// Settings the engine fitted to the ruleset when it was made (key, what happened), which
    /// the first reconciliation reports.
    var settingsFittedAtStart: [Reconciliation] = []
    /// Requests pending with iOS after the last app run, soonest first.
    public internal(set) var pending: [ScheduledNotification] = []
    /// Candidates the last plan refused, reported when their fire time passes.
    var refused: [SuppressedNotification] = []
    /// Requests delivered on the current day, by id (responses must name one).
    var delivered: [String: ScheduledNotification] = [:]
    /// What the steps decided, to be explained on demand (written, never read back, and only
    /// when `explains`: see `Decisions`).
    var decisions = Decisions()

    var records: [EngineRecord] = []
    /// What an app run keeps from earlier ones (see `MemoLayer`).
    var memos = MemoLayer()
    /// Which records the engine returns (every decision is made either way).
    public var recordsKept = RecordsKept.all
    /// Whether the steps keep what they decided to be explained (`decisions`): the tables'
    /// readings, the plan's candidates with their gates, the lines, the tool's verdict, the
    /// day's close. Off by default — the app and populations pay nothing for explanations;
    /// the simulator, `rules explain` and `rules test` turn it on. Nothing else changes.
    public var explains = false
    /// Whether an app run may read what an earlier one kept (the memo layer's switch, which
    /// a host sets through `Verification`; the app's engines always read).
    var memoises: Bool { memos.reads }

    /// A fresh engine: nothing logged, the ruleset's defaults (or `profile`), in `clock`'s zone.
    public init(ruleset: Ruleset, clock: LocalClock, profile: OperatorProfile? = nil) {
        self.init(prepared: PreparedRuleset(ruleset), clock: clock, profile: profile)
    }

    /// An engine of a prepared ruleset: engines of one ruleset (a population's users, an
    /// app that makes a fresh engine per run) work out its tables once.
    public init(prepared: PreparedRuleset, clock: LocalClock, profile: OperatorProfile? = nil) {
        let ruleset = prepared.ruleset
        self.prepared = prepared
        self.clock = clock
        var profile = (profile ?? OperatorProfile(ruleset: ruleset)).bounded
        if profile.settingsIncludeDefaults {
            // A version 1 state: a value equal to the default is taken as never set.
            profile.settings = profile.settings.filter { key, value in ruleset.settings.declaration(key)?.defaultValue != value }
            profile.settingsIncludeDefaults = false
        }
        // Settings that do not fit (a host's, or a saved state's under a changed ruleset: the
        // engine stores none itself) are fitted before anything reads them; a restored state's
        // reconciliation reports each change.
        self.settingsFittedAtStart = OperatorEngine.fit(&profile.settings, to: ruleset)
        self.storedProfile = profile
        self.stateRulesetSHA256 = ruleset.sha256
        self.profileBox = ProfileBox(profile, prepared)
    }

    /// An engine that goes on from a saved state. A state written under another ruleset
    /// (or one edited since) is reconciled with `ruleset` at the next step, each change a
    /// `state.reconciled` record. Nil when the state's time zone is unknown here.
    public init?(ruleset: Ruleset, state: EngineState) {
        self.init(prepared: PreparedRuleset(ruleset), state: state)
    }

    /// An engine that goes on from a saved state under a prepared ruleset (made once and
    /// shared: the app's runs and a simulation's restores do not work out its tables again).
    public init?(prepared: PreparedRuleset, state: EngineState) {
        guard let clock = state.clock else { return nil }
        self.init(prepared: prepared, clock: clock, profile: state.profile)
        day = state.day
        lastPermissions = state.permissions
        pending = state.pending
        refused = state.refused
        delivered = Dictionary(state.delivered.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        stateRulesetSHA256 = state.rulesetSHA256
        needsReconciliation = true
    }

    /// An engine going on from `state` that explains on from what `earlier` decided: a host
    /// that restores the engine between steps (as the app does between runs) keeps its
    /// explanations across the restore (the saved state holds no decisions). Nil when the
    /// state's time zone is unknown here.
    package init?(prepared: PreparedRuleset, state: EngineState, explainingOnFrom earlier: OperatorEngine) {
        self.init(prepared: prepared, state: state)
        decisions = earlier.decisions
    }

    /// Everything that must survive until the next app run (save it after every step).
    public var state: EngineState {
        var state = EngineState(ruleset: ruleset, clock: clock, profile: profile)
        state.rulesetSHA256 = needsReconciliation ? stateRulesetSHA256 : ruleset.sha256
        state.day = day
        state.permissions = lastPermissions
        state.pending = pending
        state.refused = refused
        state.delivered = delivered.values.sorted { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        return state
    }

    // MARK: read-outs

    /// A copy to read explanations and facts from later (an expectation's moment): without
    /// what only the next run would use (kept plans and lines, the step's records), so a
    /// simulation that keeps one per expectation does not keep every cache of every moment.
    public var forReading: OperatorEngine {
        var copy = self
        copy.memos = MemoLayer(reading: memos.reading, reads: memos.reads)
        copy.records = []
        return copy
    }

    /// The snapshot saved at the last app run (what the widget shows); nil on an engine that
    /// keeps only decisions (`RecordsKept.decisions`).
    public var snapshot: DailySnapshot? { day?.lastSnapshot }
    /// The route of the current day.
    public var routeState: RouteState? { day?.route }
    /// The current logical day.
    public var currentDay: Int? { day?.day }
    /// When the current day's last app run was (a log, a tick and an opening are each one);
    /// nil before the day's first.
    public var lastRunAt: Date? { day?.lastRun }

    // Read-outs of the day for mutating methods: there, reading `day?.x` copied the whole
    // day out first (a retain of every array it holds); through a non-mutating read-out (as
    // `lastRunAt` above) the field is read in place.
    /// What a plan reads of the current day.
    var planDay: PlanDay? {
        guard let day else { return nil }
        return PlanDay(day: day.day, skipped: day.skipped, route: day.route.route, reason: day.route.reason, deliveries: day.deliveries)
    }
    /// What the snapshot reads of the current day.
    var snapshotDay: SnapshotDay? {
        guard let day else { return nil }
        return SnapshotDay(day: day.day, route: day.route.route, risk: day.risk, quest: day.quest, stepsPermission: day.health?.stepsPermission)
    }
    /// Habit logs of the current day.
    public var habitLogs: [HabitLog] { day?.logs ?? [] }

    /// Routine statuses at the last app run (or now, if none).
    public func statuses() -> [String: RoutineStatus] {
        guard let day else { return [:] }
        let reading = reader.read(
            day, route: day.route.route, risk: day.risk ?? .low,
            now: day.lastRun.map { clock.timeOfDay($0, inLogicalDay: day.day, dayStart: dayStart) } ?? 0)
        return Dictionary(uniqueKeysWithValues: reading.routines.map { (prepared.routine(of: $0).value.id, $0.status) })
    }

    /// The facts of the current day as of the last app run (its `now`), nil before any.
    public func currentFacts() -> FactValues? {
        if let facts = memos.reading?.value.facts { return facts }
        guard let day, let lastRun = day.lastRun else { return nil }
        var facts = reader.read(
            day, route: day.route.route, risk: day.risk ?? .low, now: clock.timeOfDay(lastRun, inLogicalDay: day.day, dayStart: dayStart)
        ).facts
        facts.put(layout.event, .string(day.lastEvent))
        return facts
    }

    /// Applies one event at `time`. Events must come in time order; an earlier one is
    /// refused with a `problem` record and changes nothing.
    @discardableResult
    mutating func handle(_ event: EngineEvent, at time: Date) -> [EngineRecord] {
        beginStep()
        if refusesTimeOutOfRange(time) { return records }
        if let last = lastRunAt, time < last {
            problem(at: time, .outOfOrder, "event at \(clock.iso8601(time)) comes before the last app run at \(clock.iso8601(last))")
            return records
        }
        reconcileIfNeeded(at: time)
        if case .notificationDelivered(let id, let stale) = event {
            moveTime(to: time, truth: nil, presumingDeliveries: false)
            guard let request = pending.first(where: { $0.id == id }) else {
                problem(at: time, .unknownRequest, "no pending request '\(id)'")
                return records
            }
            deliver(request, staleCondition: stale)
            return records
        }
        moveTime(to: time, truth: nil)
        if case .timeZoneChanged(let identifier) = event {
            changeTimeZone(to: identifier, at: time)
            return records
        }
        openDay(for: time)
        apply(event, at: time)
        return records
    }

    /// The device's new time zone at `time` (already reached in the old one): the clock
    /// changes, the caches made with the old clock go, a day whose end has passed in the new
    /// zone closes (as at any day change), and the app runs and plans again (cancel and
    /// schedule effects); the daily cap still counts the logical day in progress. An unknown name is a
    /// problem record and changes nothing.
    mutating func changeTimeZone(to identifier: String, at time: Date) {
        guard let new = LocalClock(identifier: identifier) else {
            return problem(
                at: time, .unknownTimeZone, "'\(identifier)' is not an IANA time zone (a zone such as Asia/Seoul, UTC, or Etc/GMT-14 … Etc/GMT+12)")
        }
        let old = clock.timeZone.identifier
        guard new != clock else { return }
        apply(clock: new)
        // The logical day in progress keeps its date: it ends at the next day_starts_at
        // read in the new zone. When that has already passed, the day closes first, now.
        while let open = currentDay, clock.instant(day: open + 1, seconds: dayStart) <= time, open < clock.logical(time, dayStart: dayStart).day {
            closeDay(at: time)
        }
        note(at: time, .timeZoneChanged(from: old, to: new.timeZone.identifier))
        moveTime(to: time, truth: nil)
        openDay(for: time)
        // The app learns of the change when it runs next; the device reports it as a run
        // (without a sync) so that the plan is made again in the new zone.
        note(at: time, .appRun(cause: .timezone, synced: false))
        decide(at: time)
    }

    /// A time outside the days the engine lives (`InputLimits.engineDays`: a device clock
    /// far off, or no time at all) is refused with a `problem` record and changes nothing.
    mutating func refusesTimeOutOfRange(_ time: Date) -> Bool {
        let seconds = time.timeIntervalSince1970
        let days = InputLimits.engineDays
        if InputLimits.engineSeconds.contains(seconds), days.contains(clock.logical(time, dayStart: dayStart).day) { return false }
        let shown = seconds.isFinite ? String(Int64(Swift.min(Swift.max(seconds.rounded(.down), -9e18), 9e18))) : String(seconds)
        problem(
            at: LocalClock.bounded(time), .outOfRange,
            "the time \(shown) s since 1970 is outside the days the engine lives (\(DateFormat.string(days.lowerBound)) to \(DateFormat.string(days.upperBound)))"
        )
        return true
    }

}

/// The memo layer: what an app run may keep from earlier ones instead of working it out
/// again, and the switch that says whether it may be read. Every memo is a `Memo`, keyed by
/// all it was made from — its inputs compared whole and what it read of the run's facts —
/// so keeping it never changes a record; none is saved (a restored
/// engine starts without them), all go at once when the clock's zone or the ruleset changes
/// (the switch stays), and a layer that does not read never gives one back: every step
/// works everything out again (`Verification.recomputed`, set by a host, never by the app).
struct MemoLayer: Sendable {
    /// What plans keep for the next ones (`PlanMemos`): the last plan, tomorrow's, the ids.
    var planning = PlanMemos()
    /// Lines of earlier runs by surface and event, with the facts they read (`KeptLine`).
    var lines: [KeptLine] = []
    /// The last app run's reading and what it was read under, for the day's close
    /// (`KeptReading`) and `currentFacts()`.
    var reading: KeptReading?
    /// Whether the memos above may be read (they are kept either way).
    var reads = true

    /// The layer emptied, its switch as it was.
    var emptied: MemoLayer { MemoLayer(reads: reads) }
}
