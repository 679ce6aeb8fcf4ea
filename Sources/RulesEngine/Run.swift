import Foundation
import RulesExpression
import Ruleset

/// What one run asks the app to do, in the order the app applies it.
public struct Effects: Sendable, Hashable, Codable {
    /// Requests to add or replace with `UNUserNotificationCenter` (ids are stable across runs,
    /// so a replaced request keeps its id).
    public var schedule: [ScheduledNotification] = []
    /// Pending requests to remove, with why.
    public var cancel: [Cancellation] = []
    /// The snapshot to save for home and the widget (nil: the run saved none).
    public var snapshot: DailySnapshot?
    /// The widget's redacted view of `snapshot` (no sensitive values).
    public var widget: WidgetView? { snapshot.map(WidgetView.init) }
    /// Everything the run did and decided, in time order (what a trace shows).
    public var records: [EngineRecord] = []

    /// Collects the effects of `records`: a request scheduled and then cancelled in the same
    /// run is only cancelled; one cancelled and then scheduled is only scheduled.
    /// Searched in arrays, not dictionaries: a run schedules at most `max_pending` (64)
    /// requests and cancels at most those it held, and the app collects its effects at every
    /// run — a dictionary's hashing of each id cost more than the whole search.
    public init(records: [EngineRecord]) {
        self.records = records
        var scheduled: [ScheduledNotification] = []
        var cancelled: [Cancellation] = []
        for record in records {
            switch record.kind {
            case .notificationScheduled(let request):
                if let index = scheduled.firstIndex(where: { $0.sameID(as: request) }) {
                    scheduled[index] = request
                } else {
                    scheduled.append(request)
                }
                if !cancelled.isEmpty { cancelled.removeAll { $0.id == request.id } }
            case .notificationCancelled(let request, let reason):
                if let index = scheduled.firstIndex(where: { $0.sameID(as: request) }) { scheduled.remove(at: index) }
                if !cancelled.isEmpty { cancelled.removeAll { $0.id == request.id } }
                cancelled.append(Cancellation(id: request.id, reason: reason))
            case .snapshot(let saved):
                snapshot = saved
            default:
                break
            }
        }
        schedule = scheduled
        cancel = cancelled
    }
}

/// A pending request the app removes, and why.
public struct Cancellation: Sendable, Hashable, Codable {
    /// The request's id (as it was scheduled with iOS).
    public var id: String
    /// Why it goes.
    public var reason: CancelReason
}

/// The widget's view (seed 7.4): counts, rates and the widget line, never sleep or any
/// sensitive value.
public struct WidgetView: Sendable, Hashable {
    /// The logical day (days since 1970-01-01).
    public var date: Int
    /// Routines completed today.
    public var completedRoutines: Int
    /// Core routines today.
    public var totalRoutines: Int
    /// completed / total.
    public var completionRate: Double
    /// Steps today (0 without permission).
    public var stepsToday: Int
    /// The steps goal in force.
    public var stepsGoal: Int
    /// Water today, ml.
    public var waterML: Int
    /// The water goal in force, ml.
    public var waterGoalML: Int
    /// The route in force.
    public var route: RouteKind
    /// The widget surface's line (redacted when it would show a sensitive value).
    public var line: String?
    /// Whether the line was redacted.
    public var redacted: Bool
    /// The steps permission last known.
    public var healthKitPermission: HealthReading.Permission
    /// When the snapshot was made.
    public var lastUpdatedAt: Date

    /// The widget's view of `snapshot`.
    public init(_ snapshot: DailySnapshot) {
        date = snapshot.date
        completedRoutines = snapshot.completedRoutines
        totalRoutines = snapshot.totalRoutines
        completionRate = snapshot.completionRate
        stepsToday = snapshot.stepsToday
        stepsGoal = snapshot.stepsGoal
        waterML = snapshot.waterML
        waterGoalML = snapshot.waterGoalML
        route = snapshot.route
        line = snapshot.widgetLine?.text
        redacted = snapshot.widgetLine?.redacted ?? false
        healthKitPermission = snapshot.stepsPermission
        lastUpdatedAt = snapshot.lastUpdatedAt
    }
}

/// The outcome of one run: the state to save and the effects to apply.
public struct RunResult: Sendable {
    /// The state to save.
    public var state: EngineState
    /// What to schedule, cancel and show.
    public var effects: Effects
}

