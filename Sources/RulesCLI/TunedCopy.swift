import Foundation
import RulesDiagnostics
import RulesetFiles

#if canImport(Glibc)
    import Glibc
#endif

/// `rules tune --write DIR`: a copy of the ruleset (its routines/, rules/, templates/,
/// scenarios/ and populations/ YAML files) with the tuned files' new texts. All or nothing:
/// the copy is made in a new directory beside DIR and renamed into place only when whole.
/// Never into or over the input ruleset (nor a directory holding it), never through a link
/// (DIR itself may not be one, and links inside the ruleset are not followed), never over a
/// directory that holds anything.
enum TunedCopy {
    static let folders = RulesetDirectory.rulesetFolders + ["scenarios", "populations"]

    static func write(_ directory: String, from ruleset: String, texts: [String: String], _ io: CommandIO) -> Bool {
        let target = URL(fileURLWithPath: io.resolve(directory)).standardizedFileURL.path
        let source = io.resolve(ruleset)
        guard let realSource = RulesetDirectory.realPath(source) else { return refuse(directory, "the ruleset's directory cannot be resolved", io) }
        let parent = (target as NSString).deletingLastPathComponent
        guard let realParent = RulesetDirectory.realPath(parent) else { return refuse(directory, "its parent directory does not exist", io) }
        let realTarget = (realParent as NSString).appendingPathComponent((target as NSString).lastPathComponent)
        if realTarget == realSource || realTarget.hasPrefix(realSource + "/") || realSource.hasPrefix(realTarget + "/") {
            return refuse(directory, "it is the input ruleset, inside it or around it; choose a directory outside", io)
        }
        var info = stat()
        if lstat(target, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                return refuse(directory, info.st_mode & S_IFMT == S_IFLNK ? "it is a link; links are not followed" : "it is not a directory", io)
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? ["?"]
            guard entries.isEmpty else { return refuse(directory, "it is not empty; name a new directory", io) }
        }
        let temporary = (realParent as NSString).appendingPathComponent(".rules-tune-\(UUID().uuidString.prefix(8))")
        guard mkdir(temporary, 0o755) == 0 else { return refuse(directory, "cannot make a directory beside it", io) }
        guard copy(from: source, to: temporary, texts: texts, io), rename(temporary, realTarget) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            return refuse(directory, "the copy could not be completed; nothing was written", io)
        }
        return true
    }

    /// Copies every YAML file of the folders, with `texts` for the tuned ones.
    static func copy(from source: String, to temporary: String, texts: [String: String], _ io: CommandIO) -> Bool {
        var problems: [Diagnostic] = []
        let files = RulesetDirectory.files(in: source, folders: folders, problems: &problems)
        guard problems.isEmpty else { return false }
        for file in files {
            let bytes: [UInt8]
            if let text = texts[file.display] {
                bytes = Array(text.utf8)
            } else {
                guard case .success(let read) = FileReader.contents(of: file.path, limit: InputLimits.maxFileBytes) else { return false }
                bytes = read
            }
            let destination = (temporary as NSString).appendingPathComponent(file.display)
            let folder = (destination as NSString).deletingLastPathComponent
            guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
                FileManager.default.createFile(atPath: destination, contents: Data(bytes))
            else { return false }
        }
        return true
    }

    static func refuse(_ directory: String, _ reason: String, _ io: CommandIO) -> Bool {
        io.fail(.cannotWrite(directory, reason: reason))
        return false
    }
}
