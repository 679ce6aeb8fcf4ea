import Foundation
import RulesEngine
import RulesYAML
import Ruleset
import RulesetFiles
import Testing

@testable import RulesEngine

/// Effects and records are values: equal when what they say is equal, and they go to JSON
/// and back unchanged (an app may log them, a test compare them).
@Suite struct EffectsValueTests {
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
