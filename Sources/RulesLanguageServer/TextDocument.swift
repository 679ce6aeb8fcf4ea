import Foundation

/// An open file's text as the editor has it, changed by the editor's edits. Positions are
/// the protocol's: 0-based lines, characters counted in UTF-16 code units.
public struct TextDocument: Sendable {
    public var text: String
    public var version: Int

    public init(text: String, version: Int) {
        self.text = text
        self.version = version
    }

    /// A position of the protocol.
    public struct Position: Sendable, Hashable {
        public var line: Int
        public var character: Int

        public init(line: Int, character: Int) {
            self.line = line
            self.character = character
        }
    }

    /// The index of `position` in `text`, clamped to the line's end (as the protocol asks for a
    /// character past it) and to the text's end (a line past the last).
    static func index(of position: Position, in text: String) -> String.Index {
        var index = text.startIndex
        var line = 0
        let utf16 = text.utf16
        while line < position.line {
            guard let newline = text[index...].firstIndex(of: "\n") else { return text.endIndex }
            index = text.index(after: newline)
            line += 1
        }
        let lineEnd = text[index...].firstIndex(of: "\n") ?? text.endIndex
        var units = 0
        var current = index
        while current < lineEnd, units < position.character {
            let next = text.unicodeScalars.index(after: current)
            units += utf16.distance(from: current, to: next)
            current = next
        }
        return current
    }

    /// Applies one change: the range replaced by `text`, or the whole text when no range.
    public mutating func apply(range: (start: Position, end: Position)?, text replacement: String) {
        guard let range else {
            text = replacement
            return
        }
        let start = Self.index(of: range.start, in: text)
        let end = Swift.max(start, Self.index(of: range.end, in: text))
        text.replaceSubrange(start..<end, with: replacement)
    }

    /// The protocol's position of a 1-based line and column counted in Unicode scalars (how
    /// diagnostics count), in `text`.
    public static func position(line: Int, column: Int, in text: String) -> Position {
        let lines = text.split(separator: "\n", maxSplits: Swift.max(0, line - 1), omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return Position(line: Swift.max(0, line - 1), character: 0) }
        let content = lines[line - 1]
        var units = 0
        for (offset, scalar) in content.unicodeScalars.enumerated() {
            if offset >= column - 1 || scalar == "\n" { break }
            units += scalar.utf16.count
        }
        return Position(line: line - 1, character: units)
    }
}
