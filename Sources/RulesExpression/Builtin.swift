/// The built-in functions. There are no user-defined functions.
public enum Builtin: String, CaseIterable, Sendable {
    case min, max, clamp, abs, round, floor, ceil, minutes, hours, count, contains

    /// The signature as shown in hints.
    public var signature: String {
        switch self {
        case .min, .max: "(x, y, …) of ints, numbers or durations"
        case .clamp: "(x, lo, hi) of ints, numbers or durations"
        case .abs: "(int | number | duration)"
        case .round, .floor, .ceil: "(number) -> int"
        case .minutes, .hours: "(duration) -> number"
        case .count: "(list) -> int"
        case .contains: "(list<T>, T) -> bool"
        }
    }

    /// The result type for argument types, or nil when they do not fit.
    func resultType(_ arguments: [ExpressionType]) -> ExpressionType? {
        switch self {
        case .min, .max, .clamp:
            if self == .clamp ? arguments.count != 3 : arguments.count < 2 { return nil }
            if arguments.allSatisfy({ $0 == .int }) { return .int }
            if arguments.allSatisfy(\.isNumeric) { return .number }
            if arguments.allSatisfy({ $0 == .duration }) { return .duration }
            return nil
        case .abs:
            guard arguments.count == 1, [.int, .number, .duration].contains(arguments[0]) else { return nil }
            return arguments[0]
        case .round, .floor, .ceil:
            guard arguments.count == 1, arguments[0].isNumeric else { return nil }
            return .int
        case .minutes, .hours:
            guard arguments.count == 1, arguments[0] == .duration else { return nil }
            return .number
        case .count:
            guard arguments.count == 1, case .list = arguments[0] else { return nil }
            return .int
        case .contains:
            guard arguments.count == 2, case .list(let element) = arguments[0] else { return nil }
            return element == .nothing || TypeRules.unify(element, arguments[1]) != nil ? .bool : nil
        }
    }
}
