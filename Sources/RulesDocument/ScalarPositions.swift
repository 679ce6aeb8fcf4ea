import RulesDiagnostics

/// Where each character of a scalar's value sits in its file, so that a diagnostic at
/// offset 27 of a `when:` expression points at `rules/routes.yaml:12:27`.
/// Exact for plain scalars on one line and for `|` blocks, escape-aware for quoted ones;
/// for folded or multi-line plain scalars it follows the source line by line.
public struct ScalarPositions: Sendable {
    /// Location of the value's character at each offset, plus one past the end.
    private let locations: [SourceLocation]
    private let fallback: SourceLocation

    /// Positions of `node`'s value in `source` (the whole file's text).
    public init(node: YAMLNode, source: SourceFile) {
        fallback = node.start
        guard case .scalar(let value, let style) = node.content else {
            locations = []
            return
        }
        let count = value.unicodeScalars.count
        switch style {
        case .plain:
            locations = ScalarPositions.walkPlain(node: node, source: source, count: count)
        case .singleQuoted, .doubleQuoted:
            locations = ScalarPositions.walkQuoted(
                node: node, source: source, value: value, doubleQuoted: style == .doubleQuoted)
        case .literal, .folded:
            locations = ScalarPositions.walkBlock(node: node, source: source, count: count)
        }
    }

    /// The file location of the value's character at `offset` (0-based, in scalars).
    public func location(at offset: Int) -> SourceLocation {
        guard !locations.isEmpty else { return fallback }
        return locations[Swift.max(0, Swift.min(offset, locations.count - 1))]
    }

    private static func scalars(_ line: Substring?) -> [Unicode.Scalar] {
        line.map { Array($0.unicodeScalars) } ?? []
    }

    /// Plain scalars: characters follow the source; a line break folds to one space and
    /// the next line's leading spaces are skipped.
    private static func walkPlain(node: YAMLNode, source: SourceFile, count: Int) -> [SourceLocation] {
        var result: [SourceLocation] = []
        var line = node.start.line
        var column = node.start.column
        var text = scalars(source.line(line))
        while result.count < count {
            if column - 1 < text.count {
                result.append(SourceLocation(line: line, column: column))
                column += 1
            } else {
                // The folded line break: one space standing for the end of the line.
                result.append(SourceLocation(line: line, column: column))
                line += 1
                guard line <= source.lineCount else { break }
                text = scalars(source.line(line))
                column = 1
                while column - 1 < text.count, text[column - 1] == " " || text[column - 1] == "\t" { column += 1 }
            }
        }
        result.append(SourceLocation(line: line, column: column))
        return result
    }

    /// Quoted scalars: skip the opening quote, and map each escape (`\"`, `''`, `\u…`)
    /// to the position where it starts.
    private static func walkQuoted(node: YAMLNode, source: SourceFile, value: String, doubleQuoted: Bool) -> [SourceLocation] {
        var result: [SourceLocation] = []
        var line = node.start.line
        var column = node.start.column + 1
        var text = scalars(source.line(line))
        let count = value.unicodeScalars.count
        func current() -> Unicode.Scalar? { column - 1 < text.count ? text[column - 1] : nil }
        while result.count < count {
            guard let scalar = current() else {
                result.append(SourceLocation(line: line, column: column))
                line += 1
                guard line <= source.lineCount else { break }
                text = scalars(source.line(line))
                column = 1
                while let s = current(), s == " " || s == "\t" { column += 1 }
                continue
            }
            result.append(SourceLocation(line: line, column: column))
            if doubleQuoted, scalar == "\\" {
                column += 2
                let escape = column - 2 < text.count ? text[column - 2] : "\\"
                switch escape {
                case "x": column += 2
                case "u": column += 4
                case "U": column += 8
                default: break
                }
            } else if !doubleQuoted, scalar == "'" {
                column += 2  // '' stands for one quote
            } else {
                column += 1
            }
        }
        result.append(SourceLocation(line: line, column: column))
        return result
    }

    /// Block scalars: the value starts on the line after the indicator; each line's
    /// indentation is stripped.
    private static func walkBlock(node: YAMLNode, source: SourceFile, count: Int) -> [SourceLocation] {
        var result: [SourceLocation] = []
        var line = node.start.line + 1
        var indent: Int?
        while result.count < count, line <= source.lineCount {
            let text = scalars(source.line(line))
            let leading = text.prefix { $0 == " " }.count
            if indent == nil, leading < text.count { indent = leading }
            let start = Swift.min(indent ?? leading, text.count)
            for column in (start + 1)...(text.count + 1) where result.count < count {
                result.append(SourceLocation(line: line, column: column))  // the last one is the line break
            }
            line += 1
        }
        let last = result.last.map { SourceLocation(line: $0.line, column: $0.column + 1) } ?? node.start
        result.append(last)
        return result
    }
}
