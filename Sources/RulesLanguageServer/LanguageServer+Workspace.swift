import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesSimulator
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
