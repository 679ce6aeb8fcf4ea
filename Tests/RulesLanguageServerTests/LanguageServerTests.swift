import Foundation
import RulesLanguageServer
import TestSupport
import Testing

/// The base protocol's framing: split and coalesced messages, bad headers, oversize bodies.
@Suite struct MessageFramerTests {
    static func framed(_ text: String) -> [UInt8] { MessageFramer.frame(Array(text.utf8)) }

    @Test func aMessageSplitAcrossReadsAndSeveralInOneRead() {
        let bytes = Self.framed("{\"a\":1}") + Self.framed("{\"b\":2}") + Self.framed("{\"c\":3}")
        var framer = MessageFramer()
        var bodies: [String] = []
        // One byte at a time: every message arrives whole and in order.
        for byte in bytes {
            for result in framer.append([byte]) { if case .success(let body) = result { bodies.append(String(decoding: body, as: UTF8.self)) } }
        }
        #expect(bodies == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
        // All in one read.
        var whole = MessageFramer()
        let all = whole.append(bytes).compactMap { try? $0.get() }.map { String(decoding: $0, as: UTF8.self) }
        #expect(all == bodies)
    }

    @Test func headersMayCarryAContentTypeAndAnyCase() {
        var framer = MessageFramer()
        let text = "content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
        let results = framer.append(Array(text.utf8))
        #expect(results.count == 1)
        #expect((try? results[0].get()) == Array("{}".utf8))
    }

    @Test func aBadHeaderIsReportedAndTheStreamGoesOn() {
        var framer = MessageFramer()
        let results = framer.append(Array("Content-Length: twelve\r\n\r\n".utf8) + Self.framed("{}"))
        #expect(results.count == 2)
        if case .failure(.badHeader(let what)) = results[0] { #expect(what.contains("twelve")) } else { Issue.record("\(results[0])") }
        #expect((try? results[1].get()) == Array("{}".utf8))
        var missing = MessageFramer()
        #expect(missing.append(Array("X-Other: 1\r\n\r\n".utf8)).count == 1)
    }

    @Test func anOversizeBodyIsSkippedWithoutKeepingIt() {
        var framer = MessageFramer(maxBody: 10)
        var results = framer.append(Array("Content-Length: 1000\r\n\r\n".utf8) + Array(repeating: 65, count: 400))
        // Reported once its first 1,024 bytes (or all of it) have come, with them.
        #expect(results.isEmpty)
        results = framer.append(Array(repeating: 66, count: 600) + Self.framed("{}"))
        #expect(results.count == 2)
        let head = Array(repeating: UInt8(65), count: 400) + Array(repeating: 66, count: 600)
        #expect(results.first.map { if case .failure(.tooLarge(1000, head: head)) = $0 { true } else { false } } == true)
        #expect((try? results[1].get()) == Array("{}".utf8))
        // A header that never ends is refused after 8 KiB, not kept.
        var endless = MessageFramer()
        #expect(endless.append(Array(repeating: 65, count: 9000)).count == 1)
    }
}

/// The server's answers, in process: initialize, diagnostics as the buffer changes, shutdown.
@Suite struct LanguageServerTests {
    final class Sent: @unchecked Sendable {
        var messages: [String] = []
    }

    static func server() -> (LanguageServer, Sent) {
        let sent = Sent()
        var framer = MessageFramer()
        let server = LanguageServer { bytes in
            for result in framer.append(bytes) { if case .success(let body) = result { sent.messages.append(String(decoding: body, as: UTF8.self)) } }
        }
        return (server, sent)
    }

