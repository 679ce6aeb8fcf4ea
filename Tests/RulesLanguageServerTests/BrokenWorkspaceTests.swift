import Foundation
import RulesLanguageServer
import TestSupport
import Testing

/// The editor in the state users are in: a workspace where some file is broken or links out
/// of the tree keeps completing and hovering from what loads, says what it could not use, and
/// never reads a file outside the root.
@Suite struct BrokenWorkspaceTests {
    /// A copy of the shipped ruleset changed by `prepare` before the server starts on it.
    static func started(_ prepare: (String) throws -> Void) throws -> (LanguageServer, LanguageServerTests.Sent, String) {
        let root = try Fixtures.copyOfShipped(["routines", "rules", "templates", "scenarios"])
        try prepare(root)
        let (server, sent) = LanguageServerTests.server()
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": ["rootUri": "file://" + root, "capabilities": [:]],
            ]))
        return (server, sent, root)
    }

    static func misspellFact(_ root: String) throws {
        let path = root + "/rules/route.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("completion_rate < 0.6"))
        try text.replacingOccurrences(of: "completion_rate < 0.6", with: "completion_rat < 0.6").write(
            toFile: path, atomically: true, encoding: .utf8)
    }

    /// A secret outside the workspace, in a directory of its own.
    static func secret() throws -> String {
        let directory = Fixtures.temporaryDirectory()
        let path = directory + "/secret.yaml"
        try "LSP_SECRET_91c2: do-not-read\nother_key: 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func request(
        _ server: LanguageServer, _ sent: LanguageServerTests.Sent, _ method: String, uri: String, line: Int = 0, character: Int = 0
    )
        -> String
    {
        server.receive(
            LanguageServerTests.json([
                "jsonrpc": "2.0", "id": 11, "method": method,
                "params": ["textDocument": ["uri": uri], "position": ["line": line, "character": character]],
            ]))
        return sent.messages.last ?? ""
    }

    /// Completion and hover in every file, from the start, while route.yaml misspells a fact.
    @Test func completionAndHoverWorkWhileAnotherFileHasAnError() throws {
        let (server, sent, root) = try Self.started(Self.misspellFact)
        let notifications = root + "/rules/notifications.yaml"
        let (line, character) = try EditorFeatureTests.position(after: "template: checkin_re", in: notifications)
        let ids = EditorFeatureTests.ask(server, sent, "textDocument/completion", notifications, line, character)
        #expect(ids.contains("\"label\":\"checkin_ready\""), "\(ids.prefix(400))")
        let hover = EditorFeatureTests.ask(server, sent, "textDocument/hover", notifications, line, character)
        #expect(hover.contains("**template checkin_ready**"), "\(hover.prefix(400))")
        // In the broken file itself: facts complete and hover.
        let route = root + "/rules/route.yaml"
        let (factLine, factCharacter) = try EditorFeatureTests.position(after: "completion_ra", in: route)
        let facts = EditorFeatureTests.ask(server, sent, "textDocument/completion", route, factLine, factCharacter)
        #expect(facts.contains("\"label\":\"completion_rate\""), "\(facts.prefix(400))")
        let (sleepLine, sleepCharacter) = try EditorFeatureTests.position(after: "sleep.min", in: route)
        let fact = EditorFeatureTests.ask(server, sent, "textDocument/hover", route, sleepLine, sleepCharacter)
        #expect(fact.contains("**sleep.minutes**"), "\(fact.prefix(400))")
        // The diagnostics say what the features do without.
        server.publishDiagnostics()
        let published = try #require(sent.messages.last { $0.contains("publishDiagnostics") && $0.contains("route.yaml") })
        #expect(published.contains("type.unknown_fact"))
        #expect(published.contains("lsp.partial_ruleset"), "\(published.prefix(600))")
    }

    /// A file that does not parse is left out; the rest still completes and hovers.
    @Test func aFileThatDoesNotParseLeavesTheRestLit() throws {
        let (server, sent, root) = try Self.started { root in
            try "notifications:\n  - id: [broken\n".write(toFile: root + "/rules/zz_broken.yaml", atomically: true, encoding: .utf8)
        }
        let route = root + "/rules/route.yaml"
        let (line, character) = try EditorFeatureTests.position(after: "completion_ra", in: route)
        let facts = EditorFeatureTests.ask(server, sent, "textDocument/completion", route, line, character)
        #expect(facts.contains("\"label\":\"completion_rate\""), "\(facts.prefix(400))")
        server.publishDiagnostics()
        let broken = try #require(sent.messages.last { $0.contains("publishDiagnostics") && $0.contains("zz_broken.yaml") })
        #expect(broken.contains("lsp.partial_ruleset") && broken.contains("without this file"), "\(broken.prefix(600))")
    }

    /// A link in rules/ to a file outside the tree: refused by the loader, and completion and
    /// hover go on from the rest.
    @Test func aLinkOutOfTheTreeLeavesTheRestLit() throws {
        let secret = try Self.secret()
        let (server, sent, root) = try Self.started { root in
            try FileManager.default.createSymbolicLink(atPath: root + "/rules/leak.yaml", withDestinationPath: secret)
        }
        let notifications = root + "/rules/notifications.yaml"
        let (line, character) = try EditorFeatureTests.position(after: "template: checkin_re", in: notifications)
        let hover = EditorFeatureTests.ask(server, sent, "textDocument/hover", notifications, line, character)
        #expect(hover.contains("**template checkin_ready**"), "\(hover.prefix(400))")
        #expect(hover.contains("오늘 루트가 준비됐어"), "rendered from the ruleset without the link: \(hover.prefix(400))")
        server.publishDiagnostics()
        #expect(sent.messages.contains { $0.contains("io.outside_root") })
        #expect(!sent.messages.contains { $0.contains("LSP_SECRET_91c2") })
    }

    /// Symbols, hover and definition on an outside URI, a `..` URI and a link out of the tree
    /// answer nothing of the file's content.
    @Test func filesOutsideTheRootAreNeverRead() throws {
        let secret = try Self.secret()
        let (server, sent, root) = try Self.started { root in
            try FileManager.default.createSymbolicLink(atPath: root + "/rules/leak.yaml", withDestinationPath: secret)
        }
        let outsideName = ((secret as NSString).deletingLastPathComponent as NSString).lastPathComponent
        let dots = root + "/rules/../../" + outsideName + "/secret.yaml"
        #expect(FileManager.default.fileExists(atPath: dots), "the .. path names the secret")
        for path in [secret, dots, root + "/rules/leak.yaml"] {
            let uri = "file://" + path
            let symbols = Self.request(server, sent, "textDocument/documentSymbol", uri: uri)
            #expect(symbols.contains("\"result\":[]"), "\(path): \(symbols)")
            for method in ["textDocument/hover", "textDocument/definition", "textDocument/completion", "textDocument/references"] {
                let answer = Self.request(server, sent, method, uri: uri, line: 0, character: 3)
                #expect(!answer.contains("LSP_SECRET_91c2") && !answer.contains("other_key"), "\(method) \(path): \(answer.prefix(300))")
            }
            let actions = Self.request(server, sent, "textDocument/codeAction", uri: uri)
            #expect(!actions.contains("LSP_SECRET_91c2"))
        }
        #expect(!sent.messages.contains { $0.contains("LSP_SECRET_91c2") || $0.contains("other_key") })
        // A file inside the root still has its outline.
        let inside = Self.request(server, sent, "textDocument/documentSymbol", uri: "file://" + root + "/rules/route.yaml")
        #expect(inside.contains("route"), "\(inside.prefix(300))")
    }

    /// The delay before a check follows the last check's cost, within bounds.
    @Test func theDiagnosticsDelayFollowsTheCost() {
        var delay = DiagnosticsDelay()
        #expect(delay.seconds == DiagnosticsDelay.first)
        delay.checked(taking: 0.003)
        #expect(delay.seconds < 0.05, "a 3 ms check answers within 50 ms: \(delay.seconds)")
        delay.checked(taking: 0.1)
        #expect(delay.seconds >= 0.25, "a slow check is not run per keystroke: \(delay.seconds)")
        delay.checked(taking: 60)
        #expect(delay.seconds == DiagnosticsDelay.bounds.upperBound)
        delay.checked(taking: .nan)
        #expect(delay.seconds == DiagnosticsDelay.first)
        #expect(DiagnosticsDelay(fixed: 0.15).seconds == 0.15)
    }
}
