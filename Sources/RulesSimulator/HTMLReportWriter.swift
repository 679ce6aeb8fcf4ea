import Foundation
import RulesEngine
import Ruleset

/// The HTML page of a run written day by day: records are taken as they come and each day's
/// section is drawn when the day is over, so only the day in progress is held, with a line
/// per day for the overview — a run of 10,000 days holds its page, not its records.
/// `HTMLReport.render` is this writer over a whole run.
package struct HTMLReportWriter {
    let scenario: Scenario
    let ruleset: Ruleset
    let dayStart: Int
    /// The clock in force from each change on (`timezone.changed` records).
    var zones: [(from: Date, clock: LocalClock)] = []
    /// The records of the logical day in progress, and that day.
    var pending: [EngineRecord] = []
    var pendingDay: Int?
    /// Closes seen, by day (a close arrives at the next day's start).
    var closes: [Int: DayClose] = [:]
    var summaries: [Int: DaySummary] = [:]
    /// Where drawn day sections go: kept in `sections`, or handed to a sink (a command
    /// streaming a long run keeps them on disk until the page is put together).
    var sections = ""
    let sink: ((String) -> Void)?
    /// Each scenario day's place by its date (found once, not searched for every day).
    let dayIndex: [Int: Int]

    /// What the overview shows of a day.
    struct DaySummary {
        var deliveries = 0
        var route = "—"
    }

    /// `dayStart`: the `day_starts_at` days are grouped and drawn by.
    /// `sink`, when given, takes each drawn day section in turn instead of the writer keeping
    /// it (then `finish` returns the page without them: head, then the sections, then tail).
    package init(scenario: Scenario, ruleset: Ruleset, dayStart: Int, clock: LocalClock? = nil, sink: ((String) -> Void)? = nil) {
        self.sink = sink
        self.scenario = scenario
        dayIndex = Dictionary(scenario.days.indices.map { (scenario.days[$0].date, $0) }, uniquingKeysWith: { first, _ in first })
        self.ruleset = ruleset
        self.dayStart = dayStart
        if let clock, clock != scenario.clock { zones = [(.distantPast, clock)] }
    }

    func clock(at instant: Date) -> LocalClock {
        zones.last { $0.from <= instant }?.clock ?? scenario.clock
    }

    /// Takes the next records of the run.
    package mutating func add(_ records: [EngineRecord]) {
        for record in records {
            if case .timeZoneChanged(_, let to) = record.kind, let next = LocalClock(identifier: to) { zones.append((record.at, next)) }
            if case .dayClosed(let close) = record.kind, closes[close.day] == nil { closes[close.day] = close }
            // Days never go back (a trip west keeps the day in progress).
            let day = Swift.max(clock(at: record.at).logical(record.at, dayStart: dayStart).day, pendingDay ?? Int.min)
            if let current = pendingDay, day != current { drawPending() }
            pendingDay = day
            pending.append(record)
        }
    }

    /// Draws the day in progress (if the scenario has it) and forgets its records.
    private mutating func drawPending() {
        guard let current = pendingDay else { return }
        var summary = DaySummary()
        for record in pending {
            if case .notificationDelivered = record.kind { summary.deliveries += 1 }
            if case .routeChanged(_, let to, _) = record.kind { summary.route = to.rawValue }
        }
        summaries[current] = summary
        if let index = dayIndex[current] {
            let day = scenario.days[index]
            let zones = self.zones
            let scenarioClock = scenario.clock
            let drawn = HTMLReport.section(
                day: day, records: pending, close: closes[current], dayStart: dayStart,
                clock: { instant in zones.last { $0.from <= instant }?.clock ?? scenarioClock }, ruleset: ruleset)
            if let sink { sink(drawn) } else { sections += drawn }
        }
        pending.removeAll(keepingCapacity: true)
        pendingDay = nil
    }

    /// The whole page: the last day drawn, the overview (for several days) above the days.
    package mutating func finish() -> String {
        let (head, tail) = finishParts()
        return head + sections + tail
    }

    /// The page around the day sections (which a sink took): the last day drawn first.
    package mutating func finishParts() -> (head: String, tail: String) {
        drawPending()
        var body = "<header><h1>\(HTMLReport.escape(scenario.name))</h1>\n"
        body += "<p class=\"meta\">\(HTMLReport.escape(scenario.file)) · \(HTMLReport.escape(scenario.timeZoneName)) · times are local</p></header>\n"
        if scenario.days.count > 1 { body += HTMLReport.overview(scenario, summaries: summaries, closes: closes) }
        let marker = "\u{0}SECTIONS\u{0}"
        let page = HTMLReport.page(title: scenario.name, body: body + marker)
        guard let range = page.range(of: marker) else { return (page, "") }
        return (String(page[..<range.lowerBound]), String(page[range.upperBound...]))
    }
}
