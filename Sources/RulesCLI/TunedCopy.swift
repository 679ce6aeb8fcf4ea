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

    /// Whether the copy can be made: the destination's checks and every file of the ruleset
    /// read, each refusal naming the file and why. `rules tune` asks before the search, so an
    /// hour of living never ends in "cannot write".
    static func preflight(_ directory: String, from ruleset: String, _ io: CommandIO) -> Bool {
        switch destination(directory, from: ruleset, io) {
        case .failure(let reason): return refuse(directory, reason, io)
        case .success: break
        }
        if case .failure(let reason) = read(io.resolve(ruleset), texts: [:]) { return refuse(directory, reason, io) }
        return true
    }

    static func write(_ directory: String, from ruleset: String, texts: [String: String], _ io: CommandIO) -> Bool {
        let realTarget: String
        let realParent: String
        switch destination(directory, from: ruleset, io) {
        case .failure(let reason): return refuse(directory, reason, io)
        case .success(let paths): (realTarget, realParent) = paths
        }
        let files: [(String, [UInt8])]
        switch read(io.resolve(ruleset), texts: texts) {
        case .failure(let reason): return refuse(directory, reason, io)
        case .success(let read): files = read
        }
        let temporary = (realParent as NSString).appendingPathComponent(".rules-tune-\(UUID().uuidString.prefix(8))")
        guard mkdir(temporary, 0o755) == 0 else { return refuse(directory, "cannot make a directory beside it", io) }
        if let failed = place(files, in: temporary) {
            try? FileManager.default.removeItem(atPath: temporary)
            return refuse(directory, "\(failed) could not be written; nothing was written", io)
        }
        guard rename(temporary, realTarget) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            return refuse(directory, "the copy could not be renamed into place; nothing was written", io)
        }
        return true
    }

    /// The copy's real path and its parent's, or why it cannot be written there.
    static func destination(_ directory: String, from ruleset: String, _ io: CommandIO) -> Result<(String, String), Refusal> {
        let target = URL(fileURLWithPath: io.resolve(directory)).standardizedFileURL.path
        guard let realSource = RulesetDirectory.realPath(io.resolve(ruleset)) else { return .failure("the ruleset's directory cannot be resolved") }
        let parent = (target as NSString).deletingLastPathComponent
        guard let realParent = RulesetDirectory.realPath(parent) else { return .failure("its parent directory does not exist") }
        guard access(realParent, W_OK) == 0 else { return .failure("its parent directory is not writable") }
        let realTarget = (realParent as NSString).appendingPathComponent((target as NSString).lastPathComponent)
        if realTarget == realSource || realTarget.hasPrefix(realSource + "/") || realSource.hasPrefix(realTarget + "/") {
            return .failure("it is the input ruleset, inside it or around it; choose a directory outside")
        }
        var info = stat()
        if lstat(target, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                return .failure(info.st_mode & S_IFMT == S_IFLNK ? "it is a link; links are not followed" : "it is not a directory")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? ["?"]
            guard entries.isEmpty else { return .failure("it is not empty; name a new directory") }
        }
        return .success((realTarget, realParent))
    }

    /// Every YAML file of the folders by its path inside the ruleset, with `texts` for the
    /// tuned ones; or the first that cannot be read, and why.
    static func read(_ source: String, texts: [String: String]) -> Result<[(String, [UInt8])], Refusal> {
        var problems: [Diagnostic] = []
        let files = RulesetDirectory.files(in: source, folders: folders, problems: &problems)
        if let problem = problems.first { return .failure(Refusal("the ruleset's \(problem.file) cannot be copied: \(problem.message)")) }
        var out: [(String, [UInt8])] = []
        for file in files {
            if let text = texts[file.display] {
                out.append((file.display, Array(text.utf8)))
                continue
            }
            switch FileReader.contents(of: file.path, limit: InputLimits.maxFileBytes) {
            case .success(let bytes): out.append((file.display, bytes))
            case .failure(let failure): return .failure(Refusal("the ruleset's \(file.display) cannot be copied: \(failure.description)"))
            }
        }
        return .success(out)
    }

    /// Writes the files under `temporary`; the first that could not be written, or nil.
    static func place(_ files: [(String, [UInt8])], in temporary: String) -> String? {
        for (name, bytes) in files {
            let destination = (temporary as NSString).appendingPathComponent(name)
            let folder = (destination as NSString).deletingLastPathComponent
            guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
                FileManager.default.createFile(atPath: destination, contents: Data(bytes))
            else { return name }
        }
        return nil
    }

    /// Why the copy cannot be made.
    struct Refusal: Error, ExpressibleByStringLiteral {
        var reason: String
        init(_ reason: String) { self.reason = reason }
        init(stringLiteral value: String) { reason = value }
    }

    static func refuse(_ directory: String, _ reason: String, _ io: CommandIO) -> Bool {
        io.fail(.cannotWrite(directory, reason: reason))
        return false
    }

    static func refuse(_ directory: String, _ refusal: Refusal, _ io: CommandIO) -> Bool { refuse(directory, refusal.reason, io) }
}
