import Foundation
import RulesDiagnostics
import RulesDocument
import RulesYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the files the commands are given without ever reading past a limit: the file is
/// opened once (without blocking, so a FIFO cannot hang a command), and anything but a
/// regular file is refused from its type, a file over the limit from its size, so a 3 GB
/// file costs one `fstat`, not 3 GB of memory. A file that grows while it is read stops
/// being read one chunk past the limit.
public enum FileReader {
    public enum Failure: Error, Equatable, Sendable {
        /// Missing, not permitted, or a read that failed.
        case unreadable
        /// A directory, a device, a FIFO or a socket.
        case notARegularFile
        /// At least `bytes` bytes, over the limit the caller gave.
        case tooLarge(bytes: Int)

        public var description: String {
            switch self {
            case .unreadable: "cannot read the file"
            case .notARegularFile: "not a regular file (a directory, device or pipe)"
            case .tooLarge(let bytes): "the file is \(bytes) bytes, over the limit"
            }
        }
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    public static func contents(of path: String, limit: Int) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }
        let size = Int(clamping: info.st_size)
        guard size <= limit else { return .failure(.tooLarge(bytes: size)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress, buffer.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable)
            }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { return .failure(.tooLarge(bytes: bytes.count)) }
        }
    }

    /// A rule, scenario or population file (at most `InputLimits.maxFileBytes`) parsed, with
    /// its text for the renderers; a file that cannot be read is one diagnostic at `display`
    /// (what `rules check` reports) and no source.
    /// A text that stands for a file (an editor's buffer), read with the same limits.
    public static func yaml(text: String, display: String) -> (parsed: ParsedDocuments, source: SourceFile?) {
        let bytes = Array(text.utf8)
        guard bytes.count <= InputLimits.maxFileBytes else {
            return (ParsedDocuments(documents: [], diagnostics: [YAMLDiagnostics.tooLarge(file: display, bytes: bytes.count)]), nil)
        }
        return (YAMLReader.parse(bytes, file: display), SourceFile(path: display, text: text))
    }

    public static func yaml(_ path: String, display: String) -> (parsed: ParsedDocuments, source: SourceFile?) {
        let refusal: Diagnostic
        switch contents(of: path, limit: InputLimits.maxFileBytes) {
        case .success(let bytes):
            let source = SourceFile(path: display, text: String(decoding: bytes, as: UTF8.self))
            return (YAMLReader.parse(bytes, file: display), source)
        case .failure(.tooLarge(let bytes)):
            refusal = YAMLDiagnostics.tooLarge(file: display, bytes: bytes)
        case .failure(let failure):
            refusal = RulesetDirectory.unreadable(display, failure)
        }
        return (ParsedDocuments(documents: [], diagnostics: [refusal]), nil)
    }
}
