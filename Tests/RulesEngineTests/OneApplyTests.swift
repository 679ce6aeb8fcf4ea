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
        "settingsFittedAtStart", "pending", "refused", "delivered", "decisions", "records", "memos", "recordsKept", "explains",
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
                self.memos = MemoLayer()
                let copy = day
                var records = [EngineRecord]()
                if day == nil { note(at: time, .x) }
                shadow.records = []
            }
            """
        let found = Self.writes(in: text)
        #expect(found.map { $0.prefix(while: { $0 != ":" }) } == ["6", "7", "8", "9"])
    }

    /// The names of the `package` members (properties, methods, static methods) in `text`.
    static func packageMembers(in text: String) throws -> [String] {
        let regex = try Regex(#"^\s*package (?:internal\(set\) |private\(set\) )?(?:static )?(?:mutating )?(?:var|let|func) ([A-Za-z_]\w*)"#)
        return text.split(separator: "\n").compactMap { line -> String? in
            guard let match = String(line).firstMatch(of: regex), let name = match.output[1].substring else { return nil }
            return String(name)
        }
    }

    /// No test hook on the app's engine type: each `package` member of its own files is used
    /// by a host in the package (the simulator, the CLI, …), not only by tests.
    @Test func everyPackageMemberOfTheEngineHasAHost() throws {
        var members: [(file: String, name: String)] = []
        for file in SourceLimitsTests.engineSources where SourceLimitsTests.engineFiles.contains(file.lastPathComponent) {
            let text = try String(contentsOf: file, encoding: .utf8)
            // Only what is declared on the engine type (its own file and its extensions).
            guard text.contains("struct OperatorEngine") || text.contains("extension OperatorEngine") else { continue }
            members += try Self.packageMembers(in: text).map { (file.lastPathComponent, $0) }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var hosts = ""
        let walk = FileManager.default.enumerator(at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
        while let url = walk?.nextObject() as? URL {
            guard url.pathExtension == "swift", !url.path.contains("/Sources/RulesEngine/") else { continue }
            hosts += try String(contentsOf: url, encoding: .utf8)
        }
        #expect(members.count >= 3)
        #expect(hosts.count > 100_000)
        for member in members where hosts.range(of: #"\.\#(member.name)\b"#, options: .regularExpression) == nil {
            Issue.record("\(member.file): package member `\(member.name)` is used by no host: make it internal (tests import the engine @testable)")
        }
    }

    @Test func packageMembersAreFound() throws {
        let text = """
                package var explanations: [String: Explanation] { [:] }
                package mutating func advance(to time: Date) -> [EngineRecord] {
                package static func explain(_ decision: DecisionID) -> Explanation? {
                var decisions = Decisions()
                public var state: EngineState {
            """
        #expect(try Self.packageMembers(in: text) == ["explanations", "advance", "explain"])
    }
}
