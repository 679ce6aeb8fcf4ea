import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// How a simulation runs; every field's default is a plain run of the whole scenario.
package struct SimulationOptions {
    /// Stop at this day (index) and wall time (`--at`).
    package var stop: (day: Int, seconds: Int)?
    /// Write the engine's state to JSON and read it back into a fresh engine after every
    /// event and delivery, as the app does between runs: the records must not change.
    package var restoreEachEvent = false
    /// Answers delivered notifications as a user would (a population's users): each of its
    /// answers comes as an event `delay` seconds after the delivery, in time order with the
    /// other events and deliveries, if it falls within the same logical day. It sees the
    /// engine as it is at the delivery (which routines are still open).
    package var responder: Responder?
    /// Called with the engine after every app run the simulation makes — a scenario's event
    /// or a responder's answer — as it is then (a population's trial watches routines done).
    package var afterRun: ((OperatorEngine) -> Void)?
    /// The ruleset's prepared tables, when the caller has them (used only for this ruleset).
    package var prepared: PreparedRuleset?
    /// `.decisions` keeps only the records of decisions (see `RecordsKept`).
    package var recordsKept = RecordsKept.all
    /// A saved state to go on from (as the app saved it; its clock must be the scenario's)
    /// instead of a fresh one; the scenario's `routines:` and settings apply over the state's,
    /// and iOS holds what the state says is pending.
    package var start: EngineState?
    /// The engine's switch (`Verification`): `.recomputed` works out again everything an app
    /// run could keep from an earlier one; `.compared` does both at every step and records a
    /// difference as a problem. The records must not change.
    package var verification = Verification.memoised
    /// False keeps nothing to explain (`OperatorEngine.explains`; a population's users): the
    /// records are the same.
    package var explains = true

    package init(
        stop: (day: Int, seconds: Int)? = nil, restoreEachEvent: Bool = false,
        responder: Responder? = nil, prepared: PreparedRuleset? = nil,
        recordsKept: RecordsKept = .all, start: EngineState? = nil, verification: Verification = .memoised, explains: Bool = true
    ) {
        self.stop = stop
        self.restoreEachEvent = restoreEachEvent
        self.responder = responder
        self.prepared = prepared
        self.recordsKept = recordsKept
        self.start = start
        self.verification = verification
        self.explains = explains
    }
}

/// What a run's result keeps of its records and of the app's state after each event.
package enum RecordKeeping: Sendable {
    /// Every record and the app's state after every event (a trace, a report).
    case all
    /// What `ExpectationChecker` reads: records of deliveries, suppressions, problems, tool
    /// verdicts, day closes and zone changes, and the app's state only where an expectation
    /// looks (a long run holds a fraction of its records).
    case expectations
    /// Nothing: the records only pass through the sink (a population's users).
    case none
}

/// Where a simulation's records go as it runs: what its result keeps of them (`keeping`),
/// each step's records as they happen (`step`: streaming) and each day's part once the day
/// has closed (`dayClosed`: handover, after which the run forgets the day).
package protocol RecordSink {
    /// What the result keeps.
    var keeping: RecordKeeping { get }
    /// Whether each closed day is handed over (`dayClosed`); a run that hands none over
    /// never cuts its records into days.
    var handsOverDays: Bool { get }
    /// One step's records — an event's, a delivery pass's, a day close's — with the engine
    /// after the step.
    mutating func step(_ records: [EngineRecord], engine: OperatorEngine)
    /// A closed day's part of the run: its records, its states (after the last one of the
    /// day before) and its close. True when the sink took it over (the run then keeps
    /// nothing of the day, so expectations checked day by day hold one day at a time).
    mutating func dayClosed(_ part: SimulationResult) -> Bool
}

extension RecordSink {
    package var handsOverDays: Bool { false }
    package mutating func step(_ records: [EngineRecord], engine: OperatorEngine) {}
    package mutating func dayClosed(_ part: SimulationResult) -> Bool { false }
}

/// Keeps every record and state (a trace, a report), and shows each step to `observe`.
package struct KeepingAll: RecordSink {
    package var observe: ((OperatorEngine, [EngineRecord]) -> Void)?
    package var keeping: RecordKeeping { .all }

    package init(observe: ((OperatorEngine, [EngineRecord]) -> Void)? = nil) { self.observe = observe }

    package mutating func step(_ records: [EngineRecord], engine: OperatorEngine) { observe?(engine, records) }
}

/// Keeps what expectations read and hands each closed day over to `dayDone`, showing each
/// step to `observe` (coverage).
package struct KeepingForExpectations: RecordSink {
    package var observe: ((OperatorEngine, [EngineRecord]) -> Void)?
    package var dayDone: ((SimulationResult) -> Void)?
    package var keeping: RecordKeeping { .expectations }

    package init(observe: ((OperatorEngine, [EngineRecord]) -> Void)? = nil, dayDone: ((SimulationResult) -> Void)? = nil) {
        self.observe = observe
        self.dayDone = dayDone
    }

    package mutating func step(_ records: [EngineRecord], engine: OperatorEngine) { observe?(engine, records) }

    package var handsOverDays: Bool { dayDone != nil }

    package mutating func dayClosed(_ part: SimulationResult) -> Bool {
        guard let dayDone else { return false }
        dayDone(part)
        return true
    }
}

/// Keeps nothing: every step's records go to `observe` as they happen (a streamed timeline,
/// a population's tally, a diff's collector).
package struct Streaming: RecordSink {
    package var observe: (OperatorEngine, [EngineRecord]) -> Void
    package var keeping: RecordKeeping { .none }

    package init(_ observe: @escaping (OperatorEngine, [EngineRecord]) -> Void) { self.observe = observe }

    package mutating func step(_ records: [EngineRecord], engine: OperatorEngine) { observe(engine, records) }
}

/// How a simulated user answers a delivered notification: events at delays after it.
package typealias Responder = (ScheduledNotification, OperatorEngine) -> [Answer]

/// One thing a user does after a delivery, `delay` seconds after it.
package struct Answer: Sendable, Equatable {
    package enum Event: Sendable, Equatable {
        /// Opened, ignored, or a button of the notice.
        case response(NotificationResponse)
        /// A log of the routine (an app run).
        case log(routine: String, value: Double)
        /// A checklist item ticked (an app run).
        case check(routine: String, item: String)
        /// Settings changed in the app (an app run): a type switched off.
        case settings([String: Value])
    }

    package var delay: Int
    package var event: Event

    package init(delay: Int, _ event: Event) {
        self.delay = delay
        self.event = event
    }
}
