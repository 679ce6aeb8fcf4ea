/// An enum of the schema: a name and its cases, compared with string literals.
public struct EnumType: Hashable, Sendable {
    public var name: String
    public var cases: [String]

    public init(name: String, cases: [String]) {
        self.name = name
        self.cases = cases
    }

    public static let route = EnumType(name: "route", cases: ["regular", "light", "recovery"])
    public static let risk = EnumType(name: "risk", cases: ["low", "medium", "high"])
    public static let permission = EnumType(name: "permission", cases: ["granted", "denied", "not_determined"])
    public static let status = EnumType(
        name: "status", cases: ["not_started", "in_progress", "completed", "partial", "failed", "skipped", "recovered"])
    public static let weekday = EnumType(name: "weekday", cases: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
    public static let event = EnumType(
        name: "event", cases: ["home", "completed", "partial", "failed", "route_changed", "recovery_completed"])
}

/// The types of the language.
public indirect enum ExpressionType: Hashable, Sendable, CustomStringConvertible {
    case bool, int, number, string, duration, time, date
    case enumeration(EnumType)
    /// A string naming a routine of the ruleset.
    case routineID
    case list(ExpressionType)
    case map(ExpressionType, ExpressionType)
    /// A value that may be unknown.
    case optional(ExpressionType)
    /// The type of an empty list's elements: fits any list.
    case nothing
    /// The type of something already reported as wrong; accepted everywhere so one
    /// mistake yields one diagnostic.
    case error

    public var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .number: "number"
        case .string: "string"
        case .duration: "duration"
        case .time: "time"
        case .date: "date"
        case .enumeration(let type): type.name
        case .routineID: "routine_id"
        case .list(let element): "list<\(element)>"
        case .map(let key, let value): "map<\(key), \(value)>"
        case .optional(let wrapped): "\(wrapped)?"
        case .nothing: "nothing"
        case .error: "<error>"
        }
    }

    /// The type without its optionality.
    public var unwrapped: ExpressionType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    public var isNumeric: Bool { self == .int || self == .number }

    /// Optional of this type (an optional stays as it is).
    public var asOptional: ExpressionType { isOptional || self == .error ? self : .optional(self) }

    /// Reads a type name as a settings file writes it: `bool`, `time?`, `list<int>`,
    /// `map<routine_id, time>`. Enums are declared apart and are not read here.
    public static func parse(_ text: String) -> ExpressionType? {
        let trimmed = text.trimmingSpaces
        if trimmed.hasSuffix("?") {
            return parse(String(trimmed.dropLast())).map { .optional($0) }
        }
        if trimmed.hasPrefix("list<"), trimmed.hasSuffix(">") {
            return parse(String(trimmed.dropFirst(5).dropLast())).map { .list($0) }
        }
        if trimmed.hasPrefix("map<"), trimmed.hasSuffix(">") {
            let inner = trimmed.dropFirst(4).dropLast()
            guard let comma = inner.firstIndex(of: ","),
                let key = parse(String(inner[..<comma])),
                let value = parse(String(inner[inner.index(after: comma)...]))
            else { return nil }
            return .map(key, value)
        }
        switch trimmed {
        case "bool": return .bool
        case "int": return .int
        case "number": return .number
        case "string": return .string
        case "duration": return .duration
        case "time": return .time
        case "date": return .date
        case "routine_id": return .routineID
        default: return nil
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars = scalars.dropFirst() }
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
