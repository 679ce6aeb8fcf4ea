import Foundation
import Testing

/// The engine's parts decide and return outcomes; one file, `Engine+Outcomes.swift`, applies
/// them: no other file of the engine's own writes a stored property of `OperatorEngine`
/// (assignment, compound assignment, `&` for an inout or a mutating call on it) outside an
/// initialiser.
struct OneApplyTests {
    /// The engine's stored properties (and `profile`, whose setter stores).
    static let state = [
        "prepared", "clock", "profile", "storedProfile", "profileBox", "day", "lastPermissions", "stateRulesetSHA256", "needsReconciliation",
        "settingsFittedAtStart", "pending", "refused", "delivered", "decisions", "records", "memos", "recordsKept", "explains", "verification",
    ]
    static let mutators = [
        "append", "removeAll", "remove", "insert", "take", "dropSnapshot", "removeLogs", "updateLogs", "appendLog", "forgetEarned", "earn",
        "patch", "put", "merge", "sort",
    ]
    static let applyFile = "Engine+Outcomes.swift"

    /// The writes of engine state in `text`, as `line: code`, skipping initialisers' bodies
    /// and declarations (a stored property's default, a local of the same name).
    static func writes(in text: String) -> [String] {
        let names = state.joined(separator: "|")
        let chain = #"(?:\?|\.[A-Za-z_]\w*|\[[^\]]*\])*"#
        let assignment = (#"(?<![\w.$])(?<!let |var )(?:self\.)?(?:"# + names + #")\b"# + chain + #"\s*(?:=(?!=)|\+=|-=|\*=)"#)
        let passed = (#"&(?:self\.)?(?:"# + names + #")\b"#)
        let call = (#"(?<![\w.$])(?:self\.)?(?:"# + names + #")\b"# + chain + #"\.(?:"# + mutators.joined(separator: "|") + #")\("#)
        var found: [String] = []
        var initDepth: Int?
        var depth = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = SourceLimitsTests.code(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if initDepth == nil,
                trimmed.range(of: #"^(public |package |private |fileprivate )?(convenience )?init[?!]?\("#, options: .regularExpression) != nil
            {
                initDepth = depth
            }
            depth += line.count { $0 == "{" } - line.count { $0 == "}" }
            if let start = initDepth {
                if depth <= start, line.contains("}") { initDepth = nil }
                continue
            }
            if [assignment, passed, call].contains(where: { line.range(of: $0, options: .regularExpression) != nil }) {
                found.append("\(index + 1): \(trimmed)")
            }
        }
        return found
    }

    @Test func engineStateIsWrittenInOneFile() throws {
        var scanned = 0
        var applies = 0
        for file in SourceLimitsTests.engineSources where SourceLimitsTests.engineFiles.contains(file.lastPathComponent) {
            let text = try String(contentsOf: file, encoding: .utf8)
            let writes = Self.writes(in: text)
            if file.lastPathComponent == Self.applyFile {
                applies = writes.count
                continue
            }
            scanned += 1
            for write in writes {
                Issue.record("\(file.lastPathComponent):\(write) — return it in the part's outcome and apply it in \(Self.applyFile)")
            }
        }
        #expect(scanned >= 8)
        // The scan sees writes where they are (it is not looking at nothing).
        #expect(applies >= 10)
    }

    /// The scan on a known-wrong file: each kind of write is found, initialisers are not.
    @Test func theScanFindsEachKindOfWrite() throws {
        let text = """
            init(x: Int) {
                records = []
                day = nil
            }
            mutating func f() {
                day?.logs[3].value = 2
                records.append(record)
                swap(&pending, &other)
                self.memos = EngineMemos()
                let copy = day
                var records = [EngineRecord]()
                if day == nil { note(at: time, .x) }
                shadow.records = []
            }
            """
        let found = Self.writes(in: text)
        #expect(found.map { $0.prefix(while: { $0 != ":" }) } == ["6", "7", "8", "9"])
    }
}
