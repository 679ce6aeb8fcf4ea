import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// What one simulated day did, reduced to behaviour a designer cares about.
struct DayBehaviour {
    var deliveries: [String: [Int]] = [:]  // type → fire times (seconds after the day's start)
    var passive: [String: [Int]] = [:]  // type → fire times of deliveries made passive (weakened)
    var suppressions: [String: [String]] = [:]  // type → reasons
    var routeStarts: [RouteKind: Int] = [:]  // first time each route was entered
    var riskStarts: [RiskLevel: Int] = [:]
    var result: DayResult?
    var streak: Int?
    var texts: [String: Set<String>] = [:]  // surface → texts shown
}

/// The behavioural difference between two rulesets on the same scenarios (`rules diff`).
package struct BehaviourDiff: Sendable {
    package struct Change: Sendable, Hashable {
        package var scenario: String
        package var day: Int
        /// `notification`, `route`, `risk`, `day`, `streak`, `text`.
        package var kind: String
        package var message: String
        /// Minutes a route or risk moved (negative: earlier), for the summary.
        package var minutes: Int?
        /// Notifications gained (+) or lost (−).
        package var delta: Int
        package var subject: String
        /// Deliveries at new times, deliveries gone, deliveries moved (for the summary).
        package var gained = 0
        package var lost = 0
        package var moved = 0
        /// The gate that now refuses a lost delivery, when one does.
        package var cause: String?
        /// The changed rule entries that can explain it, most direct first.
        package var because: [RuleChanges.Entry] = []
        /// What the old and the new ruleset did, side by side (`—`: nothing).
        package var before = "—"
        package var after = "—"
    }

    package var changes: [Change]
    package var days: Int
    /// Every element that differs between the rulesets, with whether the runs reached it.
    package var elements: [ChangeReach.Element] = []

    /// No scenario behaves differently (reached or not).
    package var isEmpty: Bool { changes.isEmpty }
    /// The changed elements no scenario evaluated where the change matters.
    package var unreached: [ChangeReach.Element] { elements.filter { !$0.reached } }

    /// Simulates every scenario against both rulesets and compares what happened.
    package static func compare(_ scenarios: [(old: Scenario, new: Scenario)], old: Ruleset, new: Ruleset) -> BehaviourDiff {
        var changes: [Change] = []
        var days = 0
        let rules = RuleChanges(old: old, new: new)
        let reach = ChangeReach(rules, old: old, new: new)
        for (oldScenario, newScenario) in scenarios {
            let a = behaviour(oldScenario, ruleset: old, reach: reach)
            let b = behaviour(newScenario, ruleset: new, reach: reach)
            days += newScenario.days.count
            for day in newScenario.days.map(\.date) {
                for var change in compare(a[day] ?? DayBehaviour(), b[day] ?? DayBehaviour(), scenario: newScenario.file, day: day) {
                    change.because = rules.causes(
                        kind: change.kind, subject: change.subject, ruleset: new, routinesOn: newScenario.routines.map { Set($0) })
                    changes.append(change)
                }
            }
        }
        return BehaviourDiff(changes: changes, days: days, elements: reach.elements)
    }

    /// Each day's behaviour under `ruleset`, taken from the records as the run makes them
    /// (the run keeps none: a long scenario is diffed in the memory of one day).
    static func behaviour(_ scenario: Scenario, ruleset: Ruleset, reach: ChangeReach? = nil) -> [Int: DayBehaviour] {
        var collector = BehaviourCollector(clock: scenario.clock)
        for template in ruleset.templates { collector.surfaces[template.id] = template.surface }
        reach?.begin(scenario)
        _ = Simulation.run(
            scenario, ruleset: ruleset,
            sink: Streaming { engine, records in
                collector.add(records, dayStart: engine.profile.dayStart(ruleset))
                reach?.observe(engine, records)
            })
        reach?.end()
        return collector.days
    }

    /// Days' behaviour from records in the order a run makes them; the clock follows
    /// `timezone.changed` records.
    struct BehaviourCollector {
        var clock: LocalClock
        var days: [Int: DayBehaviour] = [:]
        /// The surface of each template: a delivered notice's text is shown on it.
        var surfaces: [String: String] = [:]

        mutating func add(_ records: [EngineRecord], dayStart: Int) {
            for record in records {
                if case .timeZoneChanged(_, let to) = record.kind, let next = LocalClock(identifier: to) { clock = next }
                let local = clock
                func position(_ date: Date) -> (Int, Int) {
                    let (day, seconds) = local.logical(date, dayStart: dayStart)
                    return (day, logical(of: seconds, dayStart: dayStart))
                }
                let (day, at) = position(record.at)
                switch record.kind {
                case .notificationDelivered(let n, _):
                    days[n.day, default: DayBehaviour()].deliveries[n.type, default: []].append(position(n.scheduledAt).1)
                    days[n.day, default: DayBehaviour()].texts[surfaces[n.templateID] ?? "notification", default: []].insert(n.text)
                    if n.interruptionLevel == .passive {
                        days[n.day, default: DayBehaviour()].passive[n.type, default: []].append(position(n.scheduledAt).1)
                    }
                case .notificationSuppressed(let s): days[s.day, default: DayBehaviour()].suppressions[s.type, default: []].append(s.reason.rawValue)
                case .routeChanged(_, let to, _):
                    if days[day, default: DayBehaviour()].routeStarts[to] == nil { days[day, default: DayBehaviour()].routeStarts[to] = at }
                case .riskChanged(_, let to):
                    if days[day, default: DayBehaviour()].riskStarts[to] == nil { days[day, default: DayBehaviour()].riskStarts[to] = at }
                case .templateRendered(let text): days[day, default: DayBehaviour()].texts[text.surface, default: []].insert(text.text)
                case .dayClosed(let close):
                    days[close.day, default: DayBehaviour()].result = close.result
                    days[close.day, default: DayBehaviour()].streak = close.streak
                default: break
                }
            }
        }
    }

    static func clock(_ position: Int, dayStart: Int = 4 * 3600) -> String { TimeFormat.clock((position + dayStart) % 86_400) }

    static func compare(_ a: DayBehaviour, _ b: DayBehaviour, scenario: String, day: Int) -> [Change] {
        var comparison = DayComparison(scenario: scenario, day: day)
        comparison.notifications(a, b)
        comparison.starts(a, b)
        comparison.close(a, b)
        comparison.texts(a, b)
        return comparison.changes
    }

    /// One line: `+2 notifications over 7 days, recovery route 40 minutes earlier on 2 days`.
    package var summary: String {
        let unseen = unreached.count
        let notReached = "\(unseen) change\(unseen == 1 ? "" : "s") no scenario reached"
        if changes.isEmpty {
            let same = "no behaviour changed over \(days) day\(days == 1 ? "" : "s")"
            return unseen == 0 ? same : "\(notReached): \(same), but the scenarios could not have seen \(unseen == 1 ? "it" : "them")"
        }
        return behaviourSummary + (unseen == 0 ? "" : "; \(notReached)")
    }

    /// The changed elements, each with whether the runs reached it (none: nothing listed).
    package var elementLines: [String] {
        guard !elements.isEmpty else { return [] }
        let reachedCount = elements.count { $0.reached }
        var lines = ["changed elements: \(elements.count), \(reachedCount) reached by the scenarios"]
        for element in elements {
            let detail = element.note.hasPrefix("not reached: ") ? " — " + element.note.dropFirst("not reached: ".count) : ""
            lines.append("  \(element.reached ? "reached    " : "NOT REACHED") \(element.entry.label)\(detail)")
        }
        return lines
    }

    /// What behaviour changed, in one line.
    var behaviourSummary: String {
        var parts: [String] = []
        // Deliveries gained, lost and moved, each counted (a net "+1" can hide 14 moved and
        // one lost), with the gates that now refuse the lost ones.
        let notifications = changes.filter { $0.kind == "notification" }
        let gained = notifications.reduce(0) { $0 + $1.gained }
        let lost = notifications.reduce(0) { $0 + $1.lost }
        let moved = notifications.reduce(0) { $0 + $1.moved }
        // Deliveries kept at their times but made passive (or active again).
        let levels = notifications.count {
            $0.gained + $0.lost + $0.moved == 0 && $0.delta == 0 && ($0.message.hasSuffix("passive") || $0.message.hasSuffix("(weakened: no sound)"))
        }
        if gained + lost + moved + levels > 0 {
            var counts: [String] = []
            if gained > 0 { counts.append("\(gained) gained") }
            if lost > 0 {
                var causes: [String: Int] = [:]
                for change in notifications where change.lost > 0 { causes[change.cause ?? "no longer a candidate", default: 0] += change.lost }
                let because = causes.keys.sorted().map { "\($0) ×\(causes[$0] ?? 0)" }.joined(separator: ", ")
                counts.append("\(lost) lost (\(because))")
            }
            if moved > 0 { counts.append("\(moved) moved") }
            if levels > 0 { counts.append("\(levels) between active and passive") }
            parts.append("notifications \(counts.joined(separator: ", ")) over \(days) day\(days == 1 ? "" : "s")")
        }
        for kind in ["route", "risk"] {
            let moves = Dictionary(grouping: changes.filter { $0.kind == kind }, by: \.subject)
            for subject in moves.keys.sorted() {
                guard let items = moves[subject] else { continue }
                let shifted = items.compactMap(\.minutes)
                let label = kind == "route" ? "\(subject) route" : "risk \(subject)"
                if shifted.count == items.count, let first = shifted.first, shifted.allSatisfy({ $0 == first }) {
                    parts.append(
                        "\(label) \(abs(first)) minutes \(first < 0 ? "earlier" : "later") on \(items.count) day\(items.count == 1 ? "" : "s")")
                } else {
                    parts.append("\(label) changed on \(items.count) day\(items.count == 1 ? "" : "s")")
                }
            }
        }
        let results = changes.filter { $0.kind == "day" }.count
        if results > 0 { parts.append("\(results) day result\(results == 1 ? "" : "s") changed") }
        let texts = changes.filter { $0.kind == "text" }.count
        if texts > 0 { parts.append("\(texts) text change\(texts == 1 ? "" : "s")") }
        // The changed rules behind them, in the order first cited.
        var cited: [RuleChanges.Entry] = []
        for change in changes { for entry in change.because where !cited.contains(entry) { cited.append(entry) } }
        var line = parts.joined(separator: ", ")
        if !cited.isEmpty {
            line += "; changed: " + cited.prefix(4).map(\.label).joined(separator: ", ") + (cited.count > 4 ? ", …" : "")
        }
        return line
    }

    /// The summary, the changed elements, then each group of identical changes once with the
    /// days it happened on (17 days of one moved notice are one entry, not 17).
    package func text() -> String {
        var out = summary + "\n"
        let lines = elementLines
        if !lines.isEmpty { out += "\n" + lines.joined(separator: "\n") + "\n" }
        if !grouped.isEmpty { out += "\n" }
        for group in grouped {
            let change = group[0]
            out += "\(change.kind): \(change.message)"
            if !change.because.isEmpty {
                out += " ← " + change.because.prefix(3).map(\.label).joined(separator: ", ") + (change.because.count > 3 ? ", …" : "")
            }
            let days = Self.days(group)
            if days.count == 1 {
                out += "\n  on " + (group.count == 1 ? "" : "\(group.count) days: ") + days[0] + "\n"
            } else {
                out += "\n  on \(group.count) days:\n" + days.map { "    " + $0 + "\n" }.joined()
            }
        }
        return out
    }

    /// A group's days, one entry per scenario in the order first seen:
    /// `scenarios/a.yaml 2026-07-06, 2026-07-07`.
    package static func days(_ group: [Change]) -> [String] {
        var order: [String] = []
        var dates: [String: [String]] = [:]
        for change in group {
            if dates[change.scenario] == nil { order.append(change.scenario) }
            dates[change.scenario, default: []].append(DateFormat.string(change.day))
        }
        return order.map { "\($0) " + (dates[$0] ?? []).joined(separator: ", ") }
    }

    /// The diff as a page that reads on a phone: the summary, then each scenario day as a
    /// card, each change with a badge (more, fewer, moved, changed) and the changed rule that
    /// can explain it under it.
    /// The changes, identical ones (same kind, message, sides and causes) grouped, in the
    /// order first seen.
    package var grouped: [[Change]] {
        var order: [String] = []
        var groups: [String: [Change]] = [:]
        for change in changes {
            let key = [
                change.kind, change.subject, change.message, change.before, change.after, change.because.map(\.label).joined(separator: "\u{1}"),
            ]
            .joined(separator: "\u{2}")
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(change)
        }
        return order.compactMap { groups[$0] }
    }

    /// A scenario's file name without its directories (the page is read on a phone).
    package static func shortName(_ path: String) -> String { (path as NSString).lastPathComponent }

    package func html(extra: String = "") -> String {
        let escape = HTMLReport.escape
        let text = HTMLReport.breakable
        var out = """
            <!DOCTYPE html>
            <html lang="ko"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/><title>rules diff</title><style>
            body{font:15px/1.45 -apple-system,"Apple SD Gothic Neo","Noto Sans CJK KR",sans-serif;margin:0;padding:16px;background:#f2f2f7;color:#1c1c1e;overflow-wrap:break-word;word-break:keep-all}
            .on{font-size:13px;color:#3a3a3c;margin-top:2px}.when{white-space:nowrap}time{font-variant-numeric:tabular-nums;white-space:nowrap}
            h1{font-size:20px;margin:0 0 4px}p.summary{margin:0 0 16px;color:#3a3a3c}
            .day{background:#fff;border-radius:12px;padding:10px 12px;margin:0 0 12px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
            .day h2{font-size:15px;margin:0 0 6px;color:#636366;font-weight:600}
            .change{padding:6px 0;border-top:1px solid #eee}.change:first-of-type{border-top:0}
            .badge{display:inline-block;font-size:12px;font-weight:600;border-radius:6px;padding:1px 6px;margin-right:6px;color:#fff;background:#8e8e93}
            .more{background:#1a7f37}.fewer{background:#c62828}.moved{background:#c77700}
            .because{font-size:13px;color:#636366;margin-top:2px}.because code{font-size:12px}
            .sides{display:grid;grid-template-columns:1fr 1fr;gap:6px;margin-top:4px}.sides div{border-radius:8px;padding:4px 8px;font-size:14px;min-width:0}
            .sides .old{background:#fdecea}.sides .new{background:#e8f5e9}.sides b{display:block;font-size:11px;color:#636366;font-weight:600}
            </style></head><body>
            <h1>Behaviour diff</h1>

            """
        out += "<p class=\"summary\">\(escape(summary))</p>\n"
        if !elements.isEmpty {
            out += "<div class=\"day\"><h2>Changed elements</h2>\n"
            for element in elements {
                let (badge, css) = element.reached ? ("reached", "more") : ("not reached", "fewer")
                out += "<div class=\"change\"><span class=\"badge \(css)\">\(badge)</span><code>\(text(element.entry.label))</code>"
                if !element.reached { out += "<div class=\"because\">\(text(element.note))</div>" }
                out += "</div>\n"
            }
            out += "</div>\n"
        }
        // Identical changes (the same message, sides and causes) are one card listing the
        // days they happened on, in the order first seen.
        for group in grouped {
            let change = group[0]
            let (badge, css) =
                change.delta > 0
                ? ("more", "more") : change.delta < 0 ? ("fewer", "fewer") : change.moved > 0 ? ("moved", "moved") : (change.kind, "")
            out +=
                "<div class=\"day\"><div class=\"change\"><span class=\"badge \(css)\">\(escape(badge))</span>\(text(change.kind)): \(text(change.message))"
            out += "<div class=\"on\">" + (group.count == 1 ? "on " : "on \(group.count) days: ")
            out += group.map { "<span class=\"when\">\(escape(Self.shortName($0.scenario))) <time>\(DateFormat.string($0.day))</time></span>" }
                .joined(separator: ", ")
            out += "</div>"
            out +=
                "<div class=\"sides\"><div class=\"old\"><b>old ruleset</b>\(text(change.before))</div><div class=\"new\"><b>new ruleset</b>\(text(change.after))</div></div>"
            if !change.because.isEmpty {
                out +=
                    "<div class=\"because\">because of the changed "
                    + change.because.prefix(3).map { "<code>\(text($0.label))</code>" }.joined(separator: ", ")
                    + (change.because.count > 3 ? ", …" : "")
                    + "</div>"
            }
            out += "</div></div>\n"
        }
        if changes.isEmpty { out += "<p>No scenario behaves differently.</p>\n" }
        return out + extra + "</body></html>\n"
    }

    package func json() -> JSONValue {
        .object([
            ("summary", .string(summary)),
            ("changed", .bool(!changes.isEmpty)),
            ("unreached", .int(unreached.count)),
            (
                "elements",
                .array(
                    elements.map { element in
                        .object([
                            ("kind", .string(element.entry.kind)), ("id", .string(element.entry.id)), ("label", .string(element.entry.label)),
                            ("file", .string(element.entry.origin.file)), ("line", .int(element.entry.origin.location.line)),
                            ("reached", .bool(element.reached)), ("note", .string(element.note)),
                        ])
                    })
            ),
            (
                "changes",
                .array(
                    grouped.map { group in
                        let change = group[0]
                        return .object([
                            ("kind", .string(change.kind)), ("subject", .string(change.subject)), ("message", .string(change.message)),
                            ("before", .string(change.before)), ("after", .string(change.after)),
                            ("minutes", .optional(change.minutes)), ("notifications", .int(change.delta)), ("count", .int(group.count)),
                            (
                                "days",
                                .array(
                                    group.map {
                                        .object([("scenario", .string($0.scenario)), ("date", .string(DateFormat.string($0.day)))])
                                    })
                            ),
                            (
                                "changed_rules",
                                .array(
                                    change.because.map {
                                        .object([
                                            ("kind", .string($0.kind)), ("id", .string($0.id)), ("file", .string($0.origin.file)),
                                            ("line", .int($0.origin.location.line)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }
}
