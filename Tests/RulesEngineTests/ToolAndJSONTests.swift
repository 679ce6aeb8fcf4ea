import Foundation
import RulesDocument
import RulesEngine
import Ruleset
import Testing

@Suite struct ToolValidatorTests {
    let validator = ToolValidator(ruleset: Shipped.ruleset)

    @Test(arguments: [
        (#"{"name":"log_habit_event","arguments":{"routine":"water","value":300,"unit":"ml"}}"#, "accepted", nil as String?),
        (#"{"name":"no_action","arguments":{}}"#, "accepted", nil),
        (#"{"name":"no_action"}"#, "accepted", nil),
        (#"{"name":"log_habit_event","arguments":{"value":15}}"#, "clarify", "ask for routine"),
        (#"{"name":"launch_missiles","arguments":{}}"#, "rejected", "unknown_tool"),
        (#"{"name":"log_habit_event","arguments":{"routine":"water","value":300,"mood":"sad"}}"#, "rejected", "unknown_argument"),
        (#"{"name":"log_habit_event","arguments":{"routine":"water","value":"300"}}"#, "rejected", "wrong_type"),
        (#"{"name":"log_habit_event","arguments":{"routine":"water","value":true}}"#, "rejected", "wrong_type"),
        (#"{"name":"log_habit_event","arguments":{"routine":"water","value":-1}}"#, "rejected", "out_of_range"),
        (#"{"name":"log_habit_event","arguments":{"routine":"water","value":1e400}}"#, "rejected", "out_of_range"),
        (#"{"name":"log_habit_event","arguments":{"routine":"watr","value":1}}"#, "rejected", "out_of_range"),
        (#"{"name":"log_habit_event","arguments":{"routine":"study","value":15,"unit":"ml"}}"#, "rejected", "unit_mismatch"),
        (#"{"name":"log_habit_event","arguments":{"routine":"study","value":15,"unit":"litres"}}"#, "rejected", "out_of_range"),
        (#"{"name":"start_timer","arguments":{"routine":"study","minutes":2.5}}"#, "rejected", "wrong_type"),
        (#"{"name":"start_timer","arguments":{"routine":"study","minutes":99999999999999999999}}"#, "rejected", "out_of_range"),
        (#"{"name":"log_habit_event","arguments":{"routine":"water","routine":"study","value":1}}"#, "rejected", "malformed_json"),
        (#"{"name":"log_habit_event","arguments":{"routine":"water","value":1}"#, "rejected", "malformed_json"),
        (#"{"name":"log_habit_event","arguments":[1,2]}"#, "rejected", "malformed_json"),
        (#"{"name":3}"#, "rejected", "malformed_json"),
        (#"{"name":"no_action","extra":1}"#, "rejected", "malformed_json"),
        ("", "rejected", "malformed_json"),
        ("[]", "rejected", "malformed_json"),
        (#"{"name":"ask_clarifying_question","arguments":{"question":"몇 분 공부했어?"}}"#, "accepted", nil),
    ])
    func verdicts(json: String, outcome: String, reason: String?) {
        let (verdict, _) = validator.validate(json)
        #expect(verdict.outcome.rawValue == outcome, "\(json)")
        #expect(verdict.reason == reason, "\(json)")
    }

    /// A number past 10^9 is out of range even where the tool declares no maximum: a goal or
    /// a quest's steps past it would make the engine's saved state refused at the next load.
    @Test func numbersPastTheEnginesBoundAreOutOfRangeWithoutADeclaredMaximum() throws {
        let unbounded = try Shipped.variant([
            ("rules/tools.yaml", "goal:    { type: number, min: 1, max: 100000, required: true }", "goal:    { type: number, required: true }")
        ])
        let validator = ToolValidator(ruleset: unbounded)
        for (goal, outcome) in [("1000000000", "accepted"), ("1000000001", "rejected"), ("1e300", "rejected"), ("-1000000001", "rejected")] {
            let (verdict, _) = validator.validate(#"{"name":"set_goal","arguments":{"routine":"water","goal":"# + goal + "}}")
            #expect(verdict.outcome.rawValue == outcome, "\(goal)")
        }
    }

    @Test func hostileNestingAndSizeAreRejectedNotTrapped() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(validator.validate(#"{"name":"no_action","arguments":"# + deep + "}").verdict.reason == "too_deep")
        let huge = #"{"name":"no_action","arguments":{"x":""# + String(repeating: "a", count: 70_000) + #""}}"#
        #expect(validator.validate(huge).verdict.reason == "too_large")
        // 32 levels of nesting pass, 33 do not (the call object is the first level).
        func nested(_ levels: Int) -> String {
            #"{"name":"no_action","arguments":{"x":"# + String(repeating: "[", count: levels - 2) + "1" + String(repeating: "]", count: levels - 2)
                + "}}"
        }
        #expect(validator.validate(nested(32)).verdict.reason != "too_deep")
        #expect(validator.validate(nested(33)).verdict.reason == "too_deep")
        let bad = String(decoding: [0x7B, 0xFF, 0x7D], as: UTF8.self)
        #expect(validator.validate(bad).verdict.outcome == .rejected)
    }
}

@Suite struct JSONReaderTests {
    @Test func readsValuesWithPositions() throws {
        let parsed = JSONReader.parse("{\n  \"a\": [1, 2.5, -3e2, true, null],\n  \"b\": \"물\\n\\u00e9\\ud83d\\ude00\"\n}", file: "x.json")
        #expect(parsed.isClean)
        let root = try #require(parsed.documents.first)
        #expect(root["a"]?.items?.map(\.scalar) == ["1", "2.5", "-3e2", "true", "null"])
        #expect(root["b"]?.scalar == "물\né😀")
        #expect(root["b"]?.start.line == 3)
        #expect(root["b"]?.start.column == 8)
    }

    @Test(arguments: [
        ("{\"a\":1,\"a\":2}", "json.duplicate_key"), ("[1,]", "json.syntax"), ("{'a':1}", "json.syntax"),
        ("01", "json.syntax"), ("\"\\x\"", "json.syntax"), ("\"\u{01}\"", "json.syntax"), ("[1] 2", "json.syntax"),
        ("\"\\ud800\"", "json.syntax"), ("tru", "json.syntax"), ("", "json.syntax"),
    ])
    func refusesBadJSON(text: String, code: String) {
        #expect(JSONReader.parse(text, file: "x.json").diagnostics.first?.code.rawValue == code)
    }
}

/// The state's decoder reads the tree `JSONReader` already checked, as strictly as JSON: a
/// value of the wrong kind, a fraction where a whole number belongs, a missing key or a
/// refused date is an error naming where it is.
@Suite struct NodeDecoderTests {
    struct Sample: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double
        var on: Bool
        var note: String?
        var at: Date
        var tags: [String]
        var byName: [String: Int]
    }

    static func node(_ text: String) throws -> YAMLNode {
        let parsed = JSONReader.parse(text, file: "t")
        return try #require(parsed.documents.first, "\(parsed.diagnostics)")
    }

    static let decoder = NodeDecoder { $0 >= 0 ? nil : "the date \($0) is before 1970" }

    @Test func decodesWhatJSONEncoderWrote() throws {
        let sample = Sample(
            name: "물 \"한\" 컵\n\u{1F600}", count: -3, ratio: 0.25, on: true, note: nil, at: Date(timeIntervalSince1970: 1_782_691_800),
            tags: ["a", ""], byName: ["x": 1, "y": 2])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let text = String(decoding: try encoder.encode(sample), as: UTF8.self)
        #expect(try Self.decoder.decode(Sample.self, from: try Self.node(text)) == sample)
        // Escapes, including a surrogate pair, read as JSONDecoder reads them.
        let escaped = #"{"name":"\ubb3c\n\ud83d\ude00\/","count":1e2,"ratio":1,"on":false,"note":null,"at":0,"tags":[],"byName":{}}"#
        let decoded = try Self.decoder.decode(Sample.self, from: try Self.node(escaped))
        #expect(decoded.name == "물\n\u{1F600}/" && decoded.count == 100 && decoded.note == nil)
    }

    @Test(arguments: [
        (#"{"name":1,"count":1,"ratio":1,"on":true,"at":0,"tags":[],"byName":{}}"#, "name"),
        (#"{"name":"n","count":1.5,"ratio":1,"on":true,"at":0,"tags":[],"byName":{}}"#, "count"),
        (#"{"name":"n","count":1,"ratio":"1","on":true,"at":0,"tags":[],"byName":{}}"#, "ratio"),
        (#"{"name":"n","count":1,"ratio":1,"on":1,"at":0,"tags":[],"byName":{}}"#, "on"),
        (#"{"name":"n","count":1,"ratio":1,"on":true,"at":-5,"tags":[],"byName":{}}"#, "at"),
        (#"{"name":"n","count":1,"ratio":1,"on":true,"at":0,"tags":[1],"byName":{}}"#, "tags[0]"),
        (#"{"name":"n","count":1,"ratio":1,"on":true,"at":0,"tags":[],"byName":{"k":"v"}}"#, "byName.k"),
        (#"{"name":"n","count":99999999999999999999,"ratio":1,"on":true,"at":0,"tags":[],"byName":{}}"#, "count"),
        (#"{"name":"n","ratio":1,"on":true,"at":0,"tags":[],"byName":{}}"#, "count"),
    ])
    func refusesWithThePath(text: String, path: String) throws {
        do {
            _ = try Self.decoder.decode(Sample.self, from: try Self.node(text))
            Issue.record("decoded \(text)")
        } catch let error as DecodingError {
            let context: DecodingError.Context
            switch error {
            case .keyNotFound(let key, let found): context = DecodingError.Context(codingPath: found.codingPath + [key], debugDescription: "")
            case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found): context = found
            @unknown default: return
            }
            let named = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            #expect(String(named.drop { $0 == "." }) == path)
        }
    }
}
