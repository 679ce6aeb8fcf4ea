import Foundation
import RulesEngine
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import Testing

@testable import RulesEngine

/// Effects and records are values: equal when what they say is equal, and they go to JSON
/// and back unchanged (an app may log them, a test compare them).
@Suite struct EffectsValueTests {
    @Test func everyShippedScenariosRecordsRoundTripThroughJSON() throws {
        let ruleset = Shipped.ruleset
        var kinds = Set<String>()
        for file in RulesetDirectory.yamlFiles(under: Shipped.root + "/scenarios") {
            let text = try String(contentsOfFile: Shipped.root + "/scenarios/" + file, encoding: .utf8)
            let node = try #require(YAMLReader.parse(text, file: file).documents.first)
            let scenario = try #require(ScenarioLoader.load(node, file: file, source: nil, ruleset: ruleset).scenario, "\(file)")
            let records = Simulation.run(scenario, ruleset: ruleset).records
            kinds.formUnion(records.map(\.kind.name))
            let data = try JSONEncoder().encode(records)
            #expect(try JSONDecoder().decode([EngineRecord].self, from: data) == records, "\(file)")
            let effects = Effects(records: records)
            #expect(try JSONDecoder().decode(Effects.self, from: try JSONEncoder().encode(effects)) == effects, "\(file)")
        }
        // The scenarios reach most kinds of record (so the round trip covers their payloads).
        #expect(kinds.count >= 15, "\(kinds.sorted())")
    }

    @Test func recordsDifferingInOnePayloadFieldAreNotEqual() {
        let at = Date(timeIntervalSince1970: 1_782_691_800)
        let a = EngineRecord(at: at, kind: .problem(code: .unknownLog, message: "no log 'x' today"))
        var b = a
        #expect(a == b)
        b.kind = .problem(code: .unknownItem, message: "no log 'x' today")
        #expect(a != b)
        #expect(
            EngineRecord(at: at, kind: .appRun(cause: .widget(.logWater250), synced: false))
                != EngineRecord(at: at, kind: .appRun(cause: .widget(.startRecovery), synced: false)))
        #expect(RunCause.notificationAction(.openApp).name == "notification_action:open_app")
    }
}

@Suite struct DecisionIDTests {
    @Test(arguments: ["risk", "route", "day", "tool", "notification morning_checkin", "notification bedtime.20260720", "template lock_screen"])
    func namesRoundTrip(_ name: String) throws {
        let id = try #require(DecisionID(name: name))
        #expect(id.name == name)
    }

    @Test(arguments: ["", "routes", "notification", "notification ", "lines lock_screen", "Risk"])
    func otherNamesSpellNoDecision(_ name: String) {
        #expect(DecisionID(name: name) == nil)
    }
}
