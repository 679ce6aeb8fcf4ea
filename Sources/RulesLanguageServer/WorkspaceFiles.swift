import Foundation
import RulesDiagnostics
import RulesetFiles

/// The files the server may read from disk: only YAML files that resolve inside the
/// workspace's root, read with the loader's limits (`FileReader`: regular files only, at most
/// `InputLimits.maxFileBytes`). A URI outside the root — an absolute path elsewhere, a `..`
/// path, a link under `rules/` pointing out of the tree — is never opened, as the loader
/// refuses the same link (`io.outside_root`); an open buffer is the editor's own text and
/// needs no reading.
enum WorkspaceFiles {
    /// The text of the file at `path`, or nil when it lies outside `root`, is not a YAML
    /// file, or cannot be read within the limits.
    static func text(at path: String, root: String) -> String? {
        guard path.hasSuffix(".yaml") || path.hasSuffix(".yml"), let real = insidePath(path, root: root) else { return nil }
        guard case .success(let bytes) = FileReader.contents(of: real, limit: InputLimits.maxFileBytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `path` with every link resolved, when that lies inside `root` (resolved too).
    static func insidePath(_ path: String, root: String) -> String? {
        guard let realRoot = RulesetDirectory.realPath(root), let real = RulesetDirectory.realPath(path),
            RulesetDirectory.isInside(real, realRoot)
        else { return nil }
        return real
    }
}