    static func message(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func json(_ value: Any) -> [UInt8] { Array((try? JSONSerialization.data(withJSONObject: value)) ?? Data()) }

    @Test func initializeAnswersWithWhatIsServedAndRequestsBeforeItAreRefused() {
        let (server, sent) = Self.server()
        server.receive(Self.message(#"{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}"#))
        #expect(sent.messages.last?.contains("\"code\":-32002") == true)
        server.receive(Self.message(#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"rootUri":null,"capabilities":{}}}"#))
        #expect(sent.messages.last?.contains("\"id\":2") == true)
        #expect(sent.messages.last?.contains("\"change\":2") == true, "incremental sync")
        server.receive(Self.message(#"{"jsonrpc":"2.0","id":"x","method":"no/such","params":{}}"#))
        #expect(sent.messages.last?.contains("\"id\":\"x\"") == true && sent.messages.last?.contains("-32601") == true)
        server.receive(Self.message("not json"))
        #expect(sent.messages.last?.contains("-32700") == true)
        server.receive(Self.message(#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#))
        server.receive(Self.message(#"{"jsonrpc":"2.0","method":"exit"}"#))
        #expect(server.exitCode == 0)
        let (rude, _) = Self.server()
        rude.receive(Self.message(#"{"jsonrpc":"2.0","method":"exit"}"#))
        #expect(rude.exitCode == 1, "exit without shutdown")
    }

    /// An unknown fact typed into a copy of the shipped notifications shows as a diagnostic with
    /// its code, range (UTF-16, after Hangul) and reference link; an incremental edit that fixes
    /// it clears it.
    @Test func diagnosticsFollowTheUnsavedBuffer() throws {
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let (server, sent) = Self.server()
        server.receive(Self.json(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["rootUri": "file://" + root, "capabilities": [:]]]))
        let uri = "file://" + root + "/rules/extra.yaml"
        let text =
            "# 알림 하나\nnotifications:\n  - id: evening_extra\n    category: nudge\n    at: \"20:00\"\n    when: completion_rat < 0.6\n    template: checkin_ready\n"
        server.receive(
            Self.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": text]],
            ]))
        #expect(server.diagnosticsDue)
        server.publishDiagnostics()
        let published = try #require(sent.messages.last { $0.contains("publishDiagnostics") && $0.contains("extra.yaml") })
        #expect(published.contains("\"code\":\"type.unknown_fact\""), "\(published)")
        #expect(published.contains("\"start\":{\"line\":5,\"character\":10}"), "\(published)")
        #expect(published.contains("\"end\":{\"line\":5,\"character\":24}"), "\(published)")
        #expect(published.contains("\"severity\":1"))
        #expect(published.contains("\"version\":1"))
        // Fix it with an incremental change: insert "e" after "completion_rat".
        server.receive(
            Self.json([
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": [
                    "textDocument": ["uri": uri, "version": 2],
                    "contentChanges": [["range": ["start": ["line": 5, "character": 24], "end": ["line": 5, "character": 24]], "text": "e"]],
                ],
            ]))
        server.publishDiagnostics()
        let cleared = try #require(sent.messages.last { $0.contains("publishDiagnostics") && $0.contains("extra.yaml") })
        #expect(!cleared.contains("type.unknown_fact"), "\(cleared)")
        #expect(cleared.contains("\"version\":2"))
    }

    /// A change in a template file re-diagnoses the notification that names it (in another
    /// file): removing the template makes the notification's reference unknown.
    @Test func aTemplateChangeReDiagnosesTheNotificationsThatNameIt() throws {
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates"])
        let (server, sent) = Self.server()
        server.receive(Self.json(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["rootUri": "file://" + root, "capabilities": [:]]]))
        let path = root + "/templates/notifications.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let renamed = text.replacingOccurrences(of: "id: checkin_ready", with: "id: checkin_ready_renamed")
        #expect(renamed != text)
        server.receive(
            Self.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": ["textDocument": ["uri": "file://" + path, "languageId": "yaml", "version": 1, "text": renamed]],
            ]))
        server.publishDiagnostics()
        #expect(
            sent.messages.contains { $0.contains("publishDiagnostics") && $0.contains("rules/notifications.yaml") && $0.contains("checkin_ready") })
    }
}

/// `rules lsp` as an editor runs it: a process on stdin and stdout, messages framed, the
/// diagnostics of an opened buffer arriving after the debounce, shutdown and exit ending it with 0.
@Suite struct LanguageServerProcessTests {
    /// Reads framed messages from a pipe until `stop` holds for one (or the pipe ends).
    static func read(_ handle: FileHandle, framer: inout MessageFramer, until stop: (String) -> Bool) -> String? {
        while true {
            let data = handle.availableData
            if data.isEmpty { return nil }
            for result in framer.append(data) {
                if case .success(let body) = result, stop(String(decoding: body, as: UTF8.self)) { return String(decoding: body, as: UTF8.self) }
            }
        }
    }

    @Test func theServerSpeaksOverStandardInputAndOutput() throws {
        let binary = try BuiltProduct.path("rules")
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["lsp"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        func send(_ value: Any) throws {
            input.fileHandleForWriting.write(Data(MessageFramer.frame(Array(try JSONSerialization.data(withJSONObject: value)))))
        }
        var framer = MessageFramer()
        try send(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["rootUri": "file://" + root, "capabilities": [:]]])
        let initialized = Self.read(output.fileHandleForReading, framer: &framer) { $0.contains("\"id\":1") }
        #expect(initialized?.contains("textDocumentSync") == true)
        let path = root + "/rules/route.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "completion_rate < 0.6", with: "completion_rat < 0.6")
        try send([
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": ["textDocument": ["uri": "file://" + path, "languageId": "yaml", "version": 1, "text": text]],
        ])
        let diagnostics = Self.read(output.fileHandleForReading, framer: &framer) { $0.contains("publishDiagnostics") && $0.contains("route.yaml") }
        #expect(diagnostics?.contains("type.unknown_fact") == true, "\(diagnostics ?? "nothing")")
        try send(["jsonrpc": "2.0", "id": 2, "method": "shutdown"])
        #expect(Self.read(output.fileHandleForReading, framer: &framer) { $0.contains("\"id\":2") } != nil)
        try send(["jsonrpc": "2.0", "method": "exit"])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// Completion, hover, definition and references on the shipped ruleset, in process.
@Suite struct EditorFeatureTests {
    static func started() throws -> (LanguageServer, LanguageServerTests.Sent, String) {
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let (server, sent) = LanguageServerTests.server()
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": ["rootUri": "file://" + root, "capabilities": [:]],
            ]))
        return (server, sent, root)
    }

    /// An edit that replaces the whole text of the open file `uri`.
    static func replaceText(_ server: LanguageServer, uri: String, version: Int, _ text: String) {
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]],
            ]))
    }