extension OperatorEngine {
    /// One app run as a pure function: (state, event, ruleset, now) → (state, effects).
    ///
    /// The engine goes on from `state` (reconciled first if `ruleset` is not the one that
    /// wrote it), lets the clock reach `now` (days close at `day_starts_at`; requests due by
    /// then are presumed delivered unless the app reported them with
    /// `.notificationDelivered` first), applies `event` (nil: only the clock moves), and
    /// returns the state to save with what to schedule, cancel and show. Never traps: an
    /// event it cannot apply is a `problem` record.
    public static func run(state: EngineState, event: EngineEvent?, ruleset: Ruleset, at now: Date) -> RunResult {
        var state = state
        let effects = run(&state, event.map { [$0] } ?? [], PreparedRuleset(ruleset), now: now)
        return RunResult(state: state, effects: effects)
    }

    /// One app run, the app's entry: goes on from `state` under `ruleset` (prepared once per
    /// ruleset and shared), lets the clock reach `now`, applies `events` in order at `now`
    /// (none: only the clock moves) and leaves in `state` what to save; returns what to
    /// schedule, cancel and show. A state written under another ruleset is reconciled first.
    /// Never traps: an event it cannot apply is a `problem` record, and a state whose time
    /// zone is unknown here is left as it was, with a problem record.
    public static func run(_ state: inout EngineState, _ events: [EngineEvent], _ ruleset: PreparedRuleset, now: Date) -> Effects {
        guard var engine = OperatorEngine(prepared: ruleset, state: state) else {
            let problem = EngineRecord(
                at: now, kind: .problem(code: .stateTimeZone, message: "the state's time zone '\(state.timeZone)' is unknown"))
            return Effects(records: [problem])
        }
        let effects = engine.run(events, now: now)
        state = engine.state
        return effects
    }

    /// One app run on this engine — the one way in, which the app's `run(&state, …)` calls on
    /// an engine made from the saved state, and the simulator, `rules test`, populations and
    /// the fuzz targets call on the engine they keep between runs (the same code: plain and
    /// `--restore-each-event` runs give the same records). Lets the clock reach `now` and
    /// applies `events` in order at `now` (none: only the clock moves).
    ///
    /// `presumingDeliveries`: requests due by `now` are presumed delivered (the app, which
    /// reports the deliveries it learns of as `.notificationDelivered` first); false leaves
    /// them pending for a device model that reports each one.
    public mutating func run(_ events: [EngineEvent], now: Date, presumingDeliveries: Bool = true) -> Effects {
        Effects(records: records(of: events, now: now, presumingDeliveries: presumingDeliveries))
    }

    /// The records of a run (what `run(_:now:)` collects into effects).
    package mutating func records(of events: [EngineEvent], now: Date, presumingDeliveries: Bool = true) -> [EngineRecord] {
        guard !events.isEmpty else { return advance(to: now, presumingDeliveries: presumingDeliveries) }
        var collected: [EngineRecord] = []
        for event in events { collected += handle(event, at: now) }
        return collected
    }
}

extension OperatorEngine {
    /// Takes setting values as the user's own (a scenario's `settings:`), without a record;
    /// undeclared keys and values that do not fit their declaration (`fits`) are ignored.
    public mutating func adopt(settings values: [String: Value]) {
        var settings = profile.settings
        for (key, value) in values {
            guard let declaration = ruleset.settings.declaration(key), OperatorEngine.fits(value, declaration.type, in: ruleset) else { continue }
            settings[key] = value
        }
        apply(settings: settings)
    }

    /// The routines the user has on (a scenario's `routines:` over a saved state's); ids the
    /// ruleset does not define are left out.
    public mutating func useRoutines(_ ids: Set<String>) {
        let known = ids.filter { ruleset.routine($0) != nil }
        apply(enabledRoutines: known)
    }

    /// Replaces every value the user set by `values` (a scenario day's settings: the others
    /// read their defaults), without a record; undeclared keys and values that do not fit
    /// are left out. The profile changes only when the values do.
    public mutating func useSettings(_ values: [String: Value]) {
        let settings = values.filter { key, value in
            ruleset.settings.declaration(key).map { OperatorEngine.fits(value, $0.type, in: ruleset) } ?? false
        }
        apply(settings: settings)
    }
}
