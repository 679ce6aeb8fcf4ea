import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// The simulation's records as JSON lines and as a readable timeline.
/// Kinds: `app.run`, `sync`, `log`, `log.changed`, `check`, `risk.changed`, `route.changed`,
/// `route.item_done`, `notification.scheduled`, `notification.cancelled`,
/// `notification.delivered`, `notification.suppressed`, `notification.response`,
/// `template.rendered`, `tool.verdict`, `snapshot`, `day.closed`, `settings.changed`, `route.request_refused`,
/// `route.item_left_out`, `state.reconciled`, `timezone.changed`, `problem`.
package enum Trace {
    package static func kind(_ record: EngineRecord) -> String { record.kind.name }

    /// One JSON object: `at`, `kind`, then the kind's fields in a fixed order (the kind's
    /// presentation, `EngineRecord.Kind.presentation`).
    package static func json(_ record: EngineRecord, clock: LocalClock, ruleset: Ruleset) -> JSONValue {
        .object([("at", .string(clock.iso8601(record.at))), ("kind", .string(kind(record)))] + record.kind.presentation(clock: clock).fields)
    }

    /// JSON lines for a whole simulation.
    package static func jsonLines(_ result: SimulationResult, ruleset: Ruleset) -> String {
        var writer = TraceWriter(format: .json, scenario: result.scenario, ruleset: ruleset, dayStart: result.dayStart)
        return writer.write(result.records)
    }

    /// The readable timeline: one line per record, grouped by day.
    package static func text(_ result: SimulationResult, ruleset: Ruleset) -> String {
        var writer = TraceWriter(format: .text, scenario: result.scenario, ruleset: ruleset, dayStart: result.dayStart)
        return writer.header + writer.write(result.records)
    }

    static func isDayClose(_ record: EngineRecord) -> Bool {
        if case .dayClosed = record.kind { return true }
        return false
    }

    /// The record's line in the readable timeline (the kind's presentation).
    static func line(_ record: EngineRecord, clock: LocalClock) -> String? { record.kind.presentation(clock: clock).line }
}

/// Writes a simulation's records as they come — JSON lines or the readable timeline —
/// holding only the clock in force and the day it showed last, so a command can stream a run
/// of any length (memory does not grow with it). A `timezone.changed` record switches the
/// clock for itself and what follows.
package struct TraceWriter: Sendable {
    package enum Format: Sendable { case json, text }

    let format: Format
    let ruleset: Ruleset
    let scenario: Scenario
    let dayStart: Int
    var clock: LocalClock
    var currentDay: Int?

    /// `dayStart`: the `day_starts_at` the timeline groups days by.
    package init(format: Format, scenario: Scenario, ruleset: Ruleset, dayStart: Int, clock: LocalClock? = nil) {
        self.format = format
        self.scenario = scenario
        self.ruleset = ruleset
        self.dayStart = dayStart
        self.clock = clock ?? scenario.clock
    }

    /// The timeline's first line (nothing for JSON lines). Names and texts from files never
    /// start a line of their own (TextRenderer.oneLine).
    package var header: String {
        guard format == .text else { return "" }
        return TextRenderer.oneLine("\(scenario.name) — \(scenario.file) (\(scenario.timeZoneName))") + "\n"
    }

    /// The text of `records`, in order.
    package mutating func write(_ records: [EngineRecord]) -> String {
        var out = ""
        for record in records {
            if case .timeZoneChanged(_, let to) = record.kind, let next = LocalClock(identifier: to) { clock = next }
            switch format {
            case .json: out += Trace.json(record, clock: clock, ruleset: ruleset).rendered() + "\n"
            case .text: out += line(record)
            }
        }
        return out
    }

    private mutating func line(_ record: EngineRecord) -> String {
        var out = ""
        let (calendarDay, seconds) = clock.local(record.at)
        // A day in progress keeps its date when the zone changes (never back a day).
        let logicalDay = Swift.max(seconds < dayStart ? calendarDay - 1 : calendarDay, currentDay ?? Int.min)
        if currentDay != logicalDay, !Trace.isDayClose(record) {
            currentDay = logicalDay
            out += "\n== \(DateFormat.string(logicalDay)) (\(DateFormat.weekday(logicalDay)))\n"
        }
        guard let text = Trace.line(record, clock: clock) else { return out }
        return out + "\(TimeFormat.clock(seconds))  \(TextRenderer.oneLine(text))\n"
    }
}
