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

    /// A run's effects: the last version of each request in the order first scheduled, a
    /// request scheduled then cancelled only cancelled, one cancelled then scheduled only
    /// scheduled (again last in order), one cancelled twice cancelled once with the last reason.
    @Test func effectsCollectTheLastWordOnEachRequest() {
        let at = Date(timeIntervalSince1970: 1_782_691_800)
        func request(_ id: String, _ text: String = "") -> ScheduledNotification {
            ScheduledNotification(
                id: id, type: "t", routine: nil, scheduledAt: at, day: 20_640, status: "scheduled", deepLink: nil, templateID: "x",
                sensitive: false, createdReason: "default", interruptionLevel: .active, relevance: 1, threadID: "t", category: "c",
                actions: [], title: nil, text: text, redacted: false)
        }
        let kinds: [EngineRecord.Kind] = [
            .notificationScheduled(request("a")), .notificationScheduled(request("b")), .notificationScheduled(request("c")),
            .notificationCancelled(request("b"), reason: .replanned), .notificationScheduled(request("b", "again")),
            .notificationScheduled(request("a", "replaced")), .notificationCancelled(request("d"), reason: .replanned),
            .notificationScheduled(request("d")), .notificationScheduled(request("e")), .notificationCancelled(request("e"), reason: .replanned),
            .notificationCancelled(request("f"), reason: .replanned), .notificationCancelled(request("f"), reason: .removedFromRuleset),
        ]
        let effects = Effects(records: kinds.map { EngineRecord(at: at, kind: $0) })
        #expect(effects.schedule.map(\.id) == ["a", "c", "b", "d"])
        #expect(effects.schedule.map(\.text) == ["replaced", "", "again", ""])
        #expect(effects.cancel == [Cancellation(id: "e", reason: .replanned), Cancellation(id: "f", reason: .removedFromRuleset)])
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
