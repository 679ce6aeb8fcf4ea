import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression

/// The one writer of population files: a `Population` — loaded, or built by the fit — as text
/// the loader reads back to the same values (`PopulationWriterTests` reads every shipped file,
/// writes it and loads it again). Keys at the loader's defaults are left out, except the few
/// every fitted group states (weight, permission, response, skip_today).
///
/// `notes` are comments the caller wants beside keys, by path: `groups.0` (a line under the
/// group's name), `groups.0.weight`, `groups.0.app_opens.2`, `groups.0.acts.morning_checkin`,
/// `groups.0.settings.tone`, `groups.0.settings.reminder.water`, … (the key's own spelling).
package struct PopulationWriter {
    package var header: [String] = []
    package var notes: [String: String] = [:]

    package init(header: [String] = [], notes: [String: String] = [:]) {
        self.header = header
        self.notes = notes
    }

    package func yaml(_ population: Population) -> String {
        var out = "# yaml-language-server: $schema=../schemas/population.schema.json\n"
        for line in header { out += "# \(Self.oneLine(line))\n" }
        out += "name: \(Self.quoted(population.name))\nseed: \(population.seed)\nusers: \(population.users)\ndays: \(population.days)\n"
        out += "start: \(DateFormat.string(population.start))\ntimezone: \(Self.quoted(population.timeZoneName))\ngroups:\n"
        for (index, group) in population.groups.enumerated() { out += self.group(group, path: "groups.\(index)") }
        return out
    }

    /// `   # note` for the key at `path`, or nothing.
    func note(_ path: String) -> String { notes[path].map { $0.isEmpty ? "" : "   # \(Self.oneLine($0))" } ?? "" }

    /// A comment's text on one line: what YAML would read as a line break (or any control
    /// character) becomes a space, so no note can end its comment and start a key.
    static func oneLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || [0x85, 0x2028, 0x2029].contains($0.value) ? " " : $0 }))
    }

    func group(_ g: PopulationGroup, path: String) -> String {
        let n = Self.number
        var out = "  - name: \(Self.quoted(g.name))\n"
        if let line = notes[path] { out += "    # \(Self.oneLine(line))\n" }
        out += "    weight: \(n(g.weight))\(note(path + ".weight"))\n"
        if let routines = g.routines { out += "    routines: [\(routines.map(Self.key).joined(separator: ", "))]\n" }
        out += "    permission: { steps: \(n(g.stepsPermission)), sleep: \(n(g.sleepPermission)) }\(note(path + ".permission"))\n"
        if let sleep = g.sleepMinutes { out += "    sleep_minutes: { mean: \(n(sleep.mean)), sd: \(n(sleep.sd)) }\(note(path + ".sleep_minutes"))\n" }
        if g.wake != PopulationGroup.defaultWake { out += "    wake: \(Self.time(g.wake, withP: false))\(note(path + ".wake"))\n" }
        if let steps = g.steps { out += "    steps: { mean: \(n(steps.mean)), sd: \(n(steps.sd)) }\(note(path + ".steps"))\n" }
        if !g.appOpens.isEmpty {
            out += "    app_opens:\n"
            for (index, open) in g.appOpens.enumerated() {
                out += "      - \(Self.time(open, withP: true))\(note(path + ".app_opens.\(index)"))\n"
            }
        }
        if !g.logs.isEmpty {
            out += "    logs:\n"
            for (index, log) in g.logs.enumerated() {
                out += "      - { routine: \(Self.key(log.routine)), p: \(n(log.p)), value: \(n(log.value)), count: \(log.count), "
                out += "at: \"\(TimeFormat.clock(log.time.at))\", sd: \(n(log.time.sdMinutes)) }\(note(path + ".logs.\(index)"))\n"
            }
        }
        if !g.checks.isEmpty {
            out += "    checks: { \(g.checks.map { "\(Self.key($0.routine)): \(n($0.p))" }.joined(separator: ", ")) }\(note(path + ".checks"))\n"
        }
        if g.checkTime != PopulationGroup.defaultCheckTime {
            out += "    check_at: \(Self.time(g.checkTime, withP: false))\(note(path + ".check_at"))\n"
        }
        out += "    response: { opened: \(n(g.opened)), ignored: \(n(g.ignored)) }\(note(path + ".response"))\n"
        out += "    skip_today: \(n(g.skipToday))\(note(path + ".skip_today"))\n"
        out += behaviour(g.behaviour, path: path)
        out += settings(g.settings, path: path + ".settings")
        if let between = g.between {
            out += "    between_users: { logit_sd: \(n(between.logitSD)), minutes_sd: \(n(between.minutesSD)) }\(note(path + ".between_users"))\n"
        }
        return out
    }

    /// `acts:`, `fatigue:` and `opt_out:`.
    func behaviour(_ b: Behaviour, path: String) -> String {
        let n = Self.number
        var out = ""
        if !b.acts.isEmpty || b.defaultAct != nil || b.halfLife != nil || b.floor != 0 {
            out += "    acts:\(note(path + ".acts"))\n"
            if let act = b.defaultAct { out += "      default: \(Self.act(act))\(note(path + ".acts.default"))\n" }
            for key in b.acts.keys.sorted() {
                guard let act = b.acts[key] else { continue }
                out += "      \(Self.key(key)): \(Self.act(act))\(note(path + ".acts.\(key)"))\n"
            }
            if let life = b.halfLife { out += "      half_life: \(n(life))\n" }
            if b.floor != 0 { out += "      floor: \(n(b.floor))\n" }
        }
        if let after = b.fatigueAfter {
            out += "    fatigue: { after: \(after), per_extra: \(n(b.fatiguePerExtra)) }\(note(path + ".fatigue"))\n"
        }
        var keys: [String] = []
        if b.optOutType != 0 { keys.append("type: \(n(b.optOutType))") }
        if b.optOutAll != 0 { keys.append("all: \(n(b.optOutAll))") }
        if b.optOutAll != 0 || b.optOutAbove != 0 { keys.append("above: \(b.optOutAbove)") }
        if !keys.isEmpty { out += "    opt_out: { \(keys.joined(separator: ", ")) }\(note(path + ".opt_out"))\n" }
        return out
    }

    /// `settings:` — what a group's users set.
    func settings(_ draws: [SettingDraw], path: String) -> String {
        guard !draws.isEmpty else { return "" }
        var out = "    settings:\(note(path))\n"
        for draw in draws {
            let at = path + "." + draw.key
            switch draw.shape {
            case .bool(let share): out += "      \(Self.key(draw.key)): \(Self.number(share))\(note(at))\n"
            case .choice(let values, let shares):
                let pairs = zip(values, shares).map { "\(Self.key($0)): \(Self.number($1))" }
                out += "      \(Self.key(draw.key)): { \(pairs.joined(separator: ", ")) }\(note(at))\n"
            case .time(let time): out += "      \(Self.key(draw.key)): \(Self.time(time, withP: true))\(note(at))\n"
            case .perRoutine(let routines, let times):
                out += "      \(Self.key(draw.key)):\(note(at))\n"
                for (routine, time) in zip(routines, times) {
                    out += "        \(Self.key(routine)): \(Self.time(time, withP: true))\(note(at + "." + routine))\n"
                }
            }
        }
        return out
    }

    /// `{ p: 0.3, within: 45m, does: [water] }`.
    static func act(_ act: Behaviour.Act) -> String {
        var keys = ["p: \(number(act.p))", "within: \(TimeFormat.duration(act.within))"]
        if let does = act.does { keys.append("does: [\(does.map(key).joined(separator: ", "))]") }
        return "{ \(keys.joined(separator: ", ")) }"
    }

    /// `{ p: 0.5, at: "07:30", sd: 20 }` (`p` only where the key has one).
    static func time(_ draw: TimeDraw, withP: Bool) -> String {
        (withP ? "{ p: \(number(draw.p)), " : "{ ") + "at: \"\(TimeFormat.clock(draw.at))\", sd: \(number(draw.sdMinutes)) }"
    }

    /// A number as the loader reads it back exactly: whole numbers without a point, others in
    /// the fewest digits that name the same double, never in powers of ten.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        // As JSON writes it (whole numbers without a point, the rest in the fewest digits),
        // then powers of ten written out.
        let text = JSONValue.formatNumber(value)
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else { return text }
        let negative = text.hasPrefix("-")
        let mantissa = text[..<e].drop { $0 == "-" }
        let point = mantissa.firstIndex(of: ".")
        let digits = mantissa.filter(\.isNumber)
        let before = (point.map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        var out: String
        if before <= 0 {
            out = "0." + String(repeating: "0", count: -before) + digits
        } else if before >= digits.count {
            out = digits + String(repeating: "0", count: before - digits.count)
        } else {
            out = String(digits.prefix(before)) + "." + String(digits.dropFirst(before))
        }
        while out.contains("."), out.hasSuffix("0") { out.removeLast() }
        if out.hasSuffix(".") { out.removeLast() }
        return (negative ? "-" : "") + out
    }

    /// An identifier as a key or list item; anything else double-quoted.
    static func key(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        return plain && !("0"..."9").contains(text.unicodeScalars.first ?? "0") ? text : quoted(text)
    }

    /// A double-quoted YAML scalar that reads back as `text`.
    package static func quoted(_ text: String) -> String { YAMLQuoted.text(text) }
}
