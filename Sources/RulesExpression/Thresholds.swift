/// A comparison of a fact with a constant inside a condition (`(sleep.minutes ?? 420) < 360`,
/// `now >= 21:00`): what boundary coverage, "why not" answers and generated boundary
/// scenarios work from.
public struct Threshold: Sendable, Hashable {
    /// The fact compared, e.g. `sleep.minutes`.
    public var fact: String
    /// The comparison with the fact on the left (`<` in `360 > x` becomes `x < 360`).
    public var op: BinaryOperator
    public var constant: Value
    /// The default of `fact ?? default`, when the fact is optional.
    public var fallback: Value?
    /// Where in the expression text the comparison is.
    public var range: TextRange
    /// Where in the expression text the constant is (nil for a threshold built in code).
    public var constantRange: TextRange?

    public init(fact: String, op: BinaryOperator, constant: Value, fallback: Value?, range: TextRange) {
        self.fact = fact
        self.op = op
        self.constant = constant
        self.fallback = fallback
        self.range = range
    }

    /// The comparison as written, given the expression's source.
    public func text(in source: String) -> String {
        let scalars = Array(source.unicodeScalars)
        let start = Swift.max(0, Swift.min(range.start, scalars.count))
        let end = Swift.max(start, Swift.min(range.end, scalars.count))
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    /// Whether `value` satisfies the comparison (nil when the kinds do not compare).
    public func holds(for value: Value, dayStart: Int = 4 * 3600) -> Bool? {
        var context = EvaluationContext(facts: FactValues(count: 0), dayStart: dayStart)
        switch (value, constant) {
        case (.time(let a), .time(let b)): return Threshold.compare(op, context.logical(a), context.logical(b))
        default:
            guard let a = value.numeric, let b = constant.numeric else { return nil }
            _ = context.steps
            context.steps = 0
            return Threshold.compare(op, a, b)
        }
    }

    /// Where `value` lies on the threshold's axis: the number, or a time's seconds from the
    /// day's start (so 01:00 lies after 23:00); nil for values that do not compare.
    public static func position(of value: Value, dayStart: Int) -> Double? {
        if case .time(let seconds) = value { return Double(EvaluationContext.logical(seconds, dayStart: dayStart)) }
        return value.numeric
    }

    /// How far `value` lies from the constant on the threshold's axis; nil when they do not compare.
    public func distance(to value: Value, dayStart: Int) -> Double? {
        guard let x = Threshold.position(of: value, dayStart: dayStart), let c = Threshold.position(of: constant, dayStart: dayStart) else {
            return nil
        }
        return abs(x - c)
    }

    /// How near the constant a value must lie to count as "close to" the threshold: 5 % of the
    /// constant, and at least 1 for whole numbers, 0.1 for fractions and 30 minutes for times.
    public var closeness: Double {
        switch constant {
        case .time: 1800
        case .int(let value): Swift.max(1, 0.05 * Double(value.magnitude))
        case .number(let value): Swift.max(0.1, 0.05 * abs(value))
        default: 0
        }
    }

    public static func compare<T: Comparable>(_ op: BinaryOperator, _ a: T, _ b: T) -> Bool {
        switch op {
        case .less: a < b
        case .lessEqual: a <= b
        case .greater: a > b
        case .greaterEqual: a >= b
        case .equal: a == b
        default: a != b
        }
    }

    /// Every threshold in a checked tree, in reading order.
    public static func extract(from node: TypedNode) -> [Threshold] {
        var found: [Threshold] = []
        var stack = [node]
        while let current = stack.popLast() {
            if case .binary(let op, let lhs, let rhs) = current.kind, [.less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual].contains(op) {
                if let (fact, fallback) = factSide(lhs), case .constant(let value) = rhs.kind, isOrdered(value) {
                    var threshold = Threshold(fact: fact, op: op, constant: value, fallback: fallback, range: current.range)
                    threshold.constantRange = rhs.range
                    found.append(threshold)
                } else if let (fact, fallback) = factSide(rhs), case .constant(let value) = lhs.kind, isOrdered(value) {
                    var threshold = Threshold(fact: fact, op: flipped(op), constant: value, fallback: fallback, range: current.range)
                    threshold.constantRange = lhs.range
                    found.append(threshold)
                }
            }
            stack.append(contentsOf: current.children.reversed())
        }
        return found
    }

    /// The comparisons with constants through which `tree` reads `fact`, or nil when it also
    /// reads it any other way (then its value matters, not only the side of each constant it
    /// is on). Empty when the tree does not read it.
    public static func only(_ fact: String, in tree: TypedNode) -> [Threshold]? {
        var found: [Threshold] = []
        var stack = [tree]
        while let node = stack.popLast() {
            if case .binary(let op, let lhs, let rhs) = node.kind, [.less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual].contains(op) {
                if let (name, fallback) = factSide(lhs), name == fact, case .constant(let value) = rhs.kind, isOrdered(value) {
                    found.append(Threshold(fact: fact, op: op, constant: value, fallback: fallback, range: node.range))
                    continue
                }
                if let (name, fallback) = factSide(rhs), name == fact, case .constant(let value) = lhs.kind, isOrdered(value) {
                    found.append(Threshold(fact: fact, op: flipped(op), constant: value, fallback: fallback, range: node.range))
                    continue
                }
            }
            if case .fact(_, let name) = node.kind, name == fact { return nil }
            stack.append(contentsOf: node.children)
        }
        return found
    }

    /// The side of the constant `value` is on (with `fallback` for an unknown value): 1
    /// holds, 0 does not, 2 neither (unknown without a fallback, or kinds that do not compare).
    public func side(of value: Value, dayStart: Int) -> UInt8 {
        let value = value.isUnknown ? (fallback ?? .unknown) : value
        switch holds(for: value, dayStart: dayStart) {
        case true?: return 1
        case false?: return 0
        case nil: return 2
        }
    }

    static func isOrdered(_ value: Value) -> Bool {
        switch value {
        case .int, .number, .time, .duration: true
        default: false
        }
    }

    static func factSide(_ node: TypedNode) -> (String, Value?)? {
        switch node.kind {
        case .fact(_, let name): return (name, nil)
        case .binary(.coalesce, let lhs, let rhs):
            if case .fact(_, let name) = lhs.kind, case .constant(let value) = rhs.kind { return (name, value) }
            return nil
        default: return nil
        }
    }

    static func flipped(_ op: BinaryOperator) -> BinaryOperator {
        switch op {
        case .less: .greater
        case .lessEqual: .greaterEqual
        case .greater: .less
        case .greaterEqual: .lessEqual
        default: op
        }
    }

    /// The nearest values on either side of the boundary: (one that holds, one that does
    /// not), a step of 1 for ints and minutes of time, 0.01 for numbers.
    public var sides: (holding: Value, failing: Value)? {
        func pair(_ below: Value, _ at: Value, _ above: Value) -> (Value, Value) {
            switch op {
            case .less: (below, at)
            case .lessEqual: (at, above)
            case .greater: (above, at)
            case .greaterEqual: (at, below)
            case .equal: (at, above)
            default: (above, at)
            }
        }
        switch constant {
        case .int(let c): return pair(.int(c - 1), .int(c), .int(c + 1))
        case .number(let c): return pair(.number(c - 0.01), .number(c), .number(c + 0.01))
        case .time(let c): return pair(.time((c - 60 + 86_400) % 86_400), .time(c), .time((c + 60) % 86_400))
        case .duration(let c): return pair(.duration(c - 60), .duration(c), .duration(c + 60))
        default: return nil
        }
    }
}
