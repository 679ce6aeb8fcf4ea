import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// What the app may send about what its user did, as JSON lines: one line per event the
/// engine saw, with a pseudonymous user key, the logical day, the minute of that day and what
/// happened — the app run's cause, a log (routine and value), a tick (routine and the item's
/// place in its list), a delivery (type), the response to it (opened, ignored or an action), a
/// delivery the app withheld for a trial, a notification type switched on or off, and at
/// each sync the permissions with the health values in coarse buckets (sleep in 30-minute
/// steps, steps in 500s, waking in 30-minute steps); also the route the engine chose and the day's result.
///
/// Never a rendered text, a name, a date of birth, or anything a template fills in: every
/// field is an identifier of the ruleset (routine, notification type, route, result), a
/// number, or one of a fixed set of words. Health-adjacent all the same (a sleep routine's
/// logs, a supplement's ticks): see docs/THREAT_MODEL.md before sending it anywhere.
public struct Telemetry: Sendable {
    /// The format's version, first in every line.
    public static let version = 1

    let ruleset: Ruleset
    let rulesetKey: String
    let user: String

    /// Lines for the user whose install id is `installID`, keyed with `key` (a secret the app
    /// holds, at least 16 bytes: the same install gives the same user key under the same key,
    /// and no key, no way back to the install).
    public init(ruleset: Ruleset, installID: String, key: [UInt8]) {
        self.ruleset = ruleset
        self.rulesetKey = String(ruleset.sha256.prefix(16))
        self.user = Telemetry.userKey(installID: installID, key: key)
    }

