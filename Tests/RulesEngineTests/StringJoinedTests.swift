import Testing

@testable import RulesEngine

/// Ids are written by `String.joined` (request ids, log ids): the three parts, whole and in
/// order, whatever their length or script.
@Suite struct StringJoinedTests {
    @Test(arguments: [
        ("routine_reminder", "water"), ("", "x"), ("x", ""), ("", ""), ("물 마시기", "스킨케어"),
        (String(repeating: "a", count: 40), String(repeating: "가", count: 30)),
    ])
    func joinsThePartsWhole(_ a: String, _ b: String) {
        let joined = String.joined(a, ".", b)
        #expect(joined == a + "." + b)
        #expect(joined.utf8.count == a.utf8.count + 1 + b.utf8.count)
    }

    @Test func idsKeepTheirShape() {
        #expect(String.joined(String.joined("routine_reminder", ".", "water"), ".", "20260721") == "routine_reminder.water.20260721")
        #expect(String.joined("log_20260721", "_", threeDigits(7)) == "log_20260721_007")
    }
}
