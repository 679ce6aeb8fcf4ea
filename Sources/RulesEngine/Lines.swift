import Foundation
import RulesExpression
import Ruleset

/// A line of an earlier run (`Memo` of the line's reader, `.line(index)`): kept while the
/// tone, the day, the day start and every fact its templates read are the same.
typealias KeptLine = Memo<LineInputs, MadeLine>

/// What a line is made from besides facts. Times compare within the logical day: another day
/// start can choose another line.
struct LineInputs: Equatable, Sendable {
    var tone: String?
    var day: Int
    var dayStart: Int
}

/// A line as made: nil when no template answered; with, when the engine explained, how its
/// templates' conditions evaluated (the same reads evaluate the same).
struct MadeLine: Sendable {
    var line: RenderedText?
    var tried: [Explanation.Result]?
}

/// The lines of the last app run, each with what it was chosen with, to explain them on
/// demand. A reference: an outcome that carries it (or its absence) stays small, and is
/// copied on its way to its apply at every run.
final class LastLines: Sendable {
    /// Home, then widget.
    let decisions: [LineDecision]

    init(_ decisions: [LineDecision]) { self.decisions = decisions }
}

/// How one line was chosen: its surface's templates for `event`, what each one's condition
/// evaluated to with `facts` (`tried`, the engine's trace), the user's tone and the day.
struct LineDecision: Sendable {
    /// The line's templates (`RulesetDerived.lines[spec]`), the ones `tried` traces.
    var spec: Int
    var text: RenderedText
    var event: String
    var at: Date
    var facts: FactValues
    var day: Int
    var tone: String?
    var tried: [Explanation.Result]
}

/// What an app run's lines decided (`LineChooser.choose`): the records (a problem, each line,
/// the snapshot), the lines kept for the next runs, the lines to explain, and the snapshot.
struct LinesOutcome {
    /// What becomes of the day's snapshot.
    enum Snapshot {
        /// Left as it is (no day open).
        case unchanged
        /// None kept (an engine that keeps only decisions).
        case dropped
        /// Boxed (indirect): most runs keep no snapshot (a population's), and the outcome
        /// stays small on its way to its apply.
        indirect case saved(DailySnapshot)
    }

    var log: RecordLog
    /// The lines kept for later runs (`KeptLine`), in place of the ones the chooser was given.
    var kept: [KeptLine]
    /// The lines with what they were chosen from; nil when not explained.
    var lines: LastLines?
    var snapshot = Snapshot.unchanged
}

/// The home and widget lines of an app run and the snapshot the widget shows until the next
/// run (SPEC §7): its inputs are the ruleset's lines, the user's tone, renderer and day start,
/// the run's reading and event, what the snapshot reads of the day, and the lines earlier
/// runs kept; its output a `LinesOutcome`. An engine that keeps only decisions saves no
/// snapshot, and chooses the lines only when that can report a problem.
struct LineChooser {
    /// The ruleset, prepared (its lines and layout read through it: a copy of the layout
    /// in the chooser was copied at every run).
    let prepared: PreparedRuleset
    let renderer: TemplateRenderer
    let tone: String?
    let dayStart: Int
    /// The steps permission as last known, for a day that has not synced.
    let stepsPermission: HealthReading.Permission
    let memoises: Bool
    let explains: Bool
    let recordsKept: RecordsKept

    var derived: RulesetDerived { prepared.derived }
    var layout: FactLayout { prepared.layout }

