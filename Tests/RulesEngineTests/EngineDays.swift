import Foundation
import RulesEngine
import RulesExpression
import Ruleset
import Testing

/// Days lived by the engine alone, built from Swift values: the user's routines and
/// settings, then moments (a date, a wall time, the events of one app run) in order. Each
/// day opens at its start (so a day without any run still closes and is judged), the clock
/// moves to every moment (deliveries due by then are presumed, as the app presumes them),
/// and after the last moment to the close of its day. No scenario file and no simulator:
/// what a test pins is the engine's own behaviour.
///
///     let lived = EngineDays(routines: ["water"]).at("2026-07-20", "08:00", .open()).live()
struct EngineDays {
    var ruleset: Ruleset
    var zone: String
    /// The routines the user has on (nil: the ruleset's defaults).
    var routines: Set<String>?
    /// The user's setting values (the others read their defaults).
    var settings: [String: Value]
    var moments: [Moment] = []
    /// Whether the engine explains its plans (the simulator's way); off, it plans as the app
    /// and populations do.
    var explains = true
    var verification = Verification.memoised

    /// The events of one app run at a wall time of a date (a time before the day's start,
    /// `03:59`, is the early hours after midnight: still the date's logical day).
    struct Moment {
        var date: String
        var time: String
        var events: [EngineEvent]
    }

    init(_ ruleset: Ruleset = Shipped.ruleset, zone: String = "Asia/Seoul", routines: Set<String>? = nil, settings: [String: Value] = [:]) {
        self.ruleset = ruleset
        self.zone = zone
        self.routines = routines
        self.settings = settings
    }

    /// These days with `events` at `time` on `date` after the moments so far (none: the
    /// clock only moves there).
    func at(_ date: String, _ time: String, _ events: EngineEvent...) -> EngineDays {
        var copy = self
        copy.moments.append(Moment(date: date, time: time, events: events))
        return copy
    }

    /// The days lived: every record, the engine after the last close, its clock.
    /// `restoring`: the state goes to JSON and back into a fresh engine after every step, as
    /// the app keeps it between runs (the records must not change).
    func live(restoring: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Lived {
        let clock = try #require(LocalClock(identifier: zone), sourceLocation: sourceLocation)
        var engine = OperatorEngine(ruleset: ruleset, clock: clock)
        engine.explains = explains
        if let routines { engine.useRoutines(routines) }
        engine.useSettings(settings)
        let dayStart = engine.profile.dayStart(ruleset)
        var records: [EngineRecord] = []
        var states: [Lived.State] = []
        var lastDay: Int?
        for moment in moments {
            let day = try #require(DateFormat.days(moment.date), "date \(moment.date)", sourceLocation: sourceLocation)
            let seconds = try #require(Self.seconds(moment.time), "time \(moment.time)", sourceLocation: sourceLocation)
            func step(_ events: [EngineEvent], at now: Date) throws {
                records += verification.run(&engine, events, now: now).records
                guard restoring else { return }
                let saved = try JSONDecoder().decode(EngineState.self, from: JSONEncoder().encode(engine.state))
                engine = try #require(OperatorEngine(ruleset: ruleset, state: saved), sourceLocation: sourceLocation)
                engine.explains = explains
            }
            if day != lastDay {
                // A new date opens at its start: the days between close on the way.
                try step([], at: clock.instant(day: day, seconds: dayStart))
                let open = clock.instant(day: day, seconds: dayStart)
                // Opening records nothing of its own; a difference the switch found is kept.
                records += verification.step(&engine, at: open) { $0.openDay(at: open) }.filter {
                    if case .problem(.memoMismatch, _) = $0.kind { return true }
                    return false
                }
                lastDay = day
            }
            let now = clock.instant(logicalDay: day, seconds: seconds, dayStart: dayStart)
            try step([], at: now)
            if !moment.events.isEmpty {
                try step(moment.events, at: now)
                states.append(Lived.State(route: engine.routeState?.route, snapshot: engine.snapshot, facts: engine.currentFacts()))
            }
        }
        if let lastDay {
            let after = engine.clock.instant(day: lastDay + 1, seconds: engine.profile.dayStart(ruleset))
            records += verification.run(&engine, [], now: after).records
        }
        return Lived(records: records, states: states, engine: engine, clock: clock)
    }

    /// Seconds after midnight of `HH:MM`.
    static func seconds(_ time: String) -> Int? {
        let parts = time.split(separator: ":")
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes) else {
            return nil
        }
        return hours * 3600 + minutes * 60
    }
}

/// What `EngineDays.live()` gives: the records in order and the engine after them.
struct Lived {
    var records: [EngineRecord]
    /// After each moment with events: the route and the snapshot the app saved.
    var states: [State]
    var engine: OperatorEngine
    var clock: LocalClock

    struct State {
        var route: RouteKind?
        var snapshot: DailySnapshot?
        /// Every fact as the engine reads it then.
        var facts: FactValues?
    }

    /// Each closed day, in order.
    var closedDays: [DayClose] {
        records.compactMap { if case .dayClosed(let close) = $0.kind { close } else { nil } }
    }

    /// The problem records' messages.
    var problems: [String] {
        records.compactMap { if case .problem(_, let message) = $0.kind { message } else { nil } }
    }

    /// Deliveries: (type, HH:MM, interruption level).
    var deliveries: [(String, String, String)] {
        records.compactMap { record in
            guard case .notificationDelivered(let n, _) = record.kind else { return nil }
            return (n.type, TimeFormat.clock(clock.local(record.at).seconds), n.interruptionLevel.rawValue)
        }
    }

    /// Suppressions: (type, HH:MM of the fire time, gate).
    var suppressions: [(String, String, String)] {
        records.compactMap { record in
            guard case .notificationSuppressed(let s) = record.kind else { return nil }
            return (s.type, TimeFormat.clock(clock.local(s.fireAt).seconds), s.reason.rawValue)
        }
    }

    /// The template rendered on `surface` at each app run, by id.
    func rendered(on surface: String) -> [String] {
        records.compactMap { record in
            if case .templateRendered(let text) = record.kind, text.surface == surface { return text.templateID }
            return nil
        }
    }
}

extension EngineDays {
    /// Days from 2026-07-20, each with a morning open, the evening notice answered with
    /// `responses` (nil: not answered) on the days they cover; only the evening notice's
    /// morning check-in is off.
    static func evenings(_ responses: [NotificationResponse?], days count: Int, ruleset: Ruleset = Shipped.ruleset) -> EngineDays {
        var days = EngineDays(ruleset, routines: ["water"], settings: ["morning_checkin": .bool(false)])
        for index in 0..<count {
            let date = "2026-07-\(20 + index)"
            days = days.at(date, "08:00", .open())
            if index < responses.count, let response = responses[index] {
                days = days.at(
                    date, "20:40", .notificationResponse(id: "evening_underachievement.202607\(20 + index)", response: response, health: nil))
            }
        }
        return days
    }
}

extension EngineEvent {
    /// `app: open` with `health` synced (nil: nothing known).
    static func open(_ health: HealthReading? = nil) -> EngineEvent { .appOpened(health: health) }

    /// A log of `value` in the routine's unit, by the user.
    static func log(_ routine: String, _ value: Double) -> EngineEvent { .log(routine: routine, value: value, unit: nil, source: .manual) }
}
