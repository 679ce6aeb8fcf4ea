/// A half-open range of Unicode-scalar offsets inside an expression's text (0-based).
public struct TextRange: Hashable, Sendable, CustomStringConvertible {
    public var start: Int
    public var end: Int

    public init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = Swift.max(start, end)
    }

    /// The smallest range covering both.
    public func union(_ other: TextRange) -> TextRange {
        TextRange(Swift.min(start, other.start), Swift.max(end, other.end))
    }

    public var description: String { "\(start)..<\(end)" }
}

/// One lexical token of the expression language.
public struct Token: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case int(Int)
        case number(Double)
        /// `60%`, already divided by 100.
        case percent(Double)
        case string(String)
        /// Seconds since midnight, 0…86,400 (`24:00`).
        case time(Int)
        /// Seconds, from `90m`, `1h30m`, `45s`.
        case duration(Int)
        case identifier(String)
        case keywordTrue, keywordFalse, keywordIn
        case dot, comma, leftParen, rightParen, leftBracket, rightBracket
        case bang, minus, plus, star, slash
        case less, lessEqual, greater, greaterEqual, equal, notEqual
        case and, or, coalesce, question, colon
        /// Something the lexer could not read; its diagnostic is already reported.
        case invalid
        case end
    }

    public var kind: Kind
    public var range: TextRange

    public init(_ kind: Kind, _ range: TextRange) {
        self.kind = kind
        self.range = range
    }

    /// How the token reads in messages ("'&&'", "a number", "the end of the expression").
    public var spelling: String {
        switch kind {
        case .int, .number, .percent: "a number"
        case .string: "a string"
        case .time: "a time"
        case .duration: "a duration"
        case .identifier(let name): "'\(name)'"
        case .keywordTrue: "'true'"
        case .keywordFalse: "'false'"
        case .keywordIn: "'in'"
        case .dot: "'.'"
        case .comma: "','"
        case .leftParen: "'('"
        case .rightParen: "')'"
        case .leftBracket: "'['"
        case .rightBracket: "']'"
        case .bang: "'!'"
        case .minus: "'-'"
        case .plus: "'+'"
        case .star: "'*'"
        case .slash: "'/'"
        case .less: "'<'"
        case .lessEqual: "'<='"
        case .greater: "'>'"
        case .greaterEqual: "'>='"
        case .equal: "'=='"
        case .notEqual: "'!='"
        case .and: "'&&'"
        case .or: "'||'"
        case .coalesce: "'??'"
        case .question: "'?'"
        case .colon: "':'"
        case .invalid: "an unreadable token"
        case .end: "the end of the expression"
        }
    }
}
