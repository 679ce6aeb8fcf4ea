/// A position in a source file: 1-based line and column; columns count Unicode scalars
/// (libyaml's unit), not bytes and not terminal cells.
public struct SourceLocation: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a file: what file-level problems point at.
    public static let fileStart = SourceLocation(line: 1, column: 1)

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// A half-open span `[start, end)` inside one file.
public struct SourceRange: Hashable, Sendable, Codable {
    public var start: SourceLocation
    /// One past the last character of the span (exclusive).
    public var end: SourceLocation

    public init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = max(start, end)
    }

    /// A range covering a single character at `location`.
    public init(at location: SourceLocation) {
        self.start = location
        self.end = SourceLocation(line: location.line, column: location.column + 1)
    }
}
