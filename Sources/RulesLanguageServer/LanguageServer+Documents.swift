import Foundation
import RulesDiagnostics
import RulesDocument

/// What the editor tells the server of its documents: opened, changed, closed and saved; and
/// a message too large to receive, which may have carried one.
extension LanguageServer {
    /// A framing problem: said in the editor's log, the stream goes on.
    public func problem(_ problem: MessageFramer.Problem) {
        let text: String
        switch problem {
        case .badHeader(let what): text = "rules lsp: skipped a message with a bad header (\(what))"
        case .tooLarge(let bytes, let head):
            text = "rules lsp: skipped a message of \(bytes) bytes (over \(MessageFramer.maxBody))"
            if initialized, let uri = Self.stringField("uri", in: head),
                let method = Self.stringField("method", in: head), ["textDocument/didOpen", "textDocument/didChange"].contains(method)
            {
                // The buffer it carried is over any file's limit: say so on the file itself.
                documents[uri] = TextDocument(text: "", version: documents[uri]?.version ?? 0)
                oversized[uri] = bytes
                if root == nil { root = Self.rulesetRoot(containing: Self.path(of: uri)) }
                diagnosticsDue = true
            }
        }
        notify("window/logMessage", .object([("type", .int(1)), ("message", .string(text))]))
    }

    func notification(_ method: String, params: YAMLNode?) {
        switch method {
        case "exit": exitCode = shutDown ? 0 : 1
        case "initialized", "$/cancelRequest", "$/setTrace": break
        case "textDocument/didOpen":
            guard initialized, let item = params?["textDocument"], let uri = item["uri"]?.string, let text = item["text"]?.string else { return }
            documents[uri] = TextDocument(text: text, version: item["version"]?.int ?? 0)
            oversized[uri] = nil
            if root == nil { root = Self.rulesetRoot(containing: Self.path(of: uri)) }
            if root == nil { sayNoRuleset(for: uri) } else { lensesDue = lensCache == nil }
            diagnosticsDue = true
        case "textDocument/didChange":
            guard initialized, let uri = params?["textDocument"]?["uri"]?.string, var document = documents[uri] else { return }
            for change in params?["contentChanges"]?.items ?? [] {
                guard let text = change["text"]?.string else { continue }
                let range = change["range"].flatMap(Self.range)
                // An edit to a buffer never received whole cannot be applied; the whole text can.
                if oversized[uri] != nil, range != nil { continue }
                if range == nil { oversized[uri] = nil }
                document.apply(range: range, text: text)
            }
            document.version = params?["textDocument"]?["version"]?.int ?? document.version + 1
            documents[uri] = document
            diagnosticsDue = true
        case "textDocument/didClose":
            guard let uri = params?["textDocument"]?["uri"]?.string else { return }
            documents[uri] = nil
            oversized[uri] = nil
            diagnosticsDue = true
        case "textDocument/didSave", "workspace/didChangeWatchedFiles":
            diagnosticsDue = true
            lensesDue = root != nil
        default: break
        }
    }
}
