import Foundation
import RulesExpression
import Ruleset

/// The request iOS holds for a candidate that passed the gates, and its text.
extension NotificationPlanner {
    /// The request iOS will hold for a candidate that passed every gate.
    func request(for gated: GatedCandidate, recovery: TodaysRecovery?, problems: inout [String]) -> ScheduledNotification {
        // Fields read through the box: copies retain every field.
        let box = gated.candidate.box
        let body = notificationText(box.body, facts: gated.facts, problems: &problems)
        let title = box.value.title == nil ? nil : notificationText(box.title, facts: gated.facts, problems: &problems)
        let reason: String
        if let recovery, gated.candidate.day == recovery.day {
            reason = recovery.reason
        } else {
            reason =
                FirstMatch.index(ruleset.route, \.when, \.origin, facts: gated.facts, dayStart: dayStart, problems: &problems).map {
                    ruleset.route[$0].reason
                } ?? "default"
        }
        let redacted = body.redacted || (title?.redacted ?? false)
        return ScheduledNotification(
            id: gated.candidate.id, type: box.value.id, routine: gated.candidate.routine, scheduledAt: gated.fireAt, day: gated.fireDay,
            status: "scheduled", deepLink: box.value.deepLink, templateID: box.value.template, sensitive: redacted, createdReason: reason,
            interruptionLevel: gated.level, relevance: gated.relevance, threadID: box.threadID, category: box.value.category,
            actions: box.value.actions, title: title?.text, text: body.text, redacted: redacted)
    }

    /// A notification's text on its template's surface (the fallback when refused or unknown;
    /// no template: nothing, redacted).
    func notificationText(_ resolved: ResolvedTemplate?, facts: FactValues, problems: inout [String]) -> (text: String, redacted: Bool) {
        guard let resolved else { return ("", true) }
        if let text = resolved.constantText { return (text, false) }
        let fallback = resolved.fallback
        switch renderer.render(resolved.template, refusedAt: resolved.refusedAt, facts: facts) {
        case .rendered(let text): return (text, false)
        case .refused: return (fallback, true)
        case .unknown: return (fallback, false)
        case .failed(let message):
            problems.append(message)
            return (fallback, false)
        }
    }

}
