import Foundation
import TestSupport
import Testing

@testable import RulesEngine

/// A saved state is bounded as the ruleset is: every number it holds within magnitude 10^9
/// (dates within the days the engine lives), HealthKit values as a sync keeps them, log
/// values from 0 to 10^9 (a kept log may be several merged, each at most 1,000,000). Past a
/// bound the state is `state.corrupt`, never a trap.
@Suite struct StateBoundsTests {
    /// An evening in recovery: a walking quest, route items, pending and delivered requests.
    static func recoveryEvening() throws -> [UInt8] {
        var engine = EngineStateTests().morning()
        engine.handle(.appOpened(health: EngineStateTests.health(steps: 3000, sleep: 330)), at: EngineStateTests.at(21, 10))
        #expect(engine.snapshot?.quest != nil)
        return [UInt8](try engine.state.encoded())
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        let load = EngineState.decode(Data(bytes))
        guard load.state == nil else { return nil }
        return load.diagnostics.first?.code.rawValue
    }

    /// The first `"key":number` of the state with the number replaced.
    static func replacing(_ key: String, in bytes: [UInt8], with replacement: String) throws -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let range = try #require(text.range(of: "\"\(key)\":-?[0-9.eE+-]+", options: .regularExpression), "\(key)")
        return Array(text.replacingCharacters(in: range, with: "\"\(key)\":\(replacement)").utf8)
    }

    @Test func everyNumberPastItsBoundIsRefused() throws {
        let original = try Self.recoveryEvening()
        let spans = JSONSpans.values(original).numbers
        #expect(spans.count > 40)
        for span in spans {
            // A date (seconds since 1970) of 1,000,000,001 is a day of 2001, which the engine lives.
            let isDate = (Double(String(decoding: original[span], as: UTF8.self)) ?? 0) > 1e9
            for past in ["9223372036854775807", "-9223372036854775808", "1e308", "-1000000001"] + (isDate ? [] : ["1000000001"]) {
                let mutated = JSONSpans.replacing(original, span, with: past)
                // (The format's version past its bound is refused as a newer or malformed version.)
                #expect(Self.refusal(mutated) != nil, "\(String(decoding: original[span], as: UTF8.self)) → \(past)")
            }
        }
    }

    /// The cases that trapped or were taken: a quest target or start of 2^63−1 (overflow
    /// in the quest's sums), sleep of −1 minutes, steps of 2^63−1, a log value of 1e308.
    @Test(arguments: [
        ("targetDelta", "9223372036854775807"), ("startSteps", "9223372036854775807"), ("startSteps", "-9223372036854775808"),
        ("sleepMinutes", "-1"), ("stepsToday", "9223372036854775807"), ("value", "1e308"), ("value", "1000000001"), ("value", "-1"),
        ("sleepMinutes", "1441"), ("startSteps", "-5"),
    ])
    func aValueTheEngineCouldTrapOnIsCorrupt(_ key: String, _ value: String) throws {
        let mutated = try Self.replacing(key, in: try Self.recoveryEvening(), with: value)
        #expect(Self.refusal(mutated) == "state.corrupt")
    }

    /// The bounds themselves are accepted and live on.
    @Test func aStateAtItsBoundsLivesOn() throws {
        var bytes = try Self.recoveryEvening()
        bytes = try Self.replacing("targetDelta", in: bytes, with: "1000000000")
        bytes = try Self.replacing("stepsToday", in: bytes, with: "1000000000")
        bytes = try Self.replacing("sleepMinutes", in: bytes, with: "1440")
        // The water log's 500 ml at 10^9, as a day of merged logs may keep it.
        let text = String(decoding: bytes, as: UTF8.self)
        let water = try #require(text.range(of: "\"value\":500"))
        bytes = Array(text.replacingCharacters(in: water, with: "\"value\":1000000000").utf8)
        #expect(Self.refusal(bytes) == nil)
        #expect(StateMutationTests.livesOnIfAccepted(Data(bytes)))
    }
}
