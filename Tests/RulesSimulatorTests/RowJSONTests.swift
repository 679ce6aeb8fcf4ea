import Foundation
import RulesDocument
import Testing

@testable import RulesFit

/// The features rows' own JSON reader accepts exactly what the general reader accepts, and
/// reads the same values.
@Suite struct RowJSONTests {
    static let texts = [
        #"{"a":1,"b":[1,2.5,-3e2],"c":{"d":"x\u00e9\ud83d\ude00\n"},"e":true,"f":false,"g":null}"#,
        #"  {"a" : [ ] , "b" : { } }  "#, #"{"a":"한국어"}"#, #"{"a":1,"a":2}"#, #"{"a":1,}"#, #"{"a":01}"#, #"{"a":1.}"#,
        #"{"a":.5}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":"\ud800"}"#, #"{"a":"\x"}"#, "{\"a\":\"\u{01}\"}", #"{"a":tru}"#,
        #"[0.1,1.5,-0.05,123456.789,1e400,-0,12345678901234567890,0.12345678901234567890123,2.5e-3,9007199254740993]"#,
        #"[3.14159265358979323846,1e-320,0.30000000000000004,4503599627370497.5,999999999999999999,1000000000000000000]"#,
        #"[9223372036854775807,9223372036854775808,-9223372036854775808,-9223372036854775809,18446744073709551616,0.000001]"#,
        #"{"a":1} x"#, #"{"a":[1 2]}"#, #"{a:1}"#, #"[[[[[[[[1]]]]]]]]"#, #"[[[[[[[[[1]]]]]]]]]"#, #"{"a":"\/\b\f\r\t\"\\"}"#,
        #"{"a":"unclosed}"#, "", "   ", Self.object(17, duplicate: 3), Self.object(18),
    ]

    /// An object of `count` keys, the last one `duplicate`'s key again when given.
    static func object(_ count: Int, duplicate: Int? = nil) -> String {
        var pairs = (0..<count).map { "\"k\($0)\":\($0)" }
        if let duplicate { pairs.append("\"k\(duplicate)\":0") }
        return "{\(pairs.joined(separator: ","))}"
    }

    @Test(arguments: texts)
    func acceptsWhatTheGeneralReaderAccepts(_ text: String) {
        let general = JSONReader.parse(Array(text.utf8), file: "row", maxBytes: 1 << 20, maxDepth: RowJSON.maxDepth)
        let row = RowJSON.parse(ArraySlice(text.utf8))
        #expect((row != nil) == general.diagnostics.isEmpty, "\(text)")
        if let row, let node = general.documents.first { #expect(row.matches(node), "\(text)") }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        var bytes = Array(#"{"a":"xy"}"#.utf8)
        bytes[6] = 0xFF
        #expect(RowJSON.parse(ArraySlice(bytes)) == nil)
        #expect(!JSONReader.parse(bytes, file: "row").diagnostics.isEmpty)
    }

    @Test func aLargeObjectWithADuplicateKeyLateIsRefused() {
        let keys = (0..<300).map { "\"key\($0)\":\($0)" } + ["\"key7\":1"]
        #expect(RowJSON.parse(ArraySlice("{\(keys.joined(separator: ","))}".utf8)) == nil)
        #expect(RowJSON.parse(ArraySlice("{\(keys.dropLast().joined(separator: ","))}".utf8))?.pairs?.count == 300)
    }
}