    func choose(_ reading: DayReading, event: String, at time: Date, day current: SnapshotDay?, kept: consuming [KeptLine]) -> LinesOutcome {
        var outcome = LinesOutcome(log: RecordLog(recordsKept), kept: kept)
        // The run's events are known: their lines are found without hashing a key.
        let eventIndex = EnumCells.eventIndex(event)
        let homeSpec = eventIndex.map { derived.homeLines[$0] } ?? derived.lineIndex[LineKey(surface: "home", event: event)]
        // An engine that keeps only decisions (a population's) returns no line and keeps no
        // snapshot: it chooses the lines only for the problems a choice can report, so not
        // at all when none of the lines it could choose can report one.
        if recordsKept != .all {
            let lines = derived.lines
            func canReport(_ spec: Int?) -> Bool { spec.map { $0 < lines.count && lines[$0].canReportProblem } ?? false }
            guard canReport(homeSpec) || (event != "home" && canReport(derived.homeLines.first ?? nil)) || canReport(derived.widgetLine)
            else {
                if current != nil { outcome.snapshot = .dropped }
                return outcome
            }
        }
        guard let current else { return outcome }
        let today = current.day
        var problems: [String] = []
        // Each line as it was chosen (explained when asked): the event and facts its
        // templates were tried with, and the trace of their conditions.
        var decisions: [LineDecision] = []
        func line(_ spec: Int?, event: String, facts: FactValues) -> RenderedText? {
            let (line, tried) = keptLine(spec, day: today, facts: facts, kept: &outcome.kept, problems: &problems)
            if let spec, let line, let tried {
                decisions.append(LineDecision(spec: spec, text: line, event: event, at: time, facts: facts, day: today, tone: tone, tried: tried))
            }
            return line
        }
        var homeFacts = reading.facts
        homeFacts.patch(layout.event, cell: EnumCells.home)
        var homeLine = line(homeSpec, event: event, facts: reading.facts)
        if homeLine == nil, event != "home" { homeLine = line(derived.homeLines.first ?? nil, event: "home", facts: homeFacts) }
        let widgetLine = line(derived.widgetLine, event: "home", facts: homeFacts)
        for message in problems { outcome.log.problem(at: time, .evaluation, message) }
        if let homeLine { outcome.log.note(at: time, .templateRendered(homeLine)) }
        if let widgetLine { outcome.log.note(at: time, .templateRendered(widgetLine)) }
        if explains { outcome.lines = LastLines(decisions) }
        // An engine that keeps only decisions (a population's) keeps no snapshot: nothing it
        // returns reads one. The lines above were chosen for the problems they can report.
        guard recordsKept == .all else {
            outcome.snapshot = .dropped
            return outcome
        }
        let snapshot = self.snapshot(reading, day: current, home: homeLine, widget: widgetLine, at: time)
        outcome.snapshot = .saved(snapshot)
        outcome.log.note(at: time, .snapshot(snapshot))
        return outcome
    }

    /// What the widget shows until the next run.
    private func snapshot(
        _ reading: DayReading, day current: SnapshotDay, home: RenderedText?, widget: RenderedText?, at time: Date
    )
        -> DailySnapshot
    {
        let (steps, water) = (reading.routines[safe: derived.stepsRoutine], reading.routines[safe: derived.waterRoutine])
        let sleepSlot = layout.sleepMinutes.map { reading.facts[$0] }
        var sleepMinutes: Int?
        if case .int(let minutes)? = sleepSlot { sleepMinutes = minutes }
        let stepsToday: Int
        if case .int(let value)? = layout.stepsToday.map({ reading.facts[$0] }) { stepsToday = value } else { stepsToday = 0 }
        return DailySnapshot(
            date: current.day, stepsToday: stepsToday, stepsGoal: Int(saturating: steps?.goal ?? 0), sleepMinutes: sleepMinutes,
            waterML: Int(saturating: water?.value ?? 0), waterGoalML: Int(saturating: water?.goal ?? 0), completedRoutines: reading.completed,
            totalRoutines: reading.total, completionRate: reading.rate, route: current.route, risk: current.risk ?? .low,
            characterLine: home?.text ?? "", lastUpdatedAt: time, quest: current.quest, widgetLine: widget,
            stepsPermission: current.stepsPermission ?? stepsPermission
        ).withinStateBounds
    }

    /// The line for a surface and event, kept from an earlier run while the tone, the day, the
    /// day start and every fact its templates read are the same (then the choice and the text
    /// are too); a line whose rendering reported a problem is made again (and reports it again).
    /// With it, when the engine explains, the trace of its templates' conditions.
    private func keptLine(
        _ spec: Int?, day: Int, facts: FactValues, kept: inout [KeptLine], problems: inout [String]
    ) -> (RenderedText?, tried: [Explanation.Result]?) {
        // No template answers this surface and event: no line.
        guard let spec, spec < derived.lines.count else { return (nil, nil) }
        let reader = FactReaders.Reader.line(spec)
        let reads = prepared.reads(of: reader)
        let inputs = LineInputs(tone: tone, day: day, dayStart: dayStart)
        let index = kept.firstIndex { $0.reader == reader }
        // A line kept without its trace is made again when the engine explains.
        if memoises, let index, let made = kept[index].value(for: inputs, facts: facts, reads: reads, dayStart: dayStart),
            !explains || made.tried != nil
        {
            return (made.line, made.tried)
        }
        var found: [String] = []
        var tried: [Explanation.Result]? = explains ? [] : nil
        let line = renderer.line(derived.lines[spec], tone: tone, day: day, facts: facts, problems: &found, tried: &tried)
        if let index { kept.remove(at: index) }
        if found.isEmpty {
            kept.append(KeptLine(reader, inputs: inputs, facts: facts, reads: reads, dayStart: dayStart, value: MadeLine(line: line, tried: tried)))
        }
        problems += found
        return (line, tried)
    }
}