    static func ask(
        _ server: LanguageServer, _ sent: LanguageServerTests.Sent, _ method: String, _ path: String, _ line: Int, _ character: Int
    ) -> String {
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "id": 7, "method": method,
                "params": ["textDocument": ["uri": "file://" + path], "position": ["line": line, "character": character]],
            ]))
        return sent.messages.last ?? ""
    }

    /// The line and UTF-16 character just after `needle` in a file.
    static func position(after needle: String, in path: String) throws -> (Int, Int) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let range = line.range(of: needle) { return (index, line[..<range.upperBound].utf16.count) }
        }
        throw CocoaError(.fileReadUnknown)
    }

    @Test func factsCompleteInsideAnExpressionAndKeysFromTheSchema() throws {
        let (server, sent, root) = try Self.started()
        let path = root + "/rules/route.yaml"
        let (line, character) = try Self.position(after: "completion_ra", in: path)
        let facts = Self.ask(server, sent, "textDocument/completion", path, line, character)
        #expect(facts.contains("\"label\":\"completion_rate\""), "\(facts.prefix(500))")
        #expect(!facts.contains("\"label\":\"now\""), "filtered by the word typed")
        // A new key under a notification: the schema's keys.
        let notifications = root + "/rules/notifications.yaml"
        // After `template:`, the template ids.
        let (templateLine, templateCharacter) = try Self.position(after: "template: checkin_re", in: notifications)
        let ids = Self.ask(server, sent, "textDocument/completion", notifications, templateLine, templateCharacter)
        #expect(ids.contains("\"label\":\"checkin_ready\""), "\(ids.prefix(500))")
        let text = try String(contentsOfFile: notifications, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let item = try #require(lines.firstIndex { $0.contains("- id: morning_checkin") })
        var edited = lines.map(String.init)
        edited.insert("    deep", at: item + 1)
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": [
                    "textDocument": ["uri": "file://" + notifications, "languageId": "yaml", "version": 1, "text": edited.joined(separator: "\n")]
                ],
            ]))
        let keys = Self.ask(server, sent, "textDocument/completion", notifications, item + 1, 8)
        #expect(keys.contains("\"label\":\"deep_link\""), "\(keys.prefix(500))")
    }

    @Test func hoverShowsAFactAndATemplateAndDefinitionFindsTheTemplate() throws {
        let (server, sent, root) = try Self.started()
        let route = root + "/rules/route.yaml"
        let (line, character) = try Self.position(after: "completion_ra", in: route)
        let fact = Self.ask(server, sent, "textDocument/hover", route, line, character)
        #expect(fact.contains("**completion_rate**"), "\(fact)")
        let notifications = root + "/rules/notifications.yaml"
        let (templateLine, templateCharacter) = try Self.position(after: "template: checkin_re", in: notifications)
        let hover = Self.ask(server, sent, "textDocument/hover", notifications, templateLine, templateCharacter)
        #expect(hover.contains("**template checkin_ready**"), "\(hover)")
        #expect(hover.contains("오늘 루트가 준비됐어"), "\(hover)")
        let definition = Self.ask(server, sent, "textDocument/definition", notifications, templateLine, templateCharacter)
        #expect(definition.contains("templates/notifications.yaml"), "\(definition)")
        let references = Self.ask(server, sent, "textDocument/references", notifications, templateLine, templateCharacter)
        #expect(references.components(separatedBy: "\"uri\"").count - 1 >= 2, "the notification and the template: \(references)")
    }
}

