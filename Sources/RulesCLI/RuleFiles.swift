import Foundation

/// Finds the files a command reads. In a directory: every `.yaml` / `.yml` under
/// `routines/`, `rules/`, `templates/` (and `scenarios/` when asked), recursively, in
/// path order, skipping dot-files and dot-directories.
enum RuleFiles {
    static let rulesetFolders = ["routines", "rules", "templates"]

    struct Found {
        /// Absolute path, for reading.
        var path: String
        /// The path as shown to the user: relative to the directory they named.
        var display: String
    }

    enum Failure: Error {
        case missing(String)
    }

    /// The files named by `arguments` (directories expanded). `display` paths join the
    /// argument as given with the path inside it (`.` is left out).
    static func collect(
        _ arguments: [String], folders: [String], io: CommandIO
    ) throws(Failure) -> [Found] {
        var found: [Found] = []
        for argument in arguments {
            let absolute = io.resolve(argument)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                throw .missing(argument)
            }
            guard isDirectory.boolValue else {
                found.append(Found(path: absolute, display: argument))
                continue
            }
            for folder in folders {
                for relative in yamlFiles(under: (absolute as NSString).appendingPathComponent(folder)) {
                    let inside = folder + "/" + relative
                    let display = argument == "." || argument == "./" ? inside : join(argument, inside)
                    found.append(Found(path: (absolute as NSString).appendingPathComponent(inside), display: display))
                }
            }
        }
        return found
    }

    static func join(_ base: String, _ path: String) -> String {
        base.hasSuffix("/") ? base + path : base + "/" + path
    }

    /// Relative paths of every YAML file below `directory`, sorted, without dot entries.
    static func yamlFiles(under directory: String) -> [String] {
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

    /// The bytes of a file, or nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }
}
