import Foundation
import RulesDiagnostics
import RulesDocument
import RulesYAML
import Ruleset

/// The files of a ruleset directory: every `.yaml` / `.yml` under `routines/`, `rules/`,
/// `templates/` (and `scenarios/` for the commands that read them), recursively, in path
/// order, skipping dot-files and dot-directories (SPEC §2).
public enum RulesetDirectory {
    public static let rulesetFolders = ["routines", "rules", "templates"]

    /// A file to read: its absolute path and the path shown to the user.
    public struct File: Sendable, Hashable {
        public var path: String
        public var display: String
        /// The top folder it was found in (`routines`, `rules`, …).
        public var folder: String

        public init(path: String, display: String, folder: String) {
            self.path = path
            self.display = display
            self.folder = folder
        }
    }

    /// The YAML files under `folders` of `directory`. `display` paths are `prefix`
    /// joined with the path inside the directory (no prefix: relative paths).
    public static func files(in directory: String, folders: [String], prefix: String = "") -> [File] {
        var found: [File] = []
        for folder in folders {
            for relative in yamlFiles(under: (directory as NSString).appendingPathComponent(folder)) {
                let inside = folder + "/" + relative
                let display = prefix.isEmpty ? inside : (prefix.hasSuffix("/") ? prefix + inside : prefix + "/" + inside)
                found.append(File(path: (directory as NSString).appendingPathComponent(inside), display: display, folder: folder))
            }
        }
        return found
    }

    /// Relative paths of every YAML file below `directory`, sorted, without dot entries.
    public static func yamlFiles(under directory: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return [] }
        var result: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let full = (directory as NSString).appendingPathComponent(name)
            var childIsDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &childIsDirectory) else { continue }
            if childIsDirectory.boolValue {
                result.append(contentsOf: yamlFiles(under: full).map { name + "/" + $0 })
            } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                result.append(name)
            }
        }
        return result
    }

    /// Reads and parses `files`, returning the documents of the ruleset folders, every YAML
    /// diagnostic and the text of each file.
    public static func read(_ files: [File]) -> (documents: [RuleDocument], diagnostics: [Diagnostic], sources: [String: SourceFile]) {
        var documents: [RuleDocument] = []
        var diagnostics: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                diagnostics.append(
                    Diagnostic(
                        code: "io.unreadable", severity: .error, file: file.display, location: .fileStart,
                        message: "cannot read the file", hint: "check that it exists and is readable"))
                continue
            }
            let bytes = [UInt8](data)
            let source = SourceFile(path: file.display, text: String(decoding: bytes, as: UTF8.self))
            sources[file.display] = source
            let parsed = YAMLReader.parse(bytes, file: file.display)
            diagnostics.append(contentsOf: parsed.diagnostics)
            guard parsed.isClean else { continue }
            let kind: RuleDocument.Kind = file.folder == "routines" ? .routines : .sections
            for node in parsed.documents {
                documents.append(RuleDocument(file: file.display, kind: kind, node: node, source: source))
            }
        }
        return (documents, diagnostics, sources)
    }
}

extension Ruleset {
    /// Loads the ruleset of `directory` (its `routines/`, `rules/` and `templates/`):
    /// the ruleset when nothing is an error, and every diagnostic, capped at 100.
    /// File names in diagnostics are relative to the directory, prefixed with `displayPrefix`.
    public static func load(directory: String, displayPrefix: String = "") -> RulesetLoad {
        let files = RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders, prefix: displayPrefix)
        guard !files.isEmpty else {
            // An empty or missing directory is not an empty ruleset: a reload from it must
            // never replace a good one.
            let diagnostic = Diagnostic(
                code: "ruleset.no_files", severity: .error, file: displayPrefix.isEmpty ? "." : displayPrefix, location: .fileStart,
                message: "no .yaml files under routines/, rules/ or templates/", hint: "point at the directory that holds the ruleset")
            return RulesetLoad(ruleset: nil, diagnostics: [diagnostic], sources: [:])
        }
        let (documents, yamlDiagnostics, sources) = RulesetDirectory.read(files)
        let (ruleset, diagnostics) = Ruleset.load(documents: documents)
        let all = DiagnosticCollector(yamlDiagnostics + diagnostics)
        let failed = all.hasFailures(strict: false)
        return RulesetLoad(ruleset: failed ? nil : ruleset, diagnostics: all.report(), sources: sources)
    }
}
