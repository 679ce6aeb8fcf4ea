import Foundation
import RulesExpression
import Ruleset

/// A line of an earlier run and what it was made from (see `keptLine`).
struct KeptLine: Sendable {
    /// Its surface and event (`RulesetDerived.lines`).
    var spec: Int
    var tone: String?
    var day: Int
    /// Times compare within the logical day: another day start can choose another line.
    var dayStart: Int
    var reads: FactSample
    var line: RenderedText?
}

/// The lines of the last app run and what they were chosen with, to explain them on demand.
struct LastLines: Sendable {
    var home: RenderedText?
    var homeEvent: String
    var widget: RenderedText?
    var at: Date
    var facts: FactValues
    var day: Int
    /// The user's tone and day start when they were chosen.
    var tone: String?
    var dayStart: Int

    /// Each line as a decision (home, then widget).
    var decisions: [LineDecision] {
        var all: [LineDecision] = []
        if let home { all.append(LineDecision(text: home, event: homeEvent, at: at, facts: facts, day: day, tone: tone, dayStart: dayStart)) }
        if let widget { all.append(LineDecision(text: widget, event: "home", at: at, facts: facts, day: day, tone: tone, dayStart: dayStart)) }
        return all
    }
}

/// A line rendered at an app run, kept to explain its choice on demand.
struct LineDecision: Sendable {
    var text: RenderedText
    var event: String
    var at: Date
    var facts: FactValues
    var day: Int
    var tone: String?
    var dayStart: Int
}

extension OperatorEngine {
    var renderer: TemplateRenderer { fromProfile.renderer }

    /// Renders the home line (for the run's event, else `home`) and the widget line, and
    /// saves the snapshot the widget shows until the next run. An engine that keeps only
    /// decisions saves none, and chooses the lines only when that can report a problem.
    mutating func saveSnapshot(_ reading: DayReading, event: String, at time: Date) {
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
                day?.dropSnapshot()
                return
            }
        }
        // Read in place: a copy of the day would retain every array it holds.
        guard let current = snapshotDay else { return }
        let today = current.day
        let tone = fromProfile.tone
        var problems: [String] = []
        var homeLine = keptLine(homeSpec, tone: tone, day: today, facts: reading.facts, problems: &problems)
        if homeLine == nil, event != "home" {
            var facts = reading.facts
            facts.patch(layout.event, cell: EnumCells.home)
            homeLine = keptLine(derived.homeLines.first ?? nil, tone: tone, day: today, facts: facts, problems: &problems)
        }
        var widgetFacts = reading.facts
        widgetFacts.patch(layout.event, cell: EnumCells.home)
        let widgetLine = keptLine(derived.widgetLine, tone: tone, day: today, facts: widgetFacts, problems: &problems)
        for message in problems { problem(at: time, .evaluation, message) }
        if let homeLine { note(at: time, .templateRendered(homeLine)) }
        if let widgetLine { note(at: time, .templateRendered(widgetLine)) }
        // Both lines with the run's facts once (explained when asked).
        if explains {
            decisions.lines = LastLines(
                home: homeLine, homeEvent: event, widget: widgetLine, at: time, facts: reading.facts, day: today, tone: tone, dayStart: dayStart)
        }
        // An engine that keeps only decisions (a population's) keeps no snapshot: nothing it
        // returns reads one. The lines above were chosen for the problems they can report.
        guard recordsKept == .all else {
            day?.dropSnapshot()
            return
        }
        let (steps, water) = (reading.routines[safe: derived.stepsRoutine], reading.routines[safe: derived.waterRoutine])
        let sleepSlot = layout.sleepMinutes.map { reading.facts[$0] }
        var sleepMinutes: Int?
        if case .int(let minutes)? = sleepSlot { sleepMinutes = minutes }
        let stepsToday: Int
        if case .int(let value)? = layout.stepsToday.map({ reading.facts[$0] }) { stepsToday = value } else { stepsToday = 0 }
        let snapshot = DailySnapshot(
            date: today, stepsToday: stepsToday, stepsGoal: Int(saturating: steps?.goal ?? 0), sleepMinutes: sleepMinutes,
            waterML: Int(saturating: water?.value ?? 0), waterGoalML: Int(saturating: water?.goal ?? 0), completedRoutines: reading.completed,
            totalRoutines: reading.total, completionRate: reading.rate, route: current.route, risk: current.risk ?? .low,
            characterLine: homeLine?.text ?? "", lastUpdatedAt: time, quest: current.quest, widgetLine: widgetLine,
            stepsPermission: current.stepsPermission ?? lastPermissions.steps
        ).withinStateBounds
        day?.lastSnapshot = snapshot
        note(at: time, .snapshot(snapshot))
    }

    /// The line for a surface and event, kept from an earlier run while the tone, the day, the
    /// day start and every fact its templates read are the same (then the choice and the text
    /// are too); a
    /// line whose rendering reported a problem is made again (and reports it again).
    mutating func keptLine(_ spec: Int?, tone: String?, day: Int, facts: FactValues, problems: inout [String]) -> RenderedText? {
        // No template answers this surface and event: no line.
        guard let spec, spec < derived.lines.count else { return nil }
        let slots = derived.lines[spec].reads
        let index = memos.lines.firstIndex { $0.spec == spec }
        if memoises, let index, memos.lines[index].tone == tone, memos.lines[index].day == day, memos.lines[index].dayStart == dayStart,
            memos.lines[index].reads.matches(facts, slots: slots)
        {
            return memos.lines[index].line
        }
        let reads = FactSample(facts, slots: slots)
        var found: [String] = []
        let line = renderer.line(derived.lines[spec], tone: tone, day: day, facts: facts, problems: &found)
        if let index { memos.lines.remove(at: index) }
        if found.isEmpty { memos.lines.append(KeptLine(spec: spec, tone: tone, day: day, dayStart: dayStart, reads: reads, line: line)) }
        problems += found
        return line
    }

    /// A line written by a chat model, checked by the guards (length, sentences, forbidden
    /// phrases); a line that fails is replaced by the template line for `home`.
    public func chatLine(_ modelText: String, surface: String = "chat") -> RenderedText {
        if TextGuard(ruleset: ruleset).violation(modelText, surface: surface) == nil {
            return RenderedText(templateID: nil, surface: surface, text: modelText, redacted: false)
        }
        guard let current = day else { return RenderedText(templateID: nil, surface: surface, text: "", redacted: true) }
        let now = current.lastRun.map { clock.timeOfDay($0, inLogicalDay: current.day, dayStart: dayStart) } ?? 0
        let reading = reader.read(current, route: current.route.route, risk: current.risk ?? .low, now: now)
        // A read-out, not an app run: failures here were reported by the run that rendered.
        var ignored: [String] = []
        let line =
            renderer.line(surface: surface, event: "home", tone: fromProfile.tone, day: current.day, facts: reading.facts, problems: &ignored)
            ?? renderer.line(surface: "home", event: "home", tone: fromProfile.tone, day: current.day, facts: reading.facts, problems: &ignored)
        return line.map { RenderedText(templateID: $0.templateID, surface: surface, text: $0.text, redacted: true) }
            ?? RenderedText(templateID: nil, surface: surface, text: "", redacted: true)
    }
}
