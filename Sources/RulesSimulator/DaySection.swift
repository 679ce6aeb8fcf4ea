import Foundation
import RulesDiagnostics
import RulesEngine
import RulesExpression
import Ruleset

/// A day's section of the HTML report in the making: what its records put on the timeline
/// chart (snapshots, routes, markers, steps known), in "What happened" (a row per happening)
/// and on the phone (notices and lines). Each kind of record is added by one method.
struct DaySection {
    typealias Page = HTMLReport
    let day: ScenarioDay
    let dayStart: Int
    /// The zone in force at a moment.
    let clock: (Date) -> LocalClock
    let ruleset: Ruleset
    var snapshots: [(Int, DailySnapshot)] = []
    var routes: [(Int, RouteKind)] = []
    var markers: [TimelineChart.Marker] = []
    var known: [(Int, Int)] = []
    var events: [(at: String, html: String)] = []
    var notices: [(at: String, title: String?, body: String, redacted: Bool, fate: String)] = []
    var lines: [(at: String, surface: String, text: String)] = []
    var lastLine: [String: String] = [:]
    /// What the user did with each delivered notification (by request id).
    var responses: [String: String] = [:]

    init(day: ScenarioDay, dayStart: Int, clock: @escaping (Date) -> LocalClock, ruleset: Ruleset) {
        self.day = day
        self.dayStart = dayStart
        self.clock = clock
        self.ruleset = ruleset
    }

    /// Where `date` falls on the day's chart (seconds after the day's start; past its end
    /// for a moment of the next day).
    func position(_ date: Date) -> Int {
        let local = clock(date)
        return logical(of: local.local(date).seconds, dayStart: dayStart) + (local.logical(date, dayStart: dayStart).day > day.date ? 86_400 : 0)
    }

    func time(_ date: Date) -> String { TimeFormat.clock(clock(date).local(date).seconds) }

    mutating func add(_ records: [EngineRecord]) {
        for record in records {
            if case .notificationResponse(let id, _, let response) = record.kind { responses[id] = "\(response) at \(time(record.at))" }
        }
        for record in records { add(record) }
    }

    private mutating func add(_ record: EngineRecord) {
        let at = time(record.at)
        switch record.kind {
        case .snapshot(let s): snapshots.append((position(record.at), s))
        case .routeChanged(let from, let to, let reason):
            routes.append((position(record.at), to))
            let label = from.map { "\($0.rawValue) → \(to.rawValue)" } ?? to.rawValue
            events.append((at, "<span class=\"route\">route \(label)</span>: \(Page.escape(Page.plain(reason)))"))
        case .notificationDelivered(let n, let stale): delivered(n, stale: stale, at: record.at)
        case .notificationSuppressed(let s):
            markers.append(
                TimelineChart.Marker(
                    position: position(s.fireAt), kind: "suppressed", label: s.type, title: "\(s.type) suppressed: \(Page.words(s.reason))"))
            events.append(
                (
                    at,
                    "<span class=\"gone\">\(Page.escape(s.type)) for \(time(s.fireAt)) not sent</span> <span class=\"fate\">\(Page.escape(Page.words(s.reason)))</span>"
                ))
        case .appRun(let cause, let synced): appRun(cause, synced: synced, at: at)
        case .sync(let health):
            if let steps = health?.stepsToday { known.append((position(record.at), steps)) }
        case .riskChanged(let from, let to):
            events.append((at, "<span class=\"route\">risk \(from.map { "\($0.rawValue) → " } ?? "")\(to.rawValue)</span>"))
        case .log(let log):
            events.append(
                (
                    at,
                    "logged \(Page.escape(Page.name(log.routine, ruleset))) +\(Page.grouped(Int(log.value))) \(log.unit.rawValue) (\(log.source.rawValue))"
                ))
        case .check(let routine, let item, let checked):
            events.append((at, "\(checked ? "ticked" : "unticked") \(Page.escape(Page.name(routine, ruleset))) \(Page.escape(item))"))
        case .routeItemDone(let item):
            let requirement = Page.describe(item.requirement, ruleset.routine(item.routine))
            events.append((at, "recovery item done: \(Page.escape(Page.name(item.routine, ruleset))) \(Page.escape(requirement))"))
        case .templateRendered(let text) where text.surface == "home" || text.surface == "widget":
            if lastLine[text.surface] != text.text {
                lastLine[text.surface] = text.text
                lines.append((at, text.surface, text.text))
            }
        case .problem(let code, let message):
            events.append((at, "<span class=\"route\">problem \(Page.escape(code.rawValue))</span>: \(Page.escape(message))"))
        default: break
        }
    }

    /// A delivery: a marker, a row with what became of it, a notice on the phone.
    private mutating func delivered(_ n: ScheduledNotification, stale: Bool, at instant: Date) {
        let at = time(instant)
        let fate = responses[n.id] ?? "no response"
        let quietly = n.interruptionLevel == .passive
        markers.append(
            TimelineChart.Marker(
                position: position(instant), kind: "delivered", label: quietly ? n.type + " (quiet)" : n.type,
                title: "\(n.type) delivered\(quietly ? " quietly (weakened)" : ""): \(n.text)"))
        events.append(
            (
                at,
                "<span class=\"bell\">● \(Page.escape(n.type))</span> “\(Page.escape(n.text))”\(n.redacted ? " (redacted)" : "")<br/><span class=\"fate\">\(n.interruptionLevel == .passive ? "<b>delivered quietly</b> (passive: weakened after being ignored)" : "delivered")\(stale ? ", its condition no longer held" : "") · \(Page.escape(fate))</span>"
            ))
        notices.append((at, n.title, n.text, n.redacted, fate))
    }

    /// An app run's row: one line per happening (a log, a tick or an edit says itself on its
    /// own line).
    private mutating func appRun(_ cause: RunCause, synced: Bool, at: String) {
        switch cause {
        case .log, .check, .uncheck, .editLog, .deleteLog: break
        case .widget(let intent) where intent != .startRecovery: break  // its log or tick follows
        case .open: events.append((at, "opened the app\(synced ? " (HealthKit synced)" : "")"))
        default: events.append((at, "app run: \(Page.escape(Page.plain(cause.name)))\(synced ? " (HealthKit synced)" : "")"))
        }
    }

    /// The section: the day's cards, the chart, what happened, the recovery checklist, the
    /// snapshots and the phone.
    func html(records: [EngineRecord], close: DayClose?) -> String {
        var html = "<section class=\"day\" id=\"day-\(DateFormat.string(day.date))\">\n"
        html += "<h2>\(DateFormat.string(day.date)) (\(DateFormat.weekday(day.date)))</h2>\n"
        html += Page.cards(day: day, close: close, last: snapshots.last?.1)
        html += "<div class=\"grid\">\n<div>\n"
        // Drawn to its box: the layout that fits the box's width is shown (labels stay ≥ 10 px).
        html += TimelineChart(day: day, snapshots: snapshots, routes: routes, markers: markers, known: known, dayStart: dayStart).html()
        html += "<h3>What happened</h3>\n<ol class=\"events\">\n"
        for event in events { html += "<li><time>\(event.at)</time><span>\(event.html)</span></li>\n" }
        html += "</ol>\n"
        html += Page.checklist(records: records, time: time, ruleset: ruleset)
        html += Page.snapshotTable(snapshots, dayStart: dayStart)
        html += "</div>\n"
        html += Page.phone(notices: notices, lines: lines)
        html += "</div>\n</section>\n"
        return html
    }
}
