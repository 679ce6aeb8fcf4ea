import Foundation
import RulesLanguageServer
import TestSupport
import Testing

@testable import RulesLanguageServer

/// The workspace as editors give it: population buffers, roots that are not the ruleset's
/// directory, and buffers too large to receive.
@Suite struct WorkspaceEdgeTests {
    typealias Server = LanguageServerTests

    static func initialize(_ server: LanguageServer, root: String) {
        server.receive(
            Server.json(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["rootUri": "file://" + root, "capabilities": [:]]]))
    }

    static func open(_ server: LanguageServer, _ path: String, _ text: String) {
        server.receive(
            Server.json([
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": ["textDocument": ["uri": "file://" + path, "languageId": "yaml", "version": 1, "text": text]],
            ]))
    }

    static func published(_ sent: LanguageServerTests.Sent, _ file: String) -> String? {
        sent.messages.last { $0.contains("publishDiagnostics") && $0.contains(file) }
    }

    /// An open population buffer gets what `rules check` says of it: an out-of-range number and
    /// a misspelled key, at their lines.
    @Test func aPopulationBufferIsChecked() throws {
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        let (server, sent) = Server.server()
        Self.initialize(server, root: root)
        let shipped = try String(contentsOfFile: root + "/populations/office_workers.yaml", encoding: .utf8)
        let broken = shipped.replacingOccurrences(of: "\nusers: ", with: "\nuserz: 3\nusers: ")
        #expect(broken != shipped)
        Self.open(server, root + "/populations/office_workers.yaml", broken)
        server.publishDiagnostics()
        let published = try #require(Self.published(sent, "office_workers.yaml"))
        #expect(published.contains("userz"), "\(published)")
        #expect(published.contains("\"severity\":1"))
        // Fixed: the file's diagnostics are cleared.
        Self.open(server, root + "/populations/office_workers.yaml", shipped)
        server.publishDiagnostics()
        let cleared = try #require(Self.published(sent, "office_workers.yaml"))
        #expect(cleared.contains("\"diagnostics\":[]"), "\(cleared)")
    }

    /// A root above the ruleset (or `/`) finds the ruleset from the first file opened; a root
    /// inside it (its rules/) finds it above; a file no ruleset holds is said so, once.
    @Test func aRootThatIsNotTheRulesetStillFindsIt() throws {
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates"])
        let text =
            "notifications:\n  - id: extra\n    category: nudge\n    at: \"20:00\"\n    when: completion_rat < 0.6\n    template: checkin_ready\n"
        for given in [(root as NSString).deletingLastPathComponent, "/", root + "/rules", root + "/rules/"] {
            let (server, sent) = Server.server()
            Self.initialize(server, root: given)
            Self.open(server, root + "/rules/extra.yaml", text)
            #expect(server.root == root, "root \(given)")
            server.publishDiagnostics()
            let published = try #require(Self.published(sent, "extra.yaml"), "root \(given)")
            #expect(published.contains("type.unknown_fact"), "root \(given): \(published)")
        }
        let elsewhere = NSTemporaryDirectory() + "no-ruleset-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let (server, sent) = Server.server()
        Self.initialize(server, root: elsewhere)
        Self.open(server, elsewhere + "/a.yaml", "x: 1\n")
        Self.open(server, elsewhere + "/b.yaml", "x: 1\n")
        let said = sent.messages.filter { $0.contains("window/showMessage") && $0.contains("no ruleset found") }
        #expect(said.count == 1, "\(sent.messages)")
        #expect(said.first?.contains("rules/ or routines/") == true)
    }

    /// A buffer too large to receive is reported on its file as a file over the limit is; an
    /// edit to it cannot be applied, the whole text sent again can.
    @Test func aBufferTooLargeToReceiveIsReportedOnItsFile() throws {
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates"])
        let (server, sent) = Server.server()
        Self.initialize(server, root: root)
        let uri = "file://" + root + "/rules/route.yaml"
        let escaped = uri.replacingOccurrences(of: "/", with: "\\/")
        let head =
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri" : ""# + escaped
            + #"","languageId":"yaml","text":"aaaa"#
        server.problem(.tooLarge(50_000_000, head: Array(head.utf8)))
        #expect(sent.messages.last?.contains("window/logMessage") == true)
        #expect(server.diagnosticsDue)
        server.publishDiagnostics()
        let published = try #require(Self.published(sent, "route.yaml"))
        #expect(published.contains("yaml.too_large") && published.contains("50000000 bytes"), "\(published)")
        // An incremental edit leaves it unknown; the whole text clears it.
        let edit: [String: Any] = ["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "text": "#"]
        server.receive(
            Server.json([
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": ["textDocument": ["uri": uri, "version": 2], "contentChanges": [edit]],
            ]))
        server.publishDiagnostics()
        #expect(Self.published(sent, "route.yaml")?.contains("yaml.too_large") == true)
        let whole = try String(contentsOfFile: root + "/rules/route.yaml", encoding: .utf8)
        server.receive(
            Server.json([
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": ["textDocument": ["uri": uri, "version": 3], "contentChanges": [["text": whole]]],
            ]))
        server.publishDiagnostics()
        #expect(Self.published(sent, "route.yaml")?.contains("yaml.too_large") == false)
        // A message that is no document's (a huge completion request) changes no file.
        let (other, _) = Server.server()
        Self.initialize(other, root: root)
        other.problem(
            .tooLarge(50_000_000, head: Array(#"{"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"x"#.utf8)))
        #expect(!other.diagnosticsDue)
    }

    @Test func aFieldIsReadFromTheStartOfAMessage() {
        func field(_ name: String, _ text: String) -> String? { LanguageServer.stringField(name, in: Array(text.utf8)) }
        #expect(field("uri", #"{"uri":"file:\/\/a\/b"}"#) == "file://a/b")
        #expect(field("uri", #"{"x":"uri","uri" : "q"}"#) == "q")
        #expect(field("uri", #"{"uri":"cut off"#) == nil)
        #expect(field("uri", #"{"uri":1}"#) == nil)
        #expect(field("method", #"{"method":"a\"b"}"#) == "a\"b")
    }
}
