import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output or error written with `write(2)`, so that a write error never traps
/// (`FileHandle.write` does, on a broken pipe with SIGPIPE ignored or on a full disk).
///
/// - A closed pipe (EPIPE, the reader went away, as `| head -1` does) ends output quietly:
///   later writes are dropped and the command finishes with its own exit code.
/// - Any other error (a full disk, a closed descriptor) prints one line to standard error
///   where it can and ends the process with exit code 2.
final class StandardStream: @unchecked Sendable {
    private let descriptor: Int32
    private let name: String
    private let lock = NSLock()
    private var closed = false

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    static let output = StandardStream(descriptor: 1, name: "standard output")
    static let error = StandardStream(descriptor: 2, name: "standard error")

    func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            if written < 0, code == EINTR || code == EAGAIN { continue }
            closed = true
            if written < 0, code == EPIPE { return }
            fail(code)
            return
        }
    }

    /// One line on standard error (unless that is what failed), then exit code 2.
    private func fail(_ code: Int32) {
        let reason = String(cString: strerror(code))
        if descriptor != 2 {
            let message = Array("Error: cannot write to \(name): \(reason)\n".utf8)
            _ = message.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(2, buffer.baseAddress, buffer.count)
                #else
                    Darwin.write(2, buffer.baseAddress, buffer.count)
                #endif
            }
        }
        exit(2)
    }
}
