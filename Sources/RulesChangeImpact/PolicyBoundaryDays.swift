import Foundation
import RulesExpression
import RulesSimulator
import Ruleset

/// Generated days that put a candidate where a changed policy value answers differently:
/// a reminder inside one quiet-hours window and not the other (22:15 for 22:30 → 22:00), days
/// of exactly the old and the new cap, two reminders of one category between the two
/// cooldowns, and a reminder ignored day after day until the ignore count lies between the
/// two `after_ignored` values. They are built from the ruleset's own per-routine reminder (a
/// per-routine notification at `routine.reminder`, the `reminders` setting) with every other
/// notification type the user can switch off switched off, so the day holds only the
/// candidates it is about. Nil when the ruleset has no such reminder.
struct PolicyBoundaryDays {
    /// A generated day: what it shows, what it probes and its scenario text.
    typealias Day = (label: String, probing: String, text: String)

    let rule: NotificationRule
    /// Routines a user logs by hand (the reminder's condition stays true all day).
    let routines: [Routine]
    /// `key: value` settings that turn the reminder on and the other types off.
    let settings: [String]

    init?(_ ruleset: Ruleset) {
        guard case .map? = ruleset.settings.declaration("reminders")?.type,
            let rule = ruleset.notifications.first(where: { $0.perRoutine && $0.at.factsRead == ["routine.reminder"] })
        else { return nil }
        self.rule = rule
        routines = ruleset.routines.filter { $0.source != .healthkit }
        var settings: [String] = []
        for other in ruleset.notifications where ruleset.settings.declaration(other.id)?.type == .bool {
            settings.append("\(other.id): \(other.id == rule.id)")
        }
        self.settings = settings
        guard !routines.isEmpty else { return nil }
    }

    /// The days for the changed policy value `name`.
    func days(for name: String, values: String, old: NotificationPolicy, new: NotificationPolicy) -> [Day] {
        let probing = "\(name) \(values)"
        switch name {
        case "quiet_hours":
            guard let time = Self.timeInOneWindowOnly(old, new) else { return [] }
            return [("a reminder at \(TimeFormat.clock(time))", probing, day(reminders: [time]))]
        case "max_per_day":
            let gap = Swift.max(old.categoryCooldown, new.categoryCooldown, 1800)
            var days: [Day] = []
            for (count, which) in [(old.maxPerDay, "old"), (new.maxPerDay, "new")] {
                let times = (0..<count).map { 9 * 3600 + $0 * gap }
                guard count <= routines.count, let last = times.last, last < 86_400,
                    !times.contains(where: { QuietHoursOracle.holds($0, old) || QuietHoursOracle.holds($0, new) })
                else { continue }
                days.append(("a day of exactly \(count) reminder\(count == 1 ? "" : "s") (the \(which) cap)", probing, day(reminders: times)))
            }
            return days
        case "category_cooldown":
            let (short, long) = (Swift.min(old.categoryCooldown, new.categoryCooldown), Swift.max(old.categoryCooldown, new.categoryCooldown))
            let gap = (short + (long - short) / 2) / 60 * 60
            let times = [9 * 3600, 9 * 3600 + gap]
            guard routines.count >= 2, gap >= short, gap < long,
                !times.contains(where: { QuietHoursOracle.holds($0, old) || QuietHoursOracle.holds($0, new) })
            else { return [] }
            return [("two reminders \(TimeFormat.duration(gap)) apart", probing, day(reminders: times))]
        case "weaken_after_ignored":
            let low = Swift.min(old.weakenAfterIgnored, new.weakenAfterIgnored)
            guard low >= 1, low < 30, !QuietHoursOracle.holds(12 * 3600, old), !QuietHoursOracle.holds(12 * 3600, new) else { return [] }
            return [("a reminder ignored \(low) days in a row, then due again", probing, ignoredDays(low))]
        default:
            return []
        }
    }

    /// The middle minute of the first run of minutes that one window holds and the other not.
    static func timeInOneWindowOnly(_ old: NotificationPolicy, _ new: NotificationPolicy) -> Int? {
        let minutes = (0..<1440).map { $0 * 60 }
        guard let start = minutes.first(where: { QuietHoursOracle.holds($0, old) != QuietHoursOracle.holds($0, new) }) else { return nil }
        var end = start
        while end + 60 < 86_400, QuietHoursOracle.holds(end + 60, old) != QuietHoursOracle.holds(end + 60, new) { end += 60 }
        return start + (end + 60 - start) / 120 * 60
    }

    private var header: String {
        "timezone: Asia/Seoul\n"
    }

    private func settingsLine(_ reminders: [Int]) -> String {
        let map = zip(routines, reminders).map { "\($0.id): \"\(TimeFormat.clock($1))\"" }.joined(separator: ", ")
        return "settings: { \((settings + ["reminders: { \(map) }"]).joined(separator: ", ")) }\n"
    }

    /// One day with the reminders at `times`, one routine each, the app opened at 08:00.
    func day(reminders times: [Int]) -> String {
        header + "date: 2026-07-01\n" + "routines: [\(routines.prefix(times.count).map(\.id).joined(separator: ", "))]\n" + settingsLine(times)
            + "events: [{ at: \"08:00\", app: open }]\n"
    }

    /// `ignored` days whose 12:00 reminder is ignored, then one more day it is due.
    func ignoredDays(_ ignored: Int) -> String {
        var out = header + "routines: [\(routines[0].id)]\n" + settingsLine([12 * 3600]) + "days:\n"
        for index in 0...ignored {
            out += "  - date: 2026-07-\(String(format: "%02d", index + 1))\n    events:\n      - { at: \"08:00\", app: open }\n"
            if index < ignored { out += "      - { at: \"12:05\", notification: \(rule.id), response: ignored }\n" }
        }
        return out
    }
}