/// The quick fix of a "did you mean" hint replaces the diagnostic's range with the suggestion.
@Suite struct QuickFixTests {
    @Test func aDidYouMeanHintIsAQuickFix() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        let uri = "file://" + root + "/rules/route.yaml"
        let range: [String: Any] = ["start": ["line": 6, "character": 26], "end": ["line": 6, "character": 40]]
        // The buffer has the typo the diagnostic is about (a fix is tried on the text first).
        let saved = try String(contentsOfFile: root + "/rules/route.yaml", encoding: .utf8)
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": [
                    "textDocument": [
                        "uri": uri, "languageId": "yaml", "version": 1,
                        "text": saved.replacingOccurrences(of: "now >= 18:00 && completion_rate", with: "now >= 18:00 && completion_rat"),
                    ]
                ],
            ]))
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "id": 9, "method": "textDocument/codeAction",
                "params": [
                    "textDocument": ["uri": uri], "range": range,
                    "context": [
                        "diagnostics": [
                            [
                                "range": range, "severity": 1, "code": "type.unknown_fact",
                                "message": "unknown fact 'completion_rat'\nhelp: did you mean 'completion_rate'?",
                            ]
                        ]
                    ],
                ],
            ]))
        let answer = try #require(sent.messages.last)
        #expect(answer.contains("\"title\":\"Replace with 'completion_rate'\""), "\(answer)")
        #expect(answer.contains("\"newText\":\"completion_rate\""))
        // The range comes back as the client sent it (key order is the client's).
        #expect(answer.contains("\"start\":{\"character\":26,\"line\":6}") || answer.contains("\"start\":{\"line\":6,\"character\":26}"))
        // A diagnostic without a suggestion has no fix.
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "id": 10, "method": "textDocument/codeAction",
                "params": [
                    "textDocument": ["uri": uri], "range": range, "context": ["diagnostics": [["range": range, "message": "something else"]]],
                ],
            ]))
        #expect(sent.messages.last?.contains("\"result\":[]") == true)
    }
}

/// Hostile input never traps the server: edits with ranges past the text, backwards, inside
/// a Hangul syllable's UTF-16 unit or a surrogate pair; deep JSON; a huge position; each
/// followed by diagnostics and every request kind.
@Suite struct HostileInputTests {
    @Test func randomEditsAndPositionsNeverTrap() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        let uri = "file://" + root + "/rules/route.yaml"
        let text = try String(contentsOfFile: root + "/rules/route.yaml", encoding: .utf8)
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": text + "\n# 한글 😀 \u{2028}\r\n"]],
            ]))
        var generator = SeededGenerator(state: 38)
        let pieces = ["", "x", "\n", "한", "😀", ":", "  - ", "{", "\"", "\u{0}", "\r\n", "when: now >= 21:00\n"]
        for round in 0..<300 {
            func number() -> Int { [0, 1, 2, 5, 7, 30, 1000, Int(Int32.max)][generator.next(8)] }
            let start: [String: Any] = ["line": number(), "character": number()]
            let end: [String: Any] = ["line": number(), "character": number()]
            server.receive(
                LanguageServerTests.json([
                    "jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": [
                        "textDocument": ["uri": uri, "version": round + 2],
                        "contentChanges": [["range": ["start": start, "end": end], "text": pieces[generator.next(pieces.count)]]],
                    ],
                ]))
            if round % 25 == 0 {
                server.publishDiagnostics()
                for method in ["textDocument/completion", "textDocument/hover", "textDocument/definition", "textDocument/references"] {
                    _ = EditorFeatureTests.ask(server, sent, method, root + "/rules/route.yaml", number(), number())
                }
            }
        }
        server.receive(Array(String(repeating: "[", count: 10_000).utf8))
        #expect(sent.messages.last?.contains("-32700") == true)
        server.receive(LanguageServerTests.json(["jsonrpc": "2.0", "id": 99, "method": "shutdown"]))
        #expect(sent.messages.last?.contains("\"id\":99") == true)
    }
}

