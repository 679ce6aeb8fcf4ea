import Foundation
import RulesEngine
import TestSupport
import Testing

/// A saved state is input: the app reads whatever the disk gives back. Every number of a
/// real state (a morning and an evening with requests pending and delivered) is replaced by
/// extreme values in turn; each state the decoder accepts must live on — a run the same day,
/// a log, the next morning (which closes the day) — and save again, without trapping.
@Suite struct StateMutationTests {
    static let extremes = ["1e300", "-1e300", "1e19", "-1e19", "9.2e18", "-9.2e18", "4.6e15", "-4.6e15", "1e12", "-86401", "-1", "0.5"]

    /// The byte ranges of every number in JSON text (strings skipped).
    static func numberSpans(_ bytes: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index += 1
            } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                let start = index
                while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                spans.append(start..<index)
            } else {
                index += 1
            }
        }
        return spans
    }

    @Test func everyNumberOfASavedStateAtItsExtremesIsRefusedOrLivesOn() throws {
        let seoul = EngineStateTests.seoul
        var engine = EngineStateTests().morning()
        engine.handle(.appOpened(health: EngineStateTests.health(steps: 3000, sleep: 330)), at: EngineStateTests.at(21, 10))
        let original = [UInt8](try engine.state.encoded())
        let spans = Self.numberSpans(original)
        #expect(spans.count > 40, "\(spans.count) numbers")
        var accepted = 0
        for span in spans {
            for extreme in Self.extremes {
                let data = Data(original[..<span.lowerBound] + Array(extreme.utf8) + original[span.upperBound...])
                guard let state = EngineState.decode(data).state,
                    var restored = OperatorEngine(ruleset: Shipped.ruleset, state: state)
                else { continue }
                accepted += 1
                restored.handle(.appOpened(health: EngineStateTests.health(steps: 4000)), at: EngineStateTests.at(22))
                restored.handle(.log(routine: "water", value: 250, unit: nil, source: .widget), at: EngineStateTests.at(22, 5))
                let tomorrow = seoul.instant(day: EngineStateTests.day + 1, seconds: 8 * 3600)
                restored.handle(.appOpened(health: EngineStateTests.health(steps: 100)), at: tomorrow)
                _ = try? restored.state.encoded()
            }
        }
        #expect(accepted > 0)
    }
}
