/// The text of one file with a line table, so renderers can show the line a diagnostic
/// points at. Lines end where libyaml's do, so its line numbers find them: at LF, CRLF,
/// a lone CR, NEL, LS and PS. (Split by scalars: to a Swift `String`, CRLF is one
/// character, not `\n`, so a Windows file would be one long line.)
public struct SourceFile: Sendable {
    public let path: String
    public let text: String
    private let lines: [Substring]

    public init(path: String, text: String) {
        self.path = path
        self.text = text
        let scalars = text.unicodeScalars
        var lines: [Substring] = []
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let next = scalars.index(after: index)
            switch scalars[index] {
            case "\n", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append(text[start..<index])
                start = next
            case "\r":
                lines.append(text[start..<index])
                start = next < scalars.endIndex && scalars[next] == "\n" ? scalars.index(after: next) : next
            default:
                break
            }
            index = Swift.max(next, start)
        }
        lines.append(text[start..<scalars.endIndex])
        self.lines = lines
    }

    public var lineCount: Int { lines.count }

    /// Where each line starts, in Unicode scalars from the start of the text (for edits
    /// placed by a line and column), made in one pass.
    public var lineStartOffsets: [Int] {
        let scalars = text.unicodeScalars
        var offsets: [Int] = []
        offsets.reserveCapacity(lines.count)
        var position = scalars.startIndex
        var offset = 0
        for line in lines {
            offset += scalars.distance(from: position, to: line.startIndex)
            position = line.startIndex
            offsets.append(offset)
        }
        return offsets
    }

    /// The text of 1-based line `number`, without its line break, or nil past the end.
    public func line(_ number: Int) -> Substring? {
        guard number >= 1, number <= lines.count else { return nil }
        return lines[number - 1]
    }
}

/// Terminal display width: Hangul and other East Asian Wide characters take two columns.
public enum DisplayWidth {
    /// Columns a scalar occupies in a terminal (0 for combining marks, 2 for wide ones).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        if (0x0300...0x036F).contains(v) || (0x1160...0x11FF).contains(v) || v == 0x200B
            || (0xFE00...0xFE0F).contains(v)
        {
            return 0
        }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(v) } ? 2 : 1
    }

    /// Columns the whole text occupies.
    public static func of(_ text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }
}