/// The outline of every file kind: sections, and under them entries named by their ids.
@Suite struct DocumentSymbolTests {
    @Test func everyFileKindHasAnOutline() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        func outline(_ file: String) -> String {
            server.receive(
                LanguageServerTests.json([
                    "jsonrpc": "2.0", "id": 5, "method": "textDocument/documentSymbol",
                    "params": ["textDocument": ["uri": "file://" + root + "/" + file]],
                ]))
            return sent.messages.last ?? ""
        }
        let rules = outline("rules/notifications.yaml")
        #expect(rules.contains("\"name\":\"notifications\""), "\(rules.prefix(400))")
        #expect(rules.contains("\"name\":\"morning_checkin\""))
        #expect(rules.contains("\"name\":\"max_per_day\""))
        let routine = outline("routines/water.yaml")
        #expect(routine.contains("\"name\":\"water\"") && routine.contains("\"name\":\"goal\""), "\(routine.prefix(400))")
        let scenario = outline("scenarios/collapsed_day.yaml")
        #expect(scenario.contains("\"name\":\"events\"") && scenario.contains("\"name\":\"at 21:10\""), "\(scenario.prefix(600))")
        let templates = outline("templates/notifications.yaml")
        #expect(templates.contains("\"name\":\"checkin_ready\""))
    }
}

/// Every mechanical hint is a quick fix: am/pm times, spaced durations (or minutes), an
/// ambiguous 8:30, and the missing `routines.X.enabled &&`.
@Suite struct HintQuickFixTests {
    @Test func theHintsOfTimesDurationsAndConditionsAreQuickFixes() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        let uri = "file://" + root + "/rules/hints.yaml"
        let text = """
            settings:
              sleepy: { type: bool, default: true }
              early: { type: bool, default: true }
            notifications:
              - id: sleepy
                category: nudge
                at: 8:30pm
                when: (sleep.minutes ?? 420) < 6h 30m
                template: checkin_ready
              - id: early
                category: nudge
                at: 8:30
                when: routines.water.status != "completed"
                template: checkin_ready
              - id: quoted
                category: nudge
                at: "9:15"
                template: checkin_ready

            """
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": text]],
            ]))
        server.publishDiagnostics()
        let published = try #require(sent.messages.last { $0.contains("publishDiagnostics") && $0.contains("hints.yaml") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(published.utf8)) as? [String: Any])
        let diagnostics = try #require((object["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]])
        var titles: [String] = []
        var preferred: [String] = []
        var edits: [String] = []
        for diagnostic in diagnostics {
            server.receive(
                LanguageServerTests.json([
                    "jsonrpc": "2.0", "id": 11, "method": "textDocument/codeAction",
                    "params": ["textDocument": ["uri": uri], "range": diagnostic["range"] ?? [:], "context": ["diagnostics": [diagnostic]]],
                ]))
            let answer = try #require(try JSONSerialization.jsonObject(with: Data((sent.messages.last ?? "").utf8)) as? [String: Any])
            for action in answer["result"] as? [[String: Any]] ?? [] {
                titles.append(action["title"] as? String ?? "")
                if action["isPreferred"] as? Bool == true { preferred.append(action["title"] as? String ?? "") }
                let changes = ((action["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])?[uri] ?? []
                for change in changes {
                    guard let range = change["range"] as? [String: [String: Int]], let start = range["start"], let end = range["end"],
                        let line = start["line"], let from = start["character"], let to = end["character"]
                    else { continue }
                    let lineText = Array(text.split(separator: "\n", omittingEmptySubsequences: false)[line].utf16)
                    edits.append(
                        String(decoding: lineText[from..<min(to, lineText.count)], as: UTF16.self) + " → " + (change["newText"] as? String ?? ""))
                }
            }
        }
        #expect(edits.contains("8:30pm → 20:30"), "\(edits) \(titles)")
        // Every fix is tried first: `6h30m` would not check where a fact counts minutes, so
        // `390` is the one offered, and preferred.
        #expect(!edits.contains("6h 30m → 6h30m") && edits.contains("6h 30m → 390"), "\(edits)")
        #expect(preferred.contains("Write 390 (minutes)"), "\(preferred)")
        #expect(edits.contains("8:30 → 08:30") && edits.contains("8:30 → 20:30"), "\(edits)")
        // A quoted time stays quoted.
        #expect(edits.contains("\"9:15\" → \"09:15\"") && edits.contains("\"9:15\" → \"21:15\""), "\(edits)")
        #expect(
            edits.contains("routines.water.status != \"completed\" → routines.water.enabled && routines.water.status != \"completed\""), "\(edits)")
    }
}

