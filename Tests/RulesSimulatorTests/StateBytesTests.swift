import Foundation
import RulesDocument
import RulesEngine
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// A saved state's bytes are `JSONEncoder`'s (sorted keys, slashes unescaped, dates as
/// seconds since 1970), written by `SortedJSONEncoder`: every state every shipped scenario
/// saves, and values chosen for the corners of numbers, strings and keys.
@Suite struct StateBytesTests {
    static let root = Fixtures.repositoryRoot()
    static let ruleset = Ruleset.load(directory: root).ruleset ?? Ruleset()

    /// The oracle: Foundation's encoder with the state's options.
    static func foundationBytes<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(value)
    }

    @Test(arguments: StateAndProcessTests.scenarioFiles)
    func everyStateAShippedScenarioSavesIsWhatJSONEncoderWrites(_ name: String) throws {
        let text = try String(contentsOfFile: Self.root + "/scenarios/" + name, encoding: .utf8)
        let node = try #require(YAMLReader.parse(text, file: name).documents.first)
        let scenario = try #require(ScenarioLoader.load(node, file: name, source: nil, ruleset: Self.ruleset).scenario)
        var states = 0
        var differing = 0
        var first = ""
        var options = SimulationOptions()
        options.afterRun = { engine in
            states += 1
            let state = engine.state
            let ours = [UInt8]((try? state.encoded()) ?? Data())
            let theirs = [UInt8]((try? Self.foundationBytes(state)) ?? Data())
            guard ours.isEmpty || ours != theirs else { return }
            differing += 1
            if first.isEmpty { first = Self.firstDifference(ours, theirs) }
        }
        _ = Simulation.run(scenario, ruleset: Self.ruleset, options: options)
        #expect(states > 0, "\(name): no app run")
        #expect(differing == 0, "\(name): \(differing) of \(states) states differ; the first: \(first)")
    }

    /// Where two texts part, with a little of each around it.
    static func firstDifference(_ ours: [UInt8], _ theirs: [UInt8]) -> String {
        let at = zip(ours, theirs).prefix { $0 == $1 }.count
        func window(_ bytes: [UInt8]) -> String { String(decoding: bytes[max(0, at - 40)..<min(bytes.count, at + 40)], as: UTF8.self) }
        return "byte \(at): ours …\(window(ours))… JSONEncoder's …\(window(theirs))…"
    }

    struct Corners: Codable {
        var numbers: [Double]
        var whole: [Int64]
        var small: [UInt8]
        var fractions: [Float]
        var texts: [String]
        var keys: [String: Int]
        var date: Date
        var dates: [Date]
        var nothing: Int?
        var nested: [[String: [Int?]]]
        var empty: Empty
    }

    /// A value that encodes nothing (`{}`), and one that writes a key twice and a super.
    struct Empty: Codable {
        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .twice)
            try container.encode("last", forKey: .twice)
            try Date(timeIntervalSince1970: 1.5).encode(to: container.superEncoder())
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(0.25)
            try list.encodeNil()
            try Empty.Nothing().encode(to: list.superEncoder())
        }
        enum Keys: String, CodingKey { case twice, list }
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    }

    static let corners = Corners(
        numbers: [
            1, 0.1, 1e20, 1e21, 1e16, 1.5e-7, 123_456_789, -0.0, 0.5, 1e-5, 0.0001, 2.5e15, 9_007_199_254_740_992, 1.0000000000000002, 1e300,
            9_007_199_254_740_990, 9_007_199_254_740_994, -4_503_599_627_370_497,
            Double.leastNonzeroMagnitude, 0.1 + 0.2, -3.75, Double(Int64.max), 1_000_000_000,
        ],
        whole: [0, -1, Int64.min, Int64.max], small: [0, 255], fractions: [0.1, 16_777_215, 16_777_216, 16_777_218, 1e10, -0.0, 2.5],
        texts: [
            "a\"b\\c/d", "\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1a}\u{1f}\u{7f}", "한글 \u{2028}\u{2029} 😀", "e\u{301} é", "", "끝\n",
        ],
        keys: [
            "b": 1, "B": 2, "a10": 3, "a9": 4, "_x": 5, "Z": 6, "é": 7, "e": 8, "item10": 9, "item2": 10, "": 11, "물": 12, "water": 13,
            "routines.skincare": 14, "routines.skin": 15, "routines.skincare.value": 16, "routines": 17, "routines\u{0}": 18,
            "숙면 루틴 기록": 19, "숙면 루틴": 20,
        ],
        date: Date(timeIntervalSince1970: 1_700_000_000.25), dates: [Date(timeIntervalSince1970: 86_400), Date(timeIntervalSince1970: -1.5)],
        nothing: nil, nested: [["x": [1, nil]], [:]], empty: Empty())

    @Test func theCornersOfNumbersStringsAndKeysAreWhatJSONEncoderWrites() throws {
        let ours = try SortedJSONEncoder().encode(Self.corners)
        let theirs = try Self.foundationBytes(Self.corners)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
        // Top-level values of every kind.
        #expect(try SortedJSONEncoder().encode(Date(timeIntervalSince1970: 86_400)) == Self.foundationBytes(Date(timeIntervalSince1970: 86_400)))
        #expect(try SortedJSONEncoder().encode("/") == Self.foundationBytes("/"))
        #expect(try SortedJSONEncoder().encode([Empty.Nothing()]) == Self.foundationBytes([Empty.Nothing()]))
    }

    @Test func aNumberThatIsNotFiniteIsAnErrorWithItsPath() {
        var corners = Self.corners
        corners.numbers[3] = .infinity
        #expect(throws: EncodingError.self) { try Self.foundationBytes(corners) }
        do {
            _ = try SortedJSONEncoder().encode(corners)
            Issue.record("an infinite number was written")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["numbers", "Index 3"])
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
