import Foundation
import RulesEngine
import RulesSimulator
import Ruleset

/// What one run showed of the notification policy, for telling whether a changed policy value
/// could have answered differently on something seen — not whether something happened near it:
/// - quiet hours: a candidate that reached their gate at a time inside one window and not
///   the other (a type that is delivered in quiet hours anyway never counts);
/// - the daily cap: a day whose deliveries and capped candidates exceed the smaller cap;
/// - the category cooldown: a candidate that reached its gate at a gap from a delivery of
///   its category at least the shorter and less than the longer cooldown;
/// - `weaken.after_ignored`: a candidate that reached the weakening gate while its type had
///   been ignored at least the smaller and fewer than the larger count in a row.
/// A candidate "reached" a gate when it was delivered or refused by that gate or a later one
/// (the gates run in a fixed order: condition, completed, quiet hours, cap, cooldown,
/// weakening, stale, pending).
struct PolicyReach {
    /// A candidate as the run last decided it.
    struct Candidate {
        var type: String
        var category: String
        var day: Int
        /// Seconds since local midnight of its fire time.
        var seconds: Int
        var at: Date
        /// The gate that refused it; nil: delivered.
        var refusedBy: GateReason?
        /// Its type's ignores in a row when it was decided.
        var ignoredStreak: Int
        /// Whether its type is delivered inside quiet hours anyway.
        var allowedInQuietHours: Bool
    }

    /// The run's candidates by request id (a later decision replaces an earlier one).
    var candidates: [String: Candidate] = [:]

    /// Gates in the order they run.
    static let order: [GateReason] = [
        .disabled, .skipped, .conditionFalse, .completed, .quietHours, .dailyCap, .categoryCooldown, .weakened, .stale, .maxPending,
    ]

    /// Whether `candidate` was delivered or refused by `gate` or a gate after it.
    static func reached(_ candidate: Candidate, _ gate: GateReason) -> Bool {
        guard let refused = candidate.refusedBy else { return true }
        guard let at = order.firstIndex(of: refused), let wanted = order.firstIndex(of: gate) else { return false }
        return at >= wanted
    }

    /// Records the candidates `records` decided.
    mutating func observe(_ records: [EngineRecord], engine: OperatorEngine, clock: LocalClock?) {
        guard let clock else { return }
        let ruleset = engine.ruleset
        func streak(_ type: String) -> Int { engine.profile.ignoredStreaks[type] ?? 0 }
        func allowed(_ type: String) -> Bool { ruleset.notification(type)?.inQuietHours == .allow }
        for record in records {
            switch record.kind {
            case .notificationDelivered(let n, _):
                candidates[n.id] = Candidate(
                    type: n.type, category: n.category, day: n.day, seconds: clock.local(n.scheduledAt).seconds, at: n.scheduledAt, refusedBy: nil,
                    ignoredStreak: streak(n.type), allowedInQuietHours: allowed(n.type))
            case .notificationSuppressed(let s):
                // A delivery stands: a later refusal of the same id is a replan's echo.
                if candidates[s.id]?.refusedBy == nil, candidates[s.id] != nil { continue }
                candidates[s.id] = Candidate(
                    type: s.type, category: ruleset.notification(s.type)?.category ?? "", day: s.day, seconds: clock.local(s.fireAt).seconds,
                    at: s.fireAt, refusedBy: s.reason, ignoredStreak: streak(s.type), allowedInQuietHours: allowed(s.type))
            default: break
            }
        }
    }

    /// Whether the run saw something the two policies answer differently for the policy value
    /// `name`; nil: not a value judged here.
    func disagrees(on name: String, old: NotificationPolicy, new: NotificationPolicy) -> Bool? {
        let seen = candidates.keys.sorted().compactMap { candidates[$0] }
        switch name {
        case "quiet_hours":
            return seen.contains { candidate in
                Self.reached(candidate, .quietHours) && !candidate.allowedInQuietHours
                    && QuietHoursOracle.holds(candidate.seconds, old) != QuietHoursOracle.holds(candidate.seconds, new)
            }
        case "max_per_day":
            let smaller = Swift.min(old.maxPerDay, new.maxPerDay)
            var perDay: [Int: Int] = [:]
            for candidate in seen where candidate.refusedBy == nil || candidate.refusedBy == .dailyCap { perDay[candidate.day, default: 0] += 1 }
            return perDay.values.contains { $0 > smaller }
        case "category_cooldown":
            let (short, long) = (Swift.min(old.categoryCooldown, new.categoryCooldown), Swift.max(old.categoryCooldown, new.categoryCooldown))
            let delivered = seen.filter { $0.refusedBy == nil }
            return seen.contains { candidate in
                guard Self.reached(candidate, .categoryCooldown) else { return false }
                return delivered.contains { other in
                    guard other.category == candidate.category else { return false }
                    let gap = Int(abs(other.at.timeIntervalSince(candidate.at)))
                    return gap > 0 && gap >= short && gap < long
                }
            }
        case "weaken_after_ignored":
            let (low, high) = (Swift.min(old.weakenAfterIgnored, new.weakenAfterIgnored), Swift.max(old.weakenAfterIgnored, new.weakenAfterIgnored))
            return seen.contains { Self.reached($0, .weakened) && $0.ignoredStreak >= low && $0.ignoredStreak < high }
        default:
            return nil
        }
    }
}
