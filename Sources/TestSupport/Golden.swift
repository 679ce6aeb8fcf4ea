import Foundation

/// Golden-file comparison: `actual` must equal the file's content. With the environment
/// variable `UPDATE_GOLDEN=1` the file is (re)written instead, for reviewing in the diff —
/// never under `CI`, where a rewritten golden would pass whatever changed.
public enum Golden {
    /// Returns nil when they match, else a message with the first differing line.
    public static func compare(_ actual: String, toFile path: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        // Under CI the golden is compared, never rewritten.
        if environment["UPDATE_GOLDEN"] == "1", (environment["CI"] ?? "").isEmpty {
            let directory = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try? actual.write(toFile: path, atomically: true, encoding: .utf8)
            return nil
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            return "golden file missing: \(path) (run with UPDATE_GOLDEN=1 to create it)"
        }
        guard expected != actual else { return nil }
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, e.count) {
            let left = index < e.count ? String(e[index]) : "<end>"
            let right = index < a.count ? String(a[index]) : "<end>"
            if left != right {
                return "\(path): line \(index + 1) differs\n  expected: \(left)\n  actual:   \(right)\n--- actual output ---\n\(actual)"
            }
        }
        return "\(path): outputs differ"
    }
}

/// Paths of the repository and of a test target's fixtures, found from the test file.
public enum Fixtures {
    /// The repository root, found from a `#filePath` inside `Tests/<Target>/`.
    public static func repositoryRoot(from filePath: String = #filePath) -> String {
        var url = URL(fileURLWithPath: filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
        }
        return FileManager.default.currentDirectoryPath
    }

    /// `Tests/<Target>/Fixtures` for the test file at `filePath`.
    public static func directory(from filePath: String = #filePath) -> String {
        let testDirectory = (filePath as NSString).deletingLastPathComponent
        return (testDirectory as NSString).appendingPathComponent("Fixtures")
    }

    /// A fresh temporary directory for one test, removed when the test process exits.
    public static func temporaryDirectory() -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("rules-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        TemporaryDirectories.shared.add(path)
        return path
    }

    /// A fresh temporary directory holding a copy of the repository's `folders` (the shipped
    /// ruleset by default), for a test to change.
    public static func copyOfShipped(_ folders: [String] = ["routines", "rules", "templates"]) throws -> String {
        let directory = temporaryDirectory()
        let root = repositoryRoot()
        for folder in folders {
            try FileManager.default.copyItem(atPath: root + "/" + folder, toPath: directory + "/" + folder)
        }
        return directory
    }

    /// A copy of the shipped ruleset with text edits (file, old text, new text), and the
    /// edits whose old text the file lacks (a test says those: its variant is not the one
    /// it meant).
    public static func variantOfShipped(_ edits: [(String, String, String)]) throws -> (directory: String, missing: [String]) {
        let directory = try copyOfShipped()
        var missing: [String] = []
        for (file, old, new) in edits {
            let path = (directory as NSString).appendingPathComponent(file)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            if !text.contains(old) { missing.append("\(file) lacks \(old)") }
            try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        }
        return (directory, missing)
    }

    /// Writes `files` (relative path → text) below `directory`, creating folders; a file that cannot be written
    /// throws, so a test never runs on a fixture that is not there.
    public static func write(_ files: [String: String], to directory: String) throws {
        for (relative, text) in files {
            let path = (directory as NSString).appendingPathComponent(relative)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}

/// The temporary directories tests made, removed at exit (a run made thousands, and left
/// them in the system's temporary folder).
final class TemporaryDirectories: @unchecked Sendable {
    static let shared: TemporaryDirectories = {
        let made = TemporaryDirectories()
        atexit { TemporaryDirectories.shared.removeAll() }
        return made
    }()

    private let lock = NSLock()
    private var paths: [String] = []

    func add(_ path: String) {
        lock.lock()
        paths.append(path)
        lock.unlock()
    }

    func removeAll() {
        lock.lock()
        let made = paths
        paths = []
        lock.unlock()
        for path in made { try? FileManager.default.removeItem(atPath: path) }
    }
}
