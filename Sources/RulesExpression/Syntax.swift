/// Operators of the language, as written.
public enum UnaryOperator: String, Sendable, Hashable {
    case not = "!"
    case negate = "-"
}

public enum BinaryOperator: String, Sendable, Hashable {
    case multiply = "*"
    case divide = "/"
    case add = "+"
    case subtract = "-"
    case less = "<"
    case lessEqual = "<="
    case greater = ">"
    case greaterEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case `in` = "in"
    case and = "&&"
    case or = "||"
    case coalesce = "??"
}

/// The parsed (unchecked) tree of an expression. Every node knows the text range it came
/// from, so the checker can point at the exact operand.
public struct SyntaxNode: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        case int(Int)
        case number(Double)
        case string(String)
        case bool(Bool)
        /// Seconds since midnight.
        case time(Int)
        /// Seconds.
        case duration(Int)
        case list([SyntaxNode])
        case identifier(String)
        /// `base.name`; `nameRange` covers `name` alone.
        case member(SyntaxNode, name: String, nameRange: TextRange)
        /// `name(arguments)`; `nameRange` covers the function name.
        case call(name: String, nameRange: TextRange, arguments: [SyntaxNode])
        case unary(UnaryOperator, SyntaxNode)
        case binary(BinaryOperator, SyntaxNode, SyntaxNode)
        case conditional(SyntaxNode, SyntaxNode, SyntaxNode)
        /// A place the parser could not read; its diagnostic is already reported.
        case error
    }

    public var kind: Kind
    public var range: TextRange

    public init(_ kind: Kind, _ range: TextRange) {
        self.kind = kind
        self.range = range
    }

    /// `routines.water.progress` for a chain of identifiers and members, else nil.
    public var dottedPath: String? {
        // Walked iteratively: a chain is as long as the depth limit allows.
        var names: [String] = []
        var node = self
        while true {
            switch node.kind {
            case .identifier(let name):
                names.append(name)
                return names.reversed().joined(separator: ".")
            case .member(let base, let name, _):
                names.append(name)
                node = base
            default:
                return nil
            }
        }
    }

    /// The tree as an S-expression, for tests and `--debug` output:
    /// `now >= 21:00 && x` prints `(&& (>= now 21:00) x)`.
    public var debugDescription: String {
        switch kind {
        case .int(let value): return String(value)
        case .number(let value): return SyntaxNode.formatNumber(value)
        case .string(let value): return "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .bool(let value): return value ? "true" : "false"
        case .time(let seconds): return TimeFormat.clock(seconds)
        case .duration(let seconds): return TimeFormat.duration(seconds)
        case .list(let items): return "[" + items.map(\.debugDescription).joined(separator: " ") + "]"
        case .identifier(let name): return name
        case .member(let base, let name, _):
            if let path = dottedPath { return path }
            return "(. \(base.debugDescription) \(name))"
        case .call(let name, _, let arguments):
            return "(\(name)" + arguments.map { " " + $0.debugDescription }.joined() + ")"
        case .unary(let op, let operand): return "(\(op.rawValue) \(operand.debugDescription))"
        case .binary(let op, let lhs, let rhs):
            return "(\(op.rawValue) \(lhs.debugDescription) \(rhs.debugDescription))"
        case .conditional(let c, let a, let b):
            return "(? \(c.debugDescription) \(a.debugDescription) \(b.debugDescription))"
        case .error: return "<error>"
        }
    }

    static func formatNumber(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) + ".0" }
        return "\(value)"
    }
}

/// Writing times and durations the way the language spells them.
public enum TimeFormat {
    /// `20:30`, `24:00` (seconds past the minute are dropped: the language has none).
    public static func clock(_ seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }

    /// `1h30m`, `45s`, `-30m`, `0s`.
    public static func duration(_ seconds: Int) -> String {
        if seconds == 0 { return "0s" }
        if seconds < 0 { return "-" + duration(seconds == Int.min ? Int.max : -seconds) }
        var out = ""
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        let rest = seconds % 60
        if hours > 0 { out += "\(hours)h" }
        if minutes > 0 { out += "\(minutes)m" }
        if rest > 0 { out += "\(rest)s" }
        return out
    }
}
