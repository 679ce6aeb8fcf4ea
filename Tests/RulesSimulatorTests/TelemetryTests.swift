import Foundation
import RulesEngine
import RulesExpression
import RulesYAML
import Ruleset
import RulesetFiles
import ShippedRuleset
import TestSupport
import Testing

@testable import RulesSimulator

/// What the app may send: the engine's telemetry of a scenario day, pinned; never a text any
/// template writes (every shipped template rendered with the gallery's samples, and every
/// text of every shipped scenario, against the telemetry of every shipped scenario); a user
/// key that hides the install.
@Suite struct TelemetryTests {
    static let key = Array("a key the app holds, 32 bytes!!!".utf8)

    static func telemetry(_ file: String) throws -> (lines: [String], result: SimulationResult) {
        let text = try String(contentsOfFile: ShippedRuleset.root + "/scenarios/" + file, encoding: .utf8)
        let node = try #require(YAMLReader.parse(text, file: file).documents.first)
        let scenario = try #require(ScenarioLoader.load(node, file: file, source: nil, ruleset: ShippedRuleset.ruleset).scenario, "\(file)")
        let result = Simulation.run(scenario, ruleset: ShippedRuleset.ruleset)
        let telemetry = Telemetry(ruleset: ShippedRuleset.ruleset, installID: "install-\(file)", key: Self.key)
        return (telemetry.lines(records: result.records, clock: scenario.clock), result)
    }