    /// HMAC-SHA-256 of the install id under `key`, its first 16 bytes in hex.
    public static func userKey(installID: String, key: [UInt8]) -> String {
        let block = 64
        var k = key.count > block ? SHA256.digest(key) : key
        k += Array(repeating: 0, count: block - k.count)
        let inner = SHA256.digest(k.map { $0 ^ 0x36 } + Array(installID.utf8))
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in SHA256.digest(k.map { $0 ^ 0x5c } + inner).prefix(16) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A delivery the app withheld for a trial: the engine planned it, the device did not
    /// show it.
    public struct Withheld: Sendable, Hashable {
        /// When it was due (the delivery's time).
        public var at: Date
        /// Its notification type.
        public var type: String

        /// A withheld delivery of `type` due at `at`.
        public init(at: Date, type: String) {
            self.at = at
            self.type = type
        }
    }

    /// The lines of `records` (in time order), with the deliveries the app withheld merged in
    /// at their times; a setting changed reports the value it took then. `clock` is the
    /// device's clock.
    /// A delivery the engine recorded that the app withheld is a `withheld` line in its place.
    ///
    /// `routines`: the routines the user keeps, one `routine` line each before the first app
    /// run of the records (the app sends them when they change; empty: none sent).
    /// `noticesOff`: when the device stopped showing this app's notices (the user switched them
    /// off in the system's settings; nil: never) — the app reads the permission at each run and
    /// sends a `notices` line when it differs from what it last read (at first: on).
    /// `sequence`: the number of lines sent for this user before these (0 at first). Each line
    /// carries `seq`, one more than the line before it, so a table of events, which keeps no
    /// file's order, orders a user's lines as the app wrote them (an answer and the log it caused
    /// share a minute); the app keeps `sequence + lines.count` for its next batch.
    public func lines(
        records: [EngineRecord], withheld: [Withheld] = [], routines: [String] = [], noticesOff: Date? = nil, clock: LocalClock,
        sequence: Int = 0
    ) -> [String] {
        var out: [String] = []
        func add(at: Date, _ kind: Kind, _ fields: [(String, JSONValue)]) {
            let (day, minute) = place(at, clock: clock)
            add(day: day, minute: minute, kind, fields)
        }
        func add(day: Int, minute: Int, _ kind: Kind, _ fields: [(String, JSONValue)]) {
            let seq = sequence + out.count
            out.append(line(day: day, minute: minute, seq: seq, kind, fields))
        }
        var held: [Withheld: Int] = [:]
        for item in withheld { held[item, default: 0] += 1 }
        var routinesSent = routines.isEmpty
        var noticesOn = true
        for record in records {
            if case .appRun = record.kind {
                if !routinesSent {
                    for routine in routines.sorted() { add(at: record.at, .routine, [("routine", .string(routine))]) }
                    routinesSent = true
                }
                let on = noticesOff.map { record.at < $0 } ?? true
                if on != noticesOn {
                    noticesOn = on
                    add(at: record.at, .notices, [("on", .bool(on))])
                }
            }
            if case .settingsChanged(let values) = record.kind {
                for fields in settingLines(values) { add(at: record.at, .setting, fields) }
                continue
            }
            if case .notificationDelivered(let request, _) = record.kind, let count = held[Withheld(at: record.at, type: request.type)], count > 0 {
                held[Withheld(at: record.at, type: request.type)] = count - 1
                add(at: record.at, .withheld, Self.notice(request))
                continue
            }
            if case .dayClosed(let close) = record.kind {
                // The day a close is about, at its end (it happens at the next day's start).
                add(day: close.day, minute: 1_440, .day, [("result", .string(close.result.rawValue))])
                continue
            }
            if let (kind, fields) = fields(record.kind) { add(at: record.at, kind, fields) }
        }
        return out
    }

    /// The logical day of `at` and its minute since the day began.
    func place(_ at: Date, clock: LocalClock) -> (day: Int, minute: Int) {
        let (day, seconds) = clock.logical(at, dayStart: ruleset.dayStartsAt)
        return (day, ((seconds - ruleset.dayStartsAt) % 86_400 + 86_400) % 86_400 / 60)
    }

    /// `minute`: minutes since the logical day began (`day_starts_at`), 0–1439; 1440 for a close.
    /// `seq`: the line's number among the user's lines.
    func line(day: Int, minute: Int, seq: Int, _ kind: Kind, _ fields: [(String, JSONValue)]) -> String {
        let head: [(String, JSONValue)] = [
            ("v", .int(Self.version)), ("user", .string(user)), ("ruleset", .string(rulesetKey)), ("day", .int(day)), ("minute", .int(minute)),
            ("seq", .int(seq)), ("kind", .string(kind.rawValue)),
        ]
        return JSONValue.object(head + fields).rendered()
    }

    /// The kind and fields of a record the telemetry carries; nil for the engine's own
    /// workings (plans, renders, snapshots, verdicts, problems).
    func fields(_ kind: EngineRecord.Kind) -> (Kind, [(String, JSONValue)])? {
        switch kind {
        case .appRun(let cause, _):
            switch cause {
            case .notification(let type): return (.run, [("cause", .string("notification")), ("type", .string(type))])
            case .notificationAction(let action): return (.run, [("cause", .string("notification_action")), ("action", .string(action.rawValue))])
            case .widget(let intent): return (.run, [("cause", .string("widget")), ("intent", .string(intent.rawValue))])
            case .action(let action): return (.run, [("cause", .string("action")), ("action", .string(action.rawValue))])
            default: return (.run, [("cause", .string(cause.name))])
            }
        case .log(let log):
            return (.log, [("routine", .string(log.routine)), ("value", .number(log.value.isFinite ? log.value : 0))])
        case .check(let routine, let item, let checked):
            let index = ruleset.routines.first { $0.id == routine }?.items.firstIndex(of: item) ?? -1
            return (.tick, [("routine", .string(routine)), ("item", .int(index)), ("checked", .bool(checked))])
        case .notificationDelivered(let request, _):
            return (.delivery, Self.notice(request))
        case .notificationResponse(_, let type, let response):
            return (.response, [("type", .string(type)), ("response", .string(Self.response(response)))])
        case .sync(let health?):
            var fields: [(String, JSONValue)] = [
                ("steps_permission", .string(health.stepsPermission.rawValue)), ("sleep_permission", .string(health.sleepPermission.rawValue)),
            ]
            if let sleep = health.sleepMinutes { fields.append(("sleep", .int(Swift.max(0, sleep) / 30 * 30))) }
            if health.sleepMinutes != nil, let end = health.sleepEnd { fields.append(("wake", .int(Swift.max(0, end % 86_400) / 1_800 * 30))) }
            if let steps = health.stepsToday { fields.append(("steps", .int(Swift.max(0, steps) / 500 * 500))) }
            return (.health, fields)
        case .routeChanged(_, let to, _):
            return (.route, [("route", .string(to.rawValue))])
        default:
            return nil
        }
    }

    /// One line's fields for each setting of `values` (by key): a notification type's switch (`type`, `on`); another bool (`key`, `on`); an
    /// enum's value (`key`, `choice`); a time rounded down to 30 minutes of the wall clock
    /// (`key`, `at`), or `set: false` when it was cleared; a per-routine time, one line per
    /// routine set (`key`, `routine`, `at`), or `set: false` when none is. Settings of other
    /// types (text, numbers) are never sent: a text setting could be free text.
    func settingLines(_ values: [String: Value]) -> [[(String, JSONValue)]] {
        var out: [[(String, JSONValue)]] = []
        for key in values.keys.sorted() {
            guard let declaration = ruleset.settings.declaration(key), let value = values[key] else { continue }
            let named: (String, JSONValue) = ("key", .string(key))
            func at(_ seconds: Int) -> (String, JSONValue) { ("at", .int((seconds % 86_400 + 86_400) % 86_400 / 1_800 * 30)) }
            switch (declaration.type, value) {
            case (.bool, .bool(let on)):
                let isType = ruleset.notifications.contains { $0.id == key }
                out.append([isType ? ("type", .string(key)) : named, ("on", .bool(on))])
            case (.enumeration, .string(let choice)): out.append([named, ("choice", .string(choice))])
            case (.time, .time(let seconds)), (.optional(.time), .time(let seconds)): out.append([named, at(seconds)])
            case (.optional(.time), .unknown): out.append([named, ("set", .bool(false))])
            case (.map(.routineID, .time), .map(let entries)):
                let set = entries.keys.sorted().compactMap { routine -> [(String, JSONValue)]? in
                    guard case .time(let seconds)? = entries[routine] else { return nil }
                    return [named, ("routine", .string(routine)), at(seconds)]
                }
                out += set.isEmpty ? [[named, ("set", .bool(false))]] : set
            default: continue
            }
        }
        return out
    }

    /// A delivery's or withheld delivery's fields: its type, and the routine it is about when
    /// it is a per-routine notice (what the trial's decision point waits for).
    static func notice(_ request: ScheduledNotification) -> [(String, JSONValue)] {
        [("type", .string(request.type))] + (request.routine.map { [("routine", JSONValue.string($0))] } ?? [])
    }

    /// `opened`, `ignored`, or the action's name; anything else (which no app sends) as `other`.
    static func response(_ text: String) -> String {
        let known = ["opened", "ignored"] + NotificationAction.allCases.map(\.rawValue)
        return known.contains(text) ? text : "other"
    }
}
