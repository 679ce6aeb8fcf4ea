import Foundation
import RulesExpression
import Ruleset

/// Every template rendered with sample facts, as `rules preview` shows them: what a surface
/// would display, the fallback where a sensitive value is refused, and nothing where a value
/// is unknown at that moment.
package enum TemplatePreview {
    /// What a template shows with one sample.
    package enum Rendering: Equatable {
        case text(String)
        /// A sensitive value was refused: the surface's fallback stands.
        case redacted(fallback: String)
        /// A placeholder's value is unknown with this sample: the template is not shown.
        case unknown
        case failed(String)
    }

    /// One sample of facts: a day lived to an evening, named for the gallery.
    package struct Sample {
        package var name: String
        package var facts: FactValues
    }

    /// `template` rendered with `facts` on its surface.
    package static func render(_ template: Template, prepared: PreparedRuleset, facts: FactValues) -> Rendering {
        let ruleset = prepared.ruleset
        let renderer = TemplateRenderer(ruleset: ruleset, dayStart: ruleset.dayStartsAt, derived: prepared.derived)
        let fallback = ruleset.surface(template.surface)?.fallback ?? ""
        switch renderer.render(template, refusedAt: TemplateRenderer.refusedSegment(template, in: ruleset), facts: facts) {
        case .rendered(let text): return .text(text)
        case .refused: return .redacted(fallback: fallback)
        case .unknown: return .unknown
        case .failed(let message): return .failed(message)
        }
    }

    /// Samples at their extremes: an ordinary collapsed evening (little sleep, few steps, the
    /// recovery route), and one with the largest numbers a day plausibly holds (every routine
    /// done, 99,999 steps, a 999-day streak). Each is a day lived by the engine to 21:10, so
    /// every fact is the engine's own.
    /// The day the gallery's samples are lived on (a Monday: the shipped collapsed day's).
    package static let galleryDay = DateFormat.days("2026-06-29") ?? 20_633

    package static func samples(_ prepared: PreparedRuleset, clock: LocalClock, day: Int = galleryDay) -> [Sample] {
        let ruleset = prepared.ruleset
        func lived(
            _ name: String, steps: Int, sleep: Int, water: Double, streak: Int, doneAll: Bool
        ) -> Sample? {
            var profile = OperatorProfile(ruleset: ruleset)
            profile.enabledRoutines = Set(ruleset.routines.map(\.id))
            profile.streakDays = streak
            var engine = OperatorEngine(prepared: prepared, clock: clock, profile: profile)
            let health = HealthReading(
                stepsPermission: .granted, sleepPermission: .granted, stepsToday: steps, stepsYesterday: steps, stepsAverage7: steps,
                sleepMinutes: sleep, sleepStart: 3 * 3600, sleepEnd: 3 * 3600 + sleep * 60)
            var events: [EngineEvent] = [.appOpened(health: health)]
            if let routine = ruleset.routines.first(where: { $0.category == .water }) {
                events.append(.log(routine: routine.id, value: water, unit: nil, source: .manual))
            }
            if doneAll {
                for routine in ruleset.routines where routine.source != .healthkit {
                    if routine.items.isEmpty {
                        events.append(.log(routine: routine.id, value: Swift.min(routine.goal, 1_000_000), unit: nil, source: .manual))
                    } else {
                        for item in routine.items { events.append(.check(routine: routine.id, item: item)) }
                    }
                }
            }
            _ = engine.run(events, now: clock.instant(day: day, seconds: 21 * 3600 + 600))
            return engine.currentFacts().map { Sample(name: name, facts: $0) }
        }
        return [
            lived("a collapsed evening: 5h30m of sleep, 3,240 steps, 500 ml", steps: 3_240, sleep: 330, water: 500, streak: 2, doneAll: false),
            lived(
                "the largest day: 99,999 steps, every routine done, a 999-day streak", steps: 99_999, sleep: 719, water: 9_999, streak: 999,
                doneAll: true),
        ].compactMap { $0 }
    }
}
