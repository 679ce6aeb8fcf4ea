import Foundation

/// Whether a file lies in a git work tree that would commit it: a private key written there
/// is one `git add -A` away from the repository.
enum GitWorkTree {
    /// The work tree holding `path` (the nearest folder above it with a `.git`), if any.
    static func root(of path: String) -> String? {
        var directory = (URL(fileURLWithPath: path).standardizedFileURL.path as NSString).deletingLastPathComponent
        while true {
            if FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(".git")) { return directory }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory || parent.isEmpty { return nil }
            directory = parent
        }
    }

    /// A warning when `path` lies in a git work tree that does not ignore it (asked of `git
    /// check-ignore`; without git, the work tree alone is said); nil outside one or when
    /// ignored.
    static func unignoredWarning(_ path: String) -> String? {
        guard let root = root(of: path) else { return nil }
        let relative = String(URL(fileURLWithPath: path).standardizedFileURL.path.dropFirst(root.count + 1))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", root, "check-ignore", "-q", "--", relative]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let advice = "add its folder to .gitignore (or keep keys outside the repository) before `git add`"
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return "the private key is inside the git work tree \(root), which may not ignore it: \(advice)"
        }
        switch process.terminationStatus {
        case 0: return nil
        case 1: return "the private key \(relative) is inside the git work tree \(root) and not ignored: \(advice)"
        default: return "the private key is inside the git work tree \(root); git could not say whether it is ignored: \(advice)"
        }
    }
}
