import Foundation
import RulesEngine
import RulesExpression
import Ruleset

/// One self-contained HTML page per simulation (inline CSS and SVG, no script, no network),
/// written to be read from a screenshot: for a multi-day scenario a week overview first
/// (result, streak, XP, deliveries, the route each day ended on), then a section per day with
/// the night's sleep and the day's figures, a timeline chart with labelled events (steps and
/// their goal, completion, route bands, each notification), the events in words and local
/// times (notification texts with their fate, route changes with their reason, logs), a
/// phone column showing the lock screen as iOS would (title, redacted body, time) and the
/// home and widget lines over the day, the recovery checklist with the time each item was
/// done, and the snapshot at chosen times in readable units. Fits 390 px to 1440 px wide.
package enum HTMLReport {
    /// Text for the page with a break opportunity after each `_`, `/` and `.` of identifiers
    /// and paths, so they wrap at their own boundaries on a phone, never inside a word or number.
    package static func breakable(_ text: String) -> String {
        var out = ""
        var previous: Character = " "
        for character in HTMLReport.escape(text) {
            if ["_", "/", "."].contains(previous), character.isLetter { out += "<wbr/>" }
            out.append(character)
            previous = character
        }
        return out
    }

    package static func render(_ result: SimulationResult, ruleset: Ruleset) -> String {
        var writer = HTMLReportWriter(scenario: result.scenario, ruleset: ruleset, dayStart: result.dayStart)
        writer.add(result.records)
        return writer.finish()
    }

    /// The page around `body`.
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="ko">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>\(escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    static let style = """
        * { box-sizing: border-box; }
        body { font-family: -apple-system, "Apple SD Gothic Neo", "Noto Sans KR", "Malgun Gothic", sans-serif; margin: 0 auto; padding: 16px; max-width: 1440px; color: #1d1d1f; background: #f5f5f7; overflow-wrap: break-word; word-break: keep-all; }
        h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 19px; margin: 0 0 8px; } h3 { font-size: 15px; margin: 14px 0 6px; }
        .meta { color: #666; margin: 0 0 16px; }
        section.day { background: #fff; border-radius: 12px; padding: 16px; margin: 0 0 20px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
        .cards { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 12px; }
        .card { background: #f5f5f7; border-radius: 8px; padding: 6px 10px; font-size: 14px; } .card b { display: block; font-size: 12px; color: #666; font-weight: 500; }
        .grid { display: grid; grid-template-columns: minmax(0, 1fr) 340px; gap: 16px; align-items: start; }
        @media (max-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr); } }
        .chart { container-type: inline-size; }
        .chart svg { width: 100%; height: auto; display: block; background: #fff; border: 1px solid #e5e5ea; border-radius: 8px; }
        .chart svg.wide { display: none; }
        @container (min-width: 640px) { .chart svg.wide { display: block; } .chart svg.narrow, .chart ol.markers { display: none; } }
        ol.markers { list-style: none; padding: 0; margin: 6px 0; font-size: 13px; display: flex; flex-wrap: wrap; gap: 2px 12px; }
        ol.markers time { color: #666; margin-right: 4px; font-variant-numeric: tabular-nums; }
        .dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 5px; } .dot.delivered { background: #ff9f0a; } .dot.suppressed { background: #8e8e93; }
        .band-regular { fill: #e8f1ff; } .band-light { fill: #fff6d6; } .band-recovery { fill: #ffe3e3; }
        .steps { fill: none; stroke: #0a84ff; stroke-width: 2; } .known { fill: #0a84ff; }
        .goal { stroke: #0a84ff; stroke-dasharray: 4 4; } .completion { fill: none; stroke: #30a14e; stroke-width: 2; }
        .delivered { fill: #ff9f0a; } .suppressed { fill: #8e8e93; } .axis { stroke: #ccc; } .label { fill: #555; } .completion-scale { fill: #30a14e; } .tag { fill: #1d1d1f; }
        .legend { font-size: 12px; color: #555; margin: 6px 0; } .legend span { display: inline-block; margin-right: 12px; }
        ol.events { list-style: none; padding: 0; margin: 0; font-size: 14px; }
        ol.events li { display: grid; grid-template-columns: 3.2em minmax(0, 1fr); gap: 8px; padding: 3px 0; border-bottom: 1px solid #f0f0f0; }
        ol.events time { color: #666; font-variant-numeric: tabular-nums; }
        .fate { font-size: 12px; color: #666; } .gone { color: #8e8e93; } .bell { color: #c77700; } .route { color: #c62828; }
        .phone { background: #1c1c1e; color: #fff; border-radius: 28px; padding: 14px 12px 18px; }
        .phone h3 { color: #aaa; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; margin: 8px 6px; }
        .notice { background: rgba(255,255,255,.14); border-radius: 14px; padding: 8px 10px; margin: 6px 0; font-size: 13px; }
        .notice .app { display: flex; justify-content: space-between; color: #bbb; font-size: 11px; margin-bottom: 2px; }
        .notice .title { font-weight: 600; } .notice.redacted .body { font-style: italic; }
        .lines { font-size: 13px; margin: 0; padding: 0; list-style: none; } .lines li { padding: 4px 6px; border-bottom: 1px solid #333; }
        .lines time { color: #aaa; margin-right: 6px; } .lines .where { color: #8ab4ff; font-size: 11px; margin-right: 4px; }
        table { border-collapse: collapse; background: #fff; font-size: 13px; width: 100%; }
        td, th { border-bottom: 1px solid #e5e5ea; padding: 4px 6px; text-align: left; vertical-align: top; } th { color: #666; font-weight: 500; }
        @media (max-width: 600px) { table { font-size: 12px; } td, th { padding: 4px 3px; } }
        ul.checklist { list-style: none; padding: 0; margin: 0; font-size: 14px; } ul.checklist li { padding: 2px 0; }
        nav.overview { background: #fff; border-radius: 12px; padding: 12px 16px; margin-bottom: 20px; }
        a { color: #0a60d0; }
        @media print { body { background: #fff; } section.day { break-before: page; box-shadow: none; } nav.overview { break-after: page; } }
        """

    /// A week (or longer) at a glance: one row per day, linked to its section.
    static func overview(_ scenario: Scenario, summaries: [Int: HTMLReportWriter.DaySummary], closes: [Int: DayClose]) -> String {
        var rows = ""
        for day in scenario.days {
            let summary = summaries[day.date] ?? HTMLReportWriter.DaySummary()
            let close = closes[day.date]
            rows +=
                "<tr><td><a href=\"#day-\(DateFormat.string(day.date))\">\(DateFormat.string(day.date)) (\(DateFormat.weekday(day.date)))</a></td>"
                + "<td>\(close?.result.rawValue ?? "—")</td><td>\(close.map { String($0.streak) } ?? "—")</td>"
                + "<td>\(close.map { "+\($0.xpGained) (\($0.xp))" } ?? "—")</td><td>\(summary.deliveries)</td><td>\(summary.route)</td></tr>\n"
        }
        return
            "<nav class=\"overview\"><h2>Overview</h2><div class=\"table\"><table><tr><th>day</th><th>result</th><th>streak</th><th>XP</th><th>delivered</th><th>route at the end</th></tr>\n\(rows)</table></div></nav>\n"
    }

    /// Why a gate refused a notification, in words.
    static func words(_ reason: GateReason) -> String {
        switch reason {
        case .disabled: "turned off in settings"
        case .skipped: "the user skipped today"
        case .conditionFalse: "its condition was false"
        case .completed: "the routine was already done"
        case .quietHours: "inside quiet hours"
        case .dailyCap: "the daily cap was reached"
        case .categoryCooldown: "too soon after another notice of its category"
        case .weakened: "weakened after being ignored"
        case .stale: "its condition no longer held"
        case .maxPending: "more pending than iOS keeps"
        }
    }

    /// A reason id as words: `completion_rate_below_threshold` → "completion rate below threshold".
    static func plain(_ id: String) -> String { id.replacingOccurrences(of: "_", with: " ") }

    /// Minutes as the templates' `|hm` filter writes them: 5시간 30분, 30분, 2시간.
    static func hoursAndMinutes(_ minutes: Int) -> String { TemplateRendererProbe.format(.int(minutes), .hm) }

    /// `12345` → `12,345`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// A day's section; `clock` gives the zone in force at a moment (a `timezone:` event
    /// changes it).
    static func section(
        day: ScenarioDay, records: [EngineRecord], close: DayClose?, dayStart: Int, clock: @escaping (Date) -> LocalClock, ruleset: Ruleset
    ) -> String {
        var section = DaySection(day: day, dayStart: dayStart, clock: clock, ruleset: ruleset)
        section.add(records)
        return section.html(records: records, close: close)
    }

    /// The night's sleep and the day's figures.
    static func cards(day: ScenarioDay, close: DayClose?, last: DailySnapshot?) -> String {
        var cards: [(String, String)] = []
        if let minutes = day.health.sleepMinutes, let start = day.health.sleepStart, let end = day.health.sleepEnd {
            let shown = day.health.sleepPermission == .granted ? "" : " (not shared with the app)"
            cards.append(("sleep", "\(hoursAndMinutes(minutes)) · \(TimeFormat.clock(start))–\(TimeFormat.clock(end))\(shown)"))
        } else {
            cards.append(("sleep", "no sleep data"))
        }
        if let last {
            cards.append(("steps", "\(grouped(last.stepsToday)) / \(grouped(last.stepsGoal))"))
            cards.append(("water", "\(grouped(last.waterML)) / \(grouped(last.waterGoalML)) ml"))
            cards.append(("done", "\(last.completedRoutines)/\(last.totalRoutines) (\(Int((last.completionRate * 100).rounded())) %)"))
        }
        if let close {
            cards.append(("result", close.result.rawValue))
            cards.append(("streak · XP", "\(close.streak) · +\(close.xpGained) (\(close.xp))"))
        }
        return "<div class=\"cards\">" + cards.map { "<div class=\"card\"><b>\($0.0)</b>\(escape($0.1))</div>" }.joined() + "</div>\n"
    }

    /// The phone: the lock screen's notifications as iOS shows them, then home and widget lines.
    static func phone(
        notices: [(at: String, title: String?, body: String, redacted: Bool, fate: String)], lines: [(at: String, surface: String, text: String)]
    )
        -> String
    {
        var html = "<aside class=\"phone\" aria-label=\"phone\">\n<h3>Lock screen</h3>\n"
        if notices.isEmpty { html += "<div class=\"notice\">no notifications</div>\n" }
        for notice in notices {
            html +=
                "<div class=\"notice\(notice.redacted ? " redacted" : "")\"><div class=\"app\"><span>갓생 operator</span><span>\(notice.at)</span></div>"
            if let title = notice.title { html += "<div class=\"title\">\(escape(title))</div>" }
            html += "<div class=\"body\">\(escape(notice.body))</div></div>\n"
        }
        html += "<h3>Home and widget</h3>\n<ul class=\"lines\">\n"
        for line in lines {
            html += "<li><time>\(line.at)</time><span class=\"where\">\(line.surface)</span>\(escape(line.text))</li>\n"
        }
        return html + "</ul>\n</aside>\n"
    }

    /// The recovery route's items: each done with its time, each left out with why.
    /// A routine's display name (its id when the ruleset does not know it).
    static func name(_ routine: String, _ ruleset: Ruleset) -> String { ruleset.routine(routine)?.name ?? routine }

    static func checklist(records: [EngineRecord], time: (Date) -> String, ruleset: Ruleset) -> String {
        guard records.contains(where: { if case .routeChanged(_, .recovery, _) = $0.kind { true } else { false } }) else { return "" }
        var html = "<h3>Recovery checklist</h3>\n<ul class=\"checklist\">\n"
        var any = false
        for record in records {
            switch record.kind {
            case .routeItemDone(let item):
                any = true
                html +=
                    "<li>✓ \(escape(name(item.routine, ruleset))) \(escape(describe(item.requirement, ruleset.routine(item.routine)))) — done at \(time(record.at))</li>\n"
            case .routeItemLeftOut(let left):
                any = true
                html += "<li class=\"gone\">— \(escape(name(left.routine, ruleset))) left out: \(escape(plain(left.reason.rawValue)))</li>\n"
            default: break
            }
        }
        if !any { html += "<li class=\"gone\">no item done yet</li>\n" }
        return html + "</ul>\n"
    }

    /// A recovery item's requirement with its unit: 300 ml, 10분, 양치, +300 steps.
    static func describe(_ requirement: RecoveryItem.Requirement, _ routine: Routine?) -> String {
        switch requirement {
        case .target(let amount):
            switch routine?.unit {
            case .minutes?: "\(grouped(Int(amount)))분"
            case .ml?: "\(grouped(Int(amount))) ml"
            case .steps?: "\(grouped(Int(amount))) steps"
            default: "\(grouped(Int(amount)))"
            }
        case .item(let name): name
        case .delta(let steps): "+\(grouped(steps)) steps"
        }
    }

    /// The snapshot the app had saved at chosen times (the last one at or before each).
    static func snapshotTable(_ snapshots: [(Int, DailySnapshot)], dayStart: Int) -> String {
        guard !snapshots.isEmpty else { return "" }
        let chosen = [9, 13, 18, 21].map { (($0 * 3600 - dayStart) % 86_400 + 86_400) % 86_400 } + [86_399]
        var html =
            "<h3>Snapshot the app had saved</h3>\n<div class=\"table\"><table><tr><th>at</th><th>steps</th><th>water</th><th>sleep</th><th>done</th><th>route</th><th>risk</th></tr>\n"
        var shown: Set<Date> = []
        for moment in chosen {
            guard let (_, s) = snapshots.last(where: { $0.0 <= moment }), shown.insert(s.lastUpdatedAt).inserted else { continue }
            let label = moment == 86_399 ? "end of day" : TimeFormat.clock((moment + dayStart) % 86_400)
            html +=
                "<tr><td>\(label)</td><td>\(grouped(s.stepsToday)) / \(grouped(s.stepsGoal))</td><td>\(grouped(s.waterML)) / \(grouped(s.waterGoalML)) ml</td>"
                + "<td>\(s.sleepMinutes.map(hoursAndMinutes) ?? "—")</td><td>\(s.completedRoutines)/\(s.totalRoutines) (\(Int((s.completionRate * 100).rounded())) %)</td>"
                + "<td>\(s.route.rawValue)</td><td>\(s.risk.rawValue)</td></tr>\n"
        }
        return html + "</table></div>\n"
    }

    static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }

    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