/// Code lenses from the saved files: a scenario's result, a notification's delivery days, a
/// threshold's days on each side; the scenario's lens runs it again.
@Suite struct CodeLensTests {
    @Test func lensesShowWhatTheScenariosDo() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        #expect(server.lensesDue)
        server.computeLenses()
        #expect(sent.messages.last?.contains("workspace/codeLens/refresh") == true)
        func lenses(_ file: String) -> String {
            server.receive(
                LanguageServerTests.json([
                    "jsonrpc": "2.0", "id": 12, "method": "textDocument/codeLens", "params": ["textDocument": ["uri": "file://" + root + "/" + file]],
                ]))
            return sent.messages.last ?? ""
        }
        let scenario = lenses("scenarios/collapsed_day.yaml")
        #expect(scenario.contains("▶ run — ") && scenario.contains(" passed"), "\(scenario)")
        #expect(!scenario.contains("failed"), "\(scenario)")
        let notifications = lenses("rules/notifications.yaml")
        #expect(notifications.contains("scenario days\""), "\(notifications.prefix(600))")
        #expect(notifications.contains("\"title\":\"delivered on "), "\(notifications.prefix(600))")
        let route = lenses("rules/route.yaml")
        #expect(route.contains("sleep.minutes) < 360: holds on ") || route.contains("< 360: holds on "), "\(route.prefix(800))")
        // The scenario's lens runs it again and says the result.
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "id": 13, "method": "workspace/executeCommand",
                "params": ["command": "rules.runScenario", "arguments": ["file://" + root + "/scenarios/collapsed_day.yaml"]],
            ]))
        #expect(sent.messages.last?.contains("scenarios/collapsed_day.yaml: ") == true, "\(sent.messages.last ?? "")")
        #expect(sent.messages.last?.contains(" passed, 0 failed") == true)
    }
}

/// Inside a template's text: facts in `{`, filters after `|`, particles after `}`; and a
/// threshold's hover tells the values the scenarios presented on each side.
@Suite struct TemplateCompletionAndThresholdHoverTests {
    @Test func placeholdersFiltersAndParticlesComplete() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        let uri = "file://" + root + "/templates/extra.yaml"
        let lines = ["templates:", "  - id: extra_line", "    surface: home", "    text: 걸음 {steps.today|tho", "    text2: x"]
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": lines.joined(separator: "\n")]],
            ]))
        let path = root + "/templates/extra.yaml"
        let filters = EditorFeatureTests.ask(server, sent, "textDocument/completion", path, 3, lines[3].utf16.count)
        #expect(filters.contains("\"label\":\"thousands\""), "\(filters.prefix(400))")
        let inside = EditorFeatureTests.ask(server, sent, "textDocument/completion", path, 3, "    text: 걸음 {steps.to".utf16.count)
        #expect(inside.contains("\"label\":\"steps.today\""), "\(inside.prefix(400))")
        var particleLines = lines
        particleLines[3] = "    text: {routine.name}을"
        EditorFeatureTests.replaceText(server, uri: uri, version: 2, particleLines.joined(separator: "\n"))
        let particles = EditorFeatureTests.ask(server, sent, "textDocument/completion", path, 3, particleLines[3].utf16.count)
        #expect(particles.contains("\"label\":\"을(를)\""), "\(particles.prefix(400))")
    }

    @Test func aThresholdHoverTellsTheScenariosValues() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        server.computeLenses()
        let route = root + "/rules/route.yaml"
        let (line, character) = try EditorFeatureTests.position(after: "(sleep.minutes ?? 420) < 36", in: route)
        let hover = EditorFeatureTests.ask(server, sent, "textDocument/hover", route, line, character)
        #expect(hover.contains("in the saved scenarios: nearest 350 where it holds, 390 where it fails"), "\(hover)")
    }
}

