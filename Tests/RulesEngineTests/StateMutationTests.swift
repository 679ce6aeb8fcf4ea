import Foundation
import TestSupport
import Testing

@testable import RulesEngine

/// A saved state is input: the app reads whatever the disk gives back. Every number of a
/// real state (a morning and an evening with requests pending and delivered) is replaced by
/// extreme values in turn, and every string value by hostile ones; each state the decoder
/// accepts must live on — a run the same day, a log, a tick, the next morning (which closes
/// the day) — and save again, without trapping.
@Suite struct StateMutationTests {
    static let extremes = ["1e300", "-1e300", "1e19", "-1e19", "9.2e18", "-9.2e18", "4.6e15", "-4.6e15", "1e12", "-86401", "-1", "0.5"]

    /// Strings a value may become: empty, foreign, long, control characters, a lone
    /// surrogate, a huge log number, a time zone with a NUL.
    static let hostileStrings = [
        "\"\"", "\"x\"", "\"" + String(repeating: "가", count: 5_000) + "\"", "\"log_99999999999999999999999999\"", "\"\\u0000\"",
        "\"\\ud800\"", "\"Asia/Seoul\\u0000\"", "\"24:00\"", "null", "[]", "{}",
    ]

    /// A real state: a morning, then the evening run with requests pending and delivered.
    static func evening() throws -> [UInt8] {
        var engine = EngineStateTests().morning()
        engine.handle(.appOpened(health: EngineStateTests.health(steps: 3000, sleep: 330)), at: EngineStateTests.at(21, 10))
        return [UInt8](try engine.state.encoded())
    }

    /// Decodes `data`; when the state is accepted, lives on from it and saves it again.
    /// Returns whether it was accepted.
    static func livesOnIfAccepted(_ data: Data) -> Bool {
        guard let state = EngineState.decode(data).state, var restored = OperatorEngine(ruleset: Shipped.ruleset, state: state) else {
            return false
        }
        restored.handle(.appOpened(health: EngineStateTests.health(steps: 4000)), at: EngineStateTests.at(22))
        restored.handle(.log(routine: "water", value: 250, unit: nil, source: .widget), at: EngineStateTests.at(22, 5))
        restored.handle(.check(routine: "skincare", item: "세수"), at: EngineStateTests.at(22, 6))
        let tomorrow = EngineStateTests.seoul.instant(day: EngineStateTests.day + 1, seconds: 8 * 3600)
        restored.handle(.appOpened(health: EngineStateTests.health(steps: 100)), at: tomorrow)
        _ = try? restored.state.encoded()
        return true
    }

    /// How many of `original` with one span replaced by one of `replacements` were accepted
    /// (each accepted one lived on, see `livesOnIfAccepted`).
    static func acceptedMutations(of original: [UInt8], at spans: [Range<Int>], with replacements: [String]) -> Int {
        var accepted = 0
        for span in spans {
            for replacement in replacements where livesOnIfAccepted(Data(JSONSpans.replacing(original, span, with: replacement))) {
                accepted += 1
            }
        }
        return accepted
    }

    @Test func everyNumberOfASavedStateAtItsExtremesIsRefusedOrLivesOn() throws {
        let original = try Self.evening()
        let spans = JSONSpans.values(original).numbers
        #expect(spans.count > 40, "\(spans.count) numbers")
        #expect(Self.acceptedMutations(of: original, at: spans, with: Self.extremes) > 0)
    }

    @Test func everyStringOfASavedStateMadeHostileIsRefusedOrLivesOn() throws {
        let original = try Self.evening()
        let spans = JSONSpans.values(original).strings
        #expect(spans.count > 40, "\(spans.count) strings")
        #expect(Self.acceptedMutations(of: original, at: spans, with: Self.hostileStrings) > 0)
    }
}
