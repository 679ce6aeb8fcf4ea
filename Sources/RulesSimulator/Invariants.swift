import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// What must hold in every trace of a sound ruleset, whatever the user does: no day over the
/// daily cap, nothing delivered inside quiet hours unless its type allows it, no delivery less
/// than the category cooldown after the last delivery of its category, no lock-screen
/// text made from a sensitive fact unless redacted, and no problem records (expressions that
/// failed to evaluate, events the engine could not apply). The population counts violations;
/// the engine fuzzer aborts on the first.
package struct Invariants {
    package enum Kind: String, CaseIterable, Sendable {
        case overDailyCap = "over_daily_cap"
        case inQuietHours = "in_quiet_hours"
        case withinCooldown = "within_category_cooldown"
        case sensitiveOnLockScreen = "sensitive_on_lock_screen"
        case problems
    }

    package struct Violation: Sendable, Hashable {
        package var kind: Kind
        /// The logical day it happened on.
        package var day: Int
        package var what: String
    }

    let ruleset: Ruleset
    /// The user's clock, following `timezone.changed` records (quiet hours are local).
    var clock: LocalClock
    /// Deliveries per logical day (only recent days are kept).
    private var perDay: [Int: Int] = [:]
    /// The last delivery of each category (the cooldown counts from it, whatever the day).
    private var lastByCategory: [String: Date] = [:]
    /// The day being lived, for problems (which carry no day).
    package var currentDay = 0
    /// Per notification type (ruleset order): what a delivery of it is checked against,
    /// worked out once (a delivery looked its rule, template and surface up by name).
    private let types: [TypeCheck]

    private struct TypeCheck {
        var type: String
        var template: String
        var quietAllowed: Bool
        /// The sensitive fact its template reads on a surface that forbids them, if any.
        var sensitiveFact: String?
    }

    package init(ruleset: Ruleset, clock: LocalClock) {
        self.ruleset = ruleset
        self.clock = clock
        types = ruleset.notifications.map { rule in
            TypeCheck(
                type: rule.id, template: rule.template, quietAllowed: rule.inQuietHours == .allow,
                sensitiveFact: Invariants.sensitiveFact(ofTemplate: rule.template, in: ruleset))
        }
    }

    /// The sensitive fact a template reads on a surface that forbids them.
    private static func sensitiveFact(ofTemplate id: String, in ruleset: Ruleset) -> String? {
        guard let template = ruleset.template(id), ruleset.surface(template.surface)?.sensitivity == .forbidden else { return nil }
        return template.factsRead.first(where: { ruleset.sensitivity(of: $0) != nil })
    }

    /// The violations `record` makes.
    package mutating func check(_ record: EngineRecord) -> [Violation] {
        switch record.kind {
        case .timeZoneChanged(_, let to):
            if let new = LocalClock(identifier: to) { clock = new }
            return []
        case .notificationDelivered(let request, _):
            var found: [Violation] = []
            let count = perDay[request.day, default: 0] + 1
            perDay[request.day] = count
            if count == ruleset.policy.maxPerDay + 1 {
                found.append(Violation(kind: .overDailyCap, day: request.day, what: "more than \(ruleset.policy.maxPerDay) deliveries"))
            }
            let type = request.type
            let known = types.first { $0.type == type }
            let local = clock.local(request.scheduledAt).seconds
            if QuietHoursOracle.holds(local, ruleset.policy), !(known?.quietAllowed ?? (ruleset.notification(type)?.inQuietHours == .allow)) {
                found.append(
                    Violation(kind: .inQuietHours, day: request.day, what: "'\(type)' delivered at \(TimeFormat.clock(local)) inside quiet hours"))
            }
            if let last = lastByCategory[request.category] {
                let gap = request.scheduledAt.timeIntervalSince(last)
                if gap < Double(ruleset.policy.categoryCooldown) {
                    found.append(
                        Violation(
                            kind: .withinCooldown, day: request.day,
                            what:
                                "'\(type)' delivered \(Int(gap / 60)) minutes after the last '\(request.category)' notice (cooldown \(ruleset.policy.categoryCooldown / 60)m)"
                        ))
                }
            }
            lastByCategory[request.category] = request.scheduledAt
            if !request.redacted {
                let templateID = request.templateID
                let fact =
                    known.flatMap { $0.template == templateID ? $0.sensitiveFact : nil }
                    ?? (known?.template == templateID ? nil : Invariants.sensitiveFact(ofTemplate: templateID, in: ruleset))
                if let fact {
                    found.append(
                        Violation(
                            kind: .sensitiveOnLockScreen, day: request.day,
                            what: "'\(type)' showed template '\(templateID)', which reads sensitive '\(fact)'"))
                }
            }
            return found
        case .problem(let code, let message):
            return [Violation(kind: .problems, day: currentDay, what: "\(code.rawValue): \(message)")]
        case .dayClosed(let close):
            perDay[close.day - 1] = nil
            return []
        default:
            return []
        }
    }
}