/// A template's hover renders it with the preview's sample days; a code hovers with its
/// explanation; a duplicate names the other definition as related information.
@Suite struct HoverDetailTests {
    @Test func aTemplateHoverRendersItAndACodeHoverExplainsIt() throws {
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        let sent = LanguageServerTests.Sent()
        var framer = MessageFramer()
        let server = LanguageServer(
            send: { bytes in
                for result in framer.append(bytes) {
                    if case .success(let body) = result { sent.messages.append(String(decoding: body, as: UTF8.self)) }
                }
            }, explain: { $0 == "lint.no_toggle" ? "**lint.no_toggle** (warning): a notification type the user cannot turn off" : nil })
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": ["rootUri": "file://" + root, "capabilities": [:]],
            ]))
        let notifications = root + "/rules/notifications.yaml"
        let (line, character) = try EditorFeatureTests.position(after: "template: checkin_re", in: notifications)
        let hover = EditorFeatureTests.ask(server, sent, "textDocument/hover", notifications, line, character)
        #expect(hover.contains("오늘 루트가 준비됐어"), "\(hover)")
        #expect(hover.components(separatedBy: "\\n\\n").count >= 4, "the text and each sample's rendering: \(hover)")
        // A code written in a comment.
        let uri = "file://" + root + "/rules/note.yaml"
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": [
                    "textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": "# see lint.no_toggle\nforbidden_phrases: [바보]\n"]
                ],
            ]))
        let code = EditorFeatureTests.ask(server, sent, "textDocument/hover", root + "/rules/note.yaml", 0, 12)
        #expect(code.contains("a notification type the user cannot turn off"), "\(code)")
    }

    @Test func aDuplicateNamesTheOtherDefinition() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        let uri = "file://" + root + "/rules/again.yaml"
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": "policy:\n  max_per_day: 2\n"]],
            ]))
        server.publishDiagnostics()
        let published = sent.messages.filter { $0.contains("publishDiagnostics") && $0.contains("relatedInformation") }
        #expect(published.contains { $0.contains("the other definition") && $0.contains("notifications.yaml") }, "\(published)")
    }
}

/// After an operand, the operators its type takes: comparisons and arithmetic after a number,
/// `??` first after a fact that may be unknown, `&&` and `||` after a bool.
@Suite struct OperatorCompletionTests {
    @Test func operatorsFitTheOperandsType() throws {
        let (server, sent, root) = try EditorFeatureTests.started()
        let uri = "file://" + root + "/rules/extra.yaml"
        let lines = ["route:", "  - use: light", "    when: completion_rate ", "    reason: x", "  - use: light", "    when: sleep.minutes "]
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": lines.joined(separator: "\n")]],
            ]))
        let rate = EditorFeatureTests.ask(server, sent, "textDocument/completion", root + "/rules/extra.yaml", 2, lines[2].utf16.count)
        #expect(rate.contains("\"label\":\"<\"") && rate.contains("\"label\":\"*\""), "\(rate.prefix(400))")
        #expect(!rate.contains("\"label\":\"??\"") && !rate.contains("\"label\":\"now\""), "\(rate.prefix(400))")
        let sleep = EditorFeatureTests.ask(server, sent, "textDocument/completion", root + "/rules/extra.yaml", 5, lines[5].utf16.count)
        #expect(sleep.contains("\"label\":\"??\""), "\(sleep.prefix(400))")
        // The right side of a comparison: facts and functions of the operand's type only.
        var typed = lines
        typed[2] = "    when: completion_rate < "
        EditorFeatureTests.replaceText(server, uri: uri, version: 2, typed.joined(separator: "\n"))
        let right = EditorFeatureTests.ask(server, sent, "textDocument/completion", root + "/rules/extra.yaml", 2, typed[2].utf16.count)
        #expect(right.contains("\"label\":\"steps.today\"") && right.contains("\"label\":\"min\""), "\(right.prefix(400))")
        #expect(
            !right.contains("\"label\":\"now\"") && !right.contains("\"label\":\"contains\"") && !right.contains("\"label\":\"route\""),
            "\(right.prefix(600))")
    }
}
