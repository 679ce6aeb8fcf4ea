import Foundation

/// The base protocol's framing: each message is a header section (`Content-Length: N`, an
/// optional `Content-Type`, each line ended by CR LF, then an empty line) and N bytes of
/// JSON. Bytes arrive in pieces of any size — a message split across reads, several in one —
/// so the framer keeps what it has not used. A malformed header is reported and skipped to
/// the next blank line; a body over the limit is reported and its bytes skipped as they come;
/// neither grows memory past the limit.
public struct MessageFramer: Sendable {
    public enum Problem: Error, Equatable, Sendable {
        /// A header section without a valid `Content-Length` (or over 8 KiB): what was wrong.
        case badHeader(String)
        /// A body longer than the limit: its length, and its first bytes (at most
        /// `headBytes`) so the server can say which document it carried.
        case tooLarge(Int, head: [UInt8])
    }

    /// The largest body read (a message carries at most one file, 4 MiB, escaped in JSON).
    public static let maxBody = 16 << 20
    static let maxHeader = 8 << 10

    private var buffer: [UInt8] = []
    /// Bytes of an oversized body still to be thrown away.
    private var skipping = 0
    /// The length of the oversized body being skipped and the first bytes kept of it, until
    /// it is reported (once `headBytes` of it, or all of it, have arrived).
    private var oversized: (length: Int, head: [UInt8])?
    static let headBytes = 1024
    public let maxBody: Int

    public init(maxBody: Int = MessageFramer.maxBody) { self.maxBody = maxBody }

    /// Adds bytes and returns every message (or problem) they complete, in order.
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Result<[UInt8], Problem>] {
        buffer.append(contentsOf: bytes)
        var out: [Result<[UInt8], Problem>] = []
        while true {
            if skipping > 0 {
                let dropped = Swift.min(skipping, buffer.count)
                if var kept = oversized {
                    kept.head += buffer.prefix(Swift.min(dropped, Self.headBytes - kept.head.count))
                    if kept.head.count == Swift.min(Self.headBytes, kept.length) {
                        out.append(.failure(.tooLarge(kept.length, head: kept.head)))
                        oversized = nil
                    } else {
                        oversized = kept
                    }
                }
                buffer.removeFirst(dropped)
                skipping -= dropped
                if skipping > 0 { return out }
            }
            guard let end = headerEnd() else {
                if buffer.count > Self.maxHeader {
                    out.append(.failure(.badHeader("no end of the header within \(Self.maxHeader) bytes")))
                    buffer.removeAll()
                }
                return out
            }
            let header = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end + 4)
            switch Self.contentLength(header) {
            case .failure(let problem): out.append(.failure(problem))
            case .success(let length) where length > maxBody:
                oversized = (length, [])
                skipping = length
            case .success(let length):
                guard buffer.count >= length else {
                    // Put the header back until the body is here (the header is small).
                    buffer.insert(contentsOf: Array(header.utf8) + [13, 10, 13, 10], at: 0)
                    return out
                }
                out.append(.success(Array(buffer[..<length])))
                buffer.removeFirst(length)
            }
        }
    }

    /// Where the header's blank line starts, if it has arrived.
    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10
        {
            return index
        }
        return nil
    }

    static func contentLength(_ header: String) -> Result<Int, Problem> {
        var length: Int?
        for line in header.split(separator: "\r\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else { return .failure(.badHeader("a header line without ':': \(line.prefix(40))")) }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let number = Int(value), number >= 0, length == nil else { return .failure(.badHeader("Content-Length '\(value.prefix(20))'")) }
                length = number
            }
        }
        guard let length else { return .failure(.badHeader("no Content-Length")) }
        return .success(length)
    }

    /// A message framed for writing.
    public static func frame(_ body: [UInt8]) -> [UInt8] { Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body }
}
