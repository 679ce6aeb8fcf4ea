import Foundation
import RulesDiagnostics
import RulesDocument
import RulesYAML
import Ruleset

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a ruleset directory: every `.yaml` / `.yml` under `routines/`, `rules/`,
/// `templates/` (and `scenarios/` for the commands that read them), recursively, in path
/// order, skipping dot-files and dot-directories.
public enum RulesetDirectory {
    public static let rulesetFolders = ["routines", "rules", "templates"]

    /// The codes of directory walks.
    public static let descriptions: [CodeDescription] = [
        CodeDescription(
            code: "io.unreadable", severity: .error, summary: "a file or directory that cannot be read",
            rationale:
                "It does not exist, cannot be opened (permissions), or is not a regular file (a device or a pipe, which are never read, so nothing blocks); what it holds is not checked."
        ),
        CodeDescription(
            code: "io.dangling_link", severity: .error, summary: "a symbolic link that leads nowhere",
            rationale: "Its target does not exist, so the file it stands for is missing from the ruleset or the scenarios."),
        CodeDescription(
            code: "io.outside_root", severity: .error, summary: "a symbolic link whose target is outside the ruleset's directory",
            rationale:
                "Files from a pull request are untrusted: a link is followed only when its target resolves inside the directory being read, so a link to /etc, a home directory or /proc never has its content read or printed. The link is named; its target is not."
        ),
        CodeDescription(
            code: "io.file_name", severity: .error, summary: "a file name that is not UTF-8 or holds a control character",
            rationale:
                "Its name cannot be shown or bundled faithfully (a line feed in it would start a line of its own in every report, and in a CI log a forged annotation), so the file is not read, and said so."
        ),
        CodeDescription(
            code: "io.not_checked", severity: .warning, summary: "a file checked as YAML only",
            rationale:
                "It lies outside a ruleset's routines/, rules/, templates/, scenarios/ and populations/ (or it is a population file with no ruleset to read it against), so only its YAML was read: its keys and values were not checked. A clean YAML file is not a clean rules file."
        ),
        CodeDescription(
            code: "ruleset.knock_on", severity: .note, summary: "findings left out because a file did not parse",
            rationale:
                "A file with a YAML error is missing from the ruleset, so 'never used' or 'unknown reference' findings elsewhere may only follow from it; they are left out until it parses."
        ),
    ]

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
        var ignored: [Diagnostic] = []
        return files(in: directory, folders: folders, prefix: prefix, problems: &ignored)
    }

    /// The same, with what the walk could not read in `problems`.
    public static func files(in directory: String, folders: [String], prefix: String = "", problems: inout [Diagnostic]) -> [File] {
        var found: [File] = []
        let root = realPath(directory) ?? directory
        for folder in folders {
            let shown = prefix.isEmpty ? folder : (prefix.hasSuffix("/") ? prefix + folder : prefix + "/" + folder)
            let walk = walk(under: (directory as NSString).appendingPathComponent(folder), display: shown, root: root)
            problems += walk.problems
            for relative in walk.files {
                let inside = folder + "/" + relative
                let display = prefix.isEmpty ? inside : (prefix.hasSuffix("/") ? prefix + inside : prefix + "/" + inside)
                found.append(File(path: (directory as NSString).appendingPathComponent(inside), display: display, folder: folder))
            }
        }
        return found
    }

    /// Relative paths of every YAML file below `directory`, sorted, without dot entries.
    public static func yamlFiles(under directory: String) -> [String] { walk(under: directory).files }

    /// A directory's identity: a symlink loop (`a -> .`) meets one it has already entered.
    private struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private static func identity(of path: String) -> DirectoryID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return DirectoryID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Every YAML file below `directory` (sorted relative paths, no dot entries), following
    /// symlinks but entering each directory once (by device and inode), with what could not
    /// be read: unreadable directories and symlinks that lead nowhere. `display` names the
    /// directory in those diagnostics.
    /// Only what resolves inside `root` (default: `directory` itself) is read: a symlink whose
    /// target lies outside is `io.outside_root`, named by the link, never followed.
    public static func walk(under directory: String, display: String? = nil, root: String? = nil) -> (files: [String], problems: [Diagnostic]) {
        var files: [String] = []
        var problems: [Diagnostic] = []
        var entered: Set<DirectoryID> = []
        let inside = root.flatMap(realPath) ?? realPath(directory) ?? directory
        if let real = realPath(directory), !isInside(real, inside) {
            problems.append(outside(display, ""))
            return (files, problems)
        }
        walk(directory, "", display, inside, &entered, &files, &problems)
        return (files, problems)
    }

    /// The path with every symlink resolved (nil when it leads nowhere).
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` (resolved) is `root` or below it.
    public static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `io.outside_root` for a path named on the command line.
    public static func outsideRoot(_ path: String) -> Diagnostic { outside(nil, path) }

    private static func outside(_ display: String?, _ relative: String) -> Diagnostic {
        problem(
            "io.outside_root", display, relative, "a symbolic link to a place outside the ruleset's directory: not read",
            hint: "keep the ruleset's files inside its directory; replace the link by the file itself")
    }

    /// One directory, its entries in name order, a subdirectory's files where its name sorts
    /// (the order bundles and template rotation depend on).
    private static func walk(
        _ path: String, _ relative: String, _ display: String?, _ root: String, _ entered: inout Set<DirectoryID>, _ files: inout [String],
        _ problems: inout [Diagnostic]
    ) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        guard let id = identity(of: path), entered.insert(id).inserted else { return }
        guard let entries = entryNames(of: path) else {
            problems.append(problem("io.unreadable", display, relative, "cannot read the directory", hint: "check its permissions"))
            return
        }
        var names: [String] = []
        for bytes in entries where bytes.first != UInt8(ascii: ".") {
            guard let name = String(validating: bytes, as: UTF8.self) else {
                let shown = escaped(bytes)
                problems.append(
                    problem(
                        "io.file_name", display, relative.isEmpty ? shown : relative + "/" + shown, "a file name that is not UTF-8",
                        hint: "rename it (with UTF-8 text) so it can be read"))
                continue
            }
            // A line feed or other control character in a name would start a line of its own
            // in every report (in a CI log, a forged `::error` annotation): not read.
            if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                let shown = TextRenderer.oneLine(name)
                problems.append(
                    problem(
                        "io.file_name", display, relative.isEmpty ? shown : relative + "/" + shown, "a file name with a control character",
                        hint: "rename it without line feeds or other control characters so it can be read"))
                continue
            }
            names.append(name)
        }
        for name in names.sorted() {
            let full = (path as NSString).appendingPathComponent(name)
            let inside = relative.isEmpty ? name : relative + "/" + name
            // A link is followed only into the root; its target is never named or read.
            if isLink(full) {
                guard let real = realPath(full) else {
                    problems.append(
                        problem("io.dangling_link", display, inside, "a symbolic link that leads nowhere", hint: "remove it or fix its target"))
                    continue
                }
                guard isInside(real, root) else {
                    if isDirectoryOrYAML(full, name: name) { problems.append(outside(display, inside)) }
                    continue
                }
            }
            var childIsDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &childIsDirectory) else { continue }
            if childIsDirectory.boolValue {
                walk(full, inside, display, root, &entered, &files, &problems)
            } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                files.append(inside)
            }
        }
    }

    /// Whether `path` itself is a symbolic link (not followed).
    private static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether a link outside the root stands for something the walk would read: a directory
    /// or a YAML file (other links are ignored like any other file). Asked by name and by
    /// `stat` only: nothing is opened.
    private static func isDirectoryOrYAML(_ path: String, name: String) -> Bool {
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") { return true }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in a directory as raw bytes (a name need not be UTF-8), nil when it cannot
    /// be read.
    private static func entryNames(of path: String) -> [[UInt8]]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes == [UInt8(ascii: ".")] || bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(bytes)
        }
        return names
    }

    /// A name for the terminal: printable ASCII and valid UTF-8 as is, other bytes as `\xFF`.
    private static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
    }

    /// A file that could not be read (`io.unreadable`), as `FileReader` found it.
    static func unreadable(_ file: String, _ failure: FileReader.Failure) -> Diagnostic {
        let hint = failure == .notARegularFile ? "name a .yaml file or a directory that holds them" : "check that it exists and is readable"
        return Diagnostic(code: "io.unreadable", severity: .error, file: file, location: .fileStart, message: failure.description, hint: hint)
    }

    private static func problem(_ code: DiagnosticCode, _ display: String?, _ relative: String, _ message: String, hint: String) -> Diagnostic {
        let base = display ?? ""
        let file = relative.isEmpty ? (base.isEmpty ? "." : base) : (base.isEmpty ? relative : base + "/" + relative)
        return Diagnostic(code: code, severity: .error, file: file, location: .fileStart, message: message, hint: hint)
    }

    /// Reads and parses `files`, returning the documents of the ruleset folders, every YAML
    /// diagnostic and the text of each file.
    /// `overlay` holds texts that stand for files (an editor's unsaved buffers), by path.
    /// `oversized`: buffers that stand for files but were too large to receive, by path (their
    /// size): each is refused as a file over the limit would be.
    public static func read(
        _ files: [File], overlay: [String: String] = [:], oversized: [String: Int] = [:]
    ) -> (documents: [RuleDocument], diagnostics: [Diagnostic], sources: [String: SourceFile]) {
        var documents: [RuleDocument] = []
        var diagnostics: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        for file in files {
            if let bytes = oversized[file.path] {
                diagnostics.append(YAMLDiagnostics.tooLarge(file: file.display, bytes: bytes))
                continue
            }
            let (parsed, source) =
                overlay[file.path].map { FileReader.yaml(text: $0, display: file.display) } ?? FileReader.yaml(file.path, display: file.display)
            if let source { sources[file.display] = source }
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
    /// The ruleset's hash is its bundle's: of the files named from the ruleset's root, however
    /// the directory was given (`--ruleset ../x` and `.` are one ruleset, as the app sees it).
    static func bundleHash(_ documents: [RuleDocument], displayPrefix: String) -> String {
        let relative = documents.map { document -> RuleDocument in
            var copy = document
            if copy.file.hasPrefix(displayPrefix + "/") { copy.file = String(copy.file.dropFirst(displayPrefix.count + 1)) }
            return copy
        }
        return RulesetBundle.contentHash(relative)
    }

    /// Loads the ruleset of `directory` (its `routines/`, `rules/` and `templates/`):
    /// the ruleset when nothing is an error, and every diagnostic, capped at 100.
    /// File names in diagnostics are relative to the directory, prefixed with `displayPrefix`.
    /// `overlay`: texts that stand for files of the directory (an editor's unsaved buffers),
    /// by absolute path; `oversized`: buffers too large to receive, by path (their size).
    public static func load(
        directory: String, displayPrefix: String = "", overlay: [String: String] = [:], oversized: [String: Int] = [:]
    ) -> RulesetLoad {
        var walkProblems: [Diagnostic] = []
        var files = RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders, prefix: displayPrefix, problems: &walkProblems)
        // A buffer of a file not saved yet belongs to the ruleset too.
        let known = Set(files.map(\.path))
        for path in Set(overlay.keys).union(oversized.keys).sorted()
        where !known.contains(path) && (path.hasSuffix(".yaml") || path.hasSuffix(".yml")) {
            guard path.hasPrefix(directory + "/") else { continue }
            let relative = String(path.dropFirst(directory.count + 1))
            guard let folder = relative.split(separator: "/").first.map(String.init), RulesetDirectory.rulesetFolders.contains(folder) else {
                continue
            }
            files.append(
                RulesetDirectory.File(path: path, display: displayPrefix.isEmpty ? relative : displayPrefix + "/" + relative, folder: folder))
        }
        guard !files.isEmpty else {
            // An empty or missing directory is not an empty ruleset: a reload from it must
            // never replace a good one.
            let diagnostic = Diagnostic(
                code: "ruleset.no_files", severity: .error, file: displayPrefix.isEmpty ? "." : displayPrefix, location: .fileStart,
                message: "no .yaml files under routines/, rules/ or templates/", hint: "point at the directory that holds the ruleset")
            return RulesetLoad(ruleset: nil, diagnostics: [diagnostic], sources: [:])
        }
        let (documents, yamlDiagnostics, sources) = RulesetDirectory.read(files, overlay: overlay, oversized: oversized)
        var (ruleset, partial, diagnostics) = Ruleset.loadKeepingPartial(documents: documents)
        if !displayPrefix.isEmpty {
            partial.sha256 = bundleHash(documents, displayPrefix: displayPrefix)
            ruleset?.sha256 = partial.sha256
        }
        // A file that did not parse is missing from the ruleset: findings that only say
        // something is unused or missing may just follow from that. They are left out, with
        // one note, so the parse error stands alone.
        let brokenFiles = Set(yamlDiagnostics.filter { $0.severity == .error }.map(\.file))
        if !brokenFiles.isEmpty {
            // A fact or routine the broken file would have declared (`settings.bedtime`) is
            // unknown elsewhere only because the file did not parse.
            let knockOn: Set<String> = [
                "lint.unused_template", "lint.missing_line", "lint.no_toggle", "ruleset.unknown_reference", "type.unknown_fact",
                "type.unknown_routine",
            ]
            func mayFollow(_ d: Diagnostic) -> Bool { mayFollowFromBroken(d, knockOn: knockOn, brokenFiles: brokenFiles) }
            let dropped = diagnostics.filter(mayFollow)
            if !dropped.isEmpty {
                diagnostics.removeAll(where: mayFollow)
                let first = brokenFiles.sorted()[0]
                diagnostics.append(
                    Diagnostic(
                        code: "ruleset.knock_on", severity: .note, file: first, location: .fileStart,
                        message: "\(dropped.count) finding\(dropped.count == 1 ? "" : "s") that may follow from \(first) not parsing left out",
                        hint: "fix the YAML error first, then check again"))
            }
            ruleset = nil
        }
        let all = DiagnosticCollector(walkProblems + yamlDiagnostics + diagnostics)
        let failed = all.hasFailures(strict: false)
        return RulesetLoad(
            ruleset: failed ? nil : ruleset, diagnostics: all.report(), sources: sources, documents: failed ? [] : documents, partial: partial)
    }

    /// Whether a finding may only follow from a file that did not parse. A built-in fact
    /// (`sleep.minuts`) is unknown whatever the other files say: only what a file declares
    /// (settings, routines) can be missing because one did not parse.
    static func mayFollowFromBroken(_ d: Diagnostic, knockOn: Set<String>, brokenFiles: Set<String>) -> Bool {
        guard knockOn.contains(d.code.rawValue), !brokenFiles.contains(d.file) else { return false }
        guard d.code.rawValue == "type.unknown_fact" else { return true }
        let named = d.message.split(separator: "'").dropFirst().first.map(String.init) ?? ""
        let root = named.split(separator: ".").first.map(String.init) ?? named
        return ["settings", "routines", "routine", "categories"].contains(root)
    }
}