    @Test func theCollapsedDaysTelemetryIsPinned() throws {
        let lines = try Self.telemetry("collapsed_day.yaml").lines
        let path = Fixtures.directory() + "/telemetry/collapsed_day.jsonl"
        if let difference = Golden.compare(lines.joined(separator: "\n") + "\n", toFile: path) { Issue.record("\(difference)") }
        // Every line reads back as JSON with the fields every line has.
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(["v", "user", "ruleset", "day", "minute", "kind"]).isSubset(of: object.keys), "\(line)")
        }
    }

    @Test func noTextAnyTemplateWritesReachesTelemetry() throws {
        let prepared = PreparedRuleset(ShippedRuleset.ruleset)
        var texts: Set<String> = []
        let clock = LocalClock(timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        for sample in TemplatePreview.samples(prepared, clock: clock) {
            for template in ShippedRuleset.ruleset.templates {
                switch TemplatePreview.render(template, prepared: prepared, facts: sample.facts) {
                case .text(let text), .redacted(let text): texts.insert(text)
                default: break
                }
            }
        }
        var all: [String] = []
        for file in RulesetDirectory.yamlFiles(under: ShippedRuleset.root + "/scenarios") {
            let (lines, result) = try Self.telemetry(file)
            all += lines
            for record in result.records {
                if case .templateRendered(let rendered) = record.kind { texts.insert(rendered.text) }
            }
        }
        #expect(texts.count > 20)
        #expect(all.count > 200)
        let telemetry = all.joined(separator: "\n")
        for text in texts where text.count >= 2 {
            #expect(!telemetry.contains(text), "a template's text in telemetry: \(text)")
        }
        // Nor any of the words a text is made of that the ruleset's ids do not also use.
        let ids = Set(ShippedRuleset.ruleset.routines.map(\.id) + ShippedRuleset.ruleset.notifications.map(\.id))
        let words = Set(texts.flatMap { $0.split(whereSeparator: { !$0.isLetter }).map(String.init) }).filter { $0.count >= 2 && !ids.contains($0) }
        let carried = words.filter { word in word.unicodeScalars.contains { $0.value >= 0xAC00 } && telemetry.contains(word) }
        #expect(carried.isEmpty, "Korean words of texts in telemetry: \(carried.sorted())")
    }

    @Test func everyLineHoldsOnlyTheSchemasFieldsWithItsKindsRequiredOnes() throws {
        guard case .object(let fields) = TelemetrySchema.schema, case .object(let properties)? = fields.first(where: { $0.0 == "properties" })?.1
        else {
            Issue.record("the schema has no properties")
            return
        }
        let allowed = Set(properties.map(\.0))
        var kinds: Set<String> = []
        for file in RulesetDirectory.yamlFiles(under: ShippedRuleset.root + "/scenarios") {
            for line in try Self.telemetry(file).lines {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(Set(object.keys).isSubset(of: allowed), "\(line)")
                let kind = try #require(object["kind"] as? String)
                kinds.insert(kind)
                let required = try #require(TelemetrySchema.kinds.first { $0.kind == kind }?.required, "\(kind)")
                #expect(Set(required).isSubset(of: object.keys), "\(line)")
            }
        }
        #expect(kinds.isSuperset(of: ["run", "log", "tick", "delivery", "response", "health", "route", "day"]), "\(kinds.sorted())")
    }

    /// Each setting line says the value the setting took then, even when it changed again in
    /// the same batch; the kept routines come before the first run; a `notices` line at the
    /// first run after the device stopped showing them.
    @Test func settingLinesSayTheValueOfTheirMoment() throws {
        let clock = try #require(LocalClock(identifier: "Asia/Seoul"))
        let day = try #require(DateFormat.days("2026-07-06"))
        func at(_ hour: Int, _ minute: Int = 0) -> Date { clock.instant(day: day, seconds: hour * 3_600 + minute * 60) }
        let records = [
            EngineRecord(at: at(8), kind: .appRun(cause: .open, synced: false)),
            EngineRecord(
                at: at(8),
                kind: .settingsChanged([
                    "routine_reminder": .bool(true), "bedtime": .time(23 * 3_600 + 40 * 60),
                    "reminders": .map(["water": .time(15 * 3_600 + 10 * 60)]),
                    "tone": .string("cold_persistent"),
                ])),
            EngineRecord(at: at(12), kind: .settingsChanged(["routine_reminder": .bool(false), "bedtime": .unknown, "reminders": .map([:])])),
            EngineRecord(at: at(21), kind: .appRun(cause: .open, synced: false)),
        ]
        let telemetry = Telemetry(ruleset: ShippedRuleset.ruleset, installID: "install", key: Self.key)
        // The app has sent 7 lines of this user before: these are numbered from 7 on.
        let lines = telemetry.lines(records: records, routines: ["water", "study"], noticesOff: at(13), clock: clock, sequence: 7)
        let tails = lines.map { line in line.components(separatedBy: "\"minute\":").last ?? "" }
        #expect(
            tails == [
                #"240,"seq":7,"kind":"routine","routine":"study"}"#, #"240,"seq":8,"kind":"routine","routine":"water"}"#,
                #"240,"seq":9,"kind":"run","cause":"open"}"#,
                #"240,"seq":10,"kind":"setting","key":"bedtime","at":1410}"#,
                #"240,"seq":11,"kind":"setting","key":"reminders","routine":"water","at":900}"#,
                #"240,"seq":12,"kind":"setting","type":"routine_reminder","on":true}"#,
                #"240,"seq":13,"kind":"setting","key":"tone","choice":"cold_persistent"}"#,
                #"480,"seq":14,"kind":"setting","key":"bedtime","set":false}"#, #"480,"seq":15,"kind":"setting","key":"reminders","set":false}"#,
                #"480,"seq":16,"kind":"setting","type":"routine_reminder","on":false}"#, #"1020,"seq":17,"kind":"notices","on":false}"#,
                #"1020,"seq":18,"kind":"run","cause":"open"}"#,
            ], "\(tails)")
    }

    @Test func theUserKeyIsAKeyedHashOfTheInstall() {
        let a = Telemetry.userKey(installID: "install-1", key: Self.key)
        #expect(a.count == 32 && a.allSatisfy(\.isHexDigit))
        #expect(Telemetry.userKey(installID: "install-1", key: Self.key) == a)
        #expect(Telemetry.userKey(installID: "install-2", key: Self.key) != a)
        #expect(Telemetry.userKey(installID: "install-1", key: Array("another key".utf8)) != a)
        #expect(!a.contains("install"))
        // HMAC-SHA-256 (RFC 4231, test case 2), its first 16 bytes.
        #expect(Telemetry.userKey(installID: "what do ya want for nothing?", key: Array("Jefe".utf8)) == "5bdcc146bf60754e6a042426089575c7")
    }
}
