import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesYAML
import Ruleset
import RulesetFiles

/// Where the workspace is: its ruleset directory, and files as paths and URIs.
extension LanguageServer {
    /// The ruleset directory from `initialize`: the root URI or the first workspace folder.
    static func root(from params: YAMLNode?) -> String? {
        if let uri = params?["rootUri"]?.string { return path(of: uri) }
        if let folder = params?["workspaceFolders"]?.items?.first?["uri"]?.string { return path(of: folder) }
        return params?["rootPath"]?.string
    }

    /// The ruleset the editor's workspace root belongs to: the root itself when it holds
    /// rules/ or routines/, else the nearest directory above it that does (a root opened on
    /// `rules/`); nil for a root with no ruleset at or above it (a parent of several, `/`),
    /// whose ruleset is then found from the first file opened.
    static func rulesetRoot(ofWorkspace given: String) -> String? {
        let trimmed = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
        return rulesetRoot(containing: trimmed + "/.")
    }

    /// Said once when a file is open and no ruleset holds it, so that requests answering
    /// nothing are explained.
    func sayNoRuleset(for uri: String) {
        guard root == nil, !saidNoRuleset else { return }
        saidNoRuleset = true
        let message =
            "rules lsp: no ruleset found for \(Self.path(of: uri)): a ruleset is a directory holding rules/ or routines/; "
            + "open that directory (or a file under it) to get diagnostics, completion and hover"
        notify("window/showMessage", .object([("type", .int(2)), ("message", .string(message))]))
    }

    /// The string value of the first `"name": "…"` in the start of a JSON message (the part of
    /// an oversized message that was kept), unescaped; nil when it is not there whole.
    static func stringField(_ name: String, in head: [UInt8]) -> String? {
        let text = String(decoding: head, as: UTF8.self)
        var searchFrom = text.startIndex
        while let key = text.range(of: "\"\(name)\"", range: searchFrom..<text.endIndex) {
            searchFrom = key.upperBound
            var index = key.upperBound
            func skipSpaces() { while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) } }
            skipSpaces()
            guard index < text.endIndex, text[index] == ":" else { continue }
            index = text.index(after: index)
            skipSpaces()
            guard index < text.endIndex, text[index] == "\"" else { continue }
            index = text.index(after: index)
            var value = ""
            while index < text.endIndex {
                let character = text[index]
                if character == "\"" { return value }
                if character == "\\" {
                    index = text.index(after: index)
                    guard index < text.endIndex, "\"\\/".contains(text[index]) else { return nil }
                }
                value.append(text[index])
                index = text.index(after: index)
            }
            return nil
        }
        return nil
    }

    /// The open buffers that stand for files, by path: their texts, and the sizes of those too
    /// large to have been received (each is reported as a file over the size limit).
    func buffers() -> (overlay: [String: String], oversized: [String: Int]) {
        var overlay: [String: String] = [:]
        var sizes: [String: Int] = [:]
        for (uri, document) in documents {
            if let bytes = oversized[uri] { sizes[Self.path(of: uri)] = bytes } else { overlay[Self.path(of: uri)] = document.text }
        }
        return (overlay, sizes)
    }

    /// The nearest directory above `path` that holds rules/ or routines/.
    static func rulesetRoot(containing path: String) -> String? {
        var directory = (path as NSString).deletingLastPathComponent
        while directory.count > 1 {
            for folder in ["rules", "routines"] where FileManager.default.fileExists(atPath: directory + "/" + folder) { return directory }
            directory = (directory as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// The path of a `file://` URI (percent-decoded); anything else as it is.
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        let rest = String(uri.dropFirst("file://".count))
        return rest.removingPercentEncoding ?? rest
    }

    static func uri(of path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#")
        return "file://" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
    }
}
