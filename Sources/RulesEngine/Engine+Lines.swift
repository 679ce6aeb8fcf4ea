import Foundation
import RulesExpression
import Ruleset

extension OperatorEngine {
    var renderer: TemplateRenderer { fromProfile.renderer }

    /// The home and widget lines and the snapshot of this run (`LineChooser`), applied.
    mutating func saveSnapshot(_ reading: DayReading, event: String, at time: Date) {
        let chooser = LineChooser(
            prepared: prepared, renderer: renderer, tone: fromProfile.tone, dayStart: dayStart, stepsPermission: lastPermissions.steps,
            memoises: memoises, explains: explains, recordsKept: recordsKept)
        // The kept lines are lent to the chooser and come back with its outcome: a copy would
        // be copied at its first change.
        let day = snapshotDay
        var outcome = chooser.choose(reading, event: event, at: time, day: day, kept: lendKeptLines())
        apply(&outcome)
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
