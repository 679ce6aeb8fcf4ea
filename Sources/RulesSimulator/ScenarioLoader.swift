import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// Reads scenario documents with the rule files' diagnostics quality: positions,
/// did-you-mean for keys, routines and notification types, typed values, times checked.
/// The top level here; each day is `DayDecoder`'s, each event `EventDecoder`'s and each
/// expectation `ExpectationDecoder`'s, all with this document's reader.
package struct ScenarioLoader {
    let ruleset: Ruleset
    var reader: NodeReader
    /// The days read so far (what carries from day to day: the clock, stated permissions).
    var days: DayDecoder

    static let topKeys = ["name", "description", "date", "timezone", "settings", "routines", "health", "events", "expect", "days", "version"]
    static let dayKeys = ["date", "events", "health", "settings", "expect", "description"]
    /// The snapshot keys a `snapshot_at` expectation checks.
    package static var snapshotKeys: [String] { ExpectationDecoder.snapshotKeys }

    /// Loads the scenario of a parsed document; nil with diagnostics when it has errors.
    package static func load(
        _ node: YAMLNode, file: String, source: SourceFile?, ruleset: Ruleset
    ) -> (scenario: Scenario?, diagnostics: [Diagnostic]) {
        var loader = ScenarioLoader(ruleset: ruleset, reader: NodeReader(file: file, source: source), days: DayDecoder(ruleset: ruleset))
        let scenario = loader.scenario(node)
        let failed = loader.reader.diagnostics.contains { $0.severity == .error }
        return (failed ? nil : scenario, loader.reader.diagnostics)
    }

    /// `timezone:` (default Asia/Seoul): the name and its clock, nil after a diagnostic
    /// when the name is not an IANA zone. Scenarios and populations read it alike.
    package static func timeZone(_ node: YAMLNode?, _ reader: inout NodeReader) -> (name: String, clock: LocalClock?) {
        guard let node, let text = reader.string(node, key: "timezone") else { return ("Asia/Seoul", LocalClock(identifier: "Asia/Seoul")) }
        let clock = LocalClock(identifier: text)
        if clock == nil {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.unknown_timezone", reader.file, node, "'\(text)' is not an IANA time zone",
                    hint: LocalClock.zoneHint(for: text)))
        }
        return (text, clock)
    }

    mutating func scenario(_ node: YAMLNode) -> Scenario? {
        guard let fields = reader.fields(node, "a scenario", allowed: Self.topKeys) else { return nil }
        if let version = fields["version"], version.scalar != "1" {
            reader.report(
                RulesetDiagnostics.error(
                    "ruleset.unsupported_version", reader.file, version, "version '\(version.scalar ?? "")' is not supported",
                    hint: "write version: 1"))
        }
        let name = fields["name"].flatMap { reader.string($0, key: "name") } ?? (reader.file as NSString).lastPathComponent
        let (zoneName, clock) = ScenarioLoader.timeZone(fields["timezone"], &reader)
        days.clock = clock
        var routines: [String]?
        if let routinesNode = fields["routines"], let items = reader.list(routinesNode, key: "routines") {
            routines = items.compactMap { Self.routineID($0, key: "routines", ruleset: ruleset, &reader) }
        }
        // Top-level settings of a multi-day scenario (a single day reads its own, once).
        let baseSettings = fields["days"] == nil ? [:] : fields["settings"].map { days.settings($0, &reader) } ?? [:]
        var lived: [ScenarioDay] = []
        var health = TrueHealth()
        if let daysNode = fields["days"] {
            for key in ["date", "events", "expect"] where fields[key] != nil {
                if let keyNode = fields.keys[key] {
                    reader.report(
                        RulesetDiagnostics.error(
                            "ruleset.unknown_key", reader.file, keyNode, "'\(key)' goes inside each entry of 'days' in a multi-day scenario"))
                }
            }
            for dayNode in reader.list(daysNode, key: "days") ?? [] {
                guard let dayFields = reader.fields(dayNode, "a scenario day", allowed: Self.dayKeys, required: ["date"]) else { continue }
                // Top-level `health:` and `settings:` are every day's defaults.
                if let day = days.day(
                    dayFields, node: dayNode, health: &health, settings: baseSettings, healthDefaults: fields["health"], firstDay: lived.isEmpty,
                    &reader)
                {
                    lived.append(day)
                }
            }
        } else {
            guard let dateNode = fields["date"] else {
                reader.report(RulesetDiagnostics.missingKey(reader.file, node, key: "date", in: "a scenario", hint: "or 'days:' with a date each"))
                return nil
            }
            _ = dateNode
            // The day's fields are the scenario's own: its settings are read once, there.
            if let day = days.day(fields, node: node, health: &health, settings: [:], &reader) { lived.append(day) }
        }
        for (a, b) in zip(lived, lived.dropFirst()) where b.date <= a.date {
            reader.report(
                ScenarioDiagnostics.error(
                    "scenario.out_of_order", reader.file, YAMLNode(.scalar("", .plain), range: SourceRange(at: b.origin.location)),
                    "day \(DateFormat.string(b.date)) does not come after \(DateFormat.string(a.date))"))
        }
        guard let clock else { return nil }
        return Scenario(name: name, file: reader.file, clock: clock, timeZoneName: zoneName, routines: routines, days: lived, settings: baseSettings)
    }

    /// The message for a date the engine cannot live and close.
    package static func outsideEngineDays(_ date: String) -> String {
        let days = InputLimits.simulatedDays
        return
            "\(date) is outside the days a simulation can live and close (\(DateFormat.string(days.lowerBound)) to \(DateFormat.string(days.upperBound)): each day closes at the next one's start)"
    }

    /// A routine id of `ruleset`, else nil after a diagnostic with did-you-mean (scenarios and
    /// populations name routines alike).
    package static func routineID(_ node: YAMLNode, key: String, ruleset: Ruleset, _ reader: inout NodeReader) -> String? {
        knownID(
            node, key: key, known: { ruleset.routine($0) != nil }, ids: { ruleset.routines.map(\.id) }, code: "scenario.unknown_routine",
            what: "routine", listed: "routines", &reader)
    }

    /// The id `node` names when the ruleset `known`s it (looked up, not listed), else nil
    /// after the diagnostic `code` ("no <what> 'x'") with a did-you-mean among `ids` or their
    /// list, `listed`.
    static func knownID(
        _ node: YAMLNode, key: String, known: (String) -> Bool, ids idList: () -> [String], code: DiagnosticCode, what: String, listed: String,
        _ reader: inout NodeReader
    ) -> String? {
        guard let id = reader.string(node, key: key) else { return nil }
        guard known(id) else {
            let ids = idList()
            reader.report(
                ScenarioDiagnostics.error(
                    code, reader.file, node, "no \(what) '\(id)'",
                    hint: Suggestions.nearest(to: id, among: ids).map { "did you mean '\($0)'?" } ?? "\(listed) are: \(ids.joined(separator: ", "))"))
            return nil
        }
        return id
    }
}
