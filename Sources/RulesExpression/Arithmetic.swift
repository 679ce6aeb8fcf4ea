/// The kind of arithmetic a `+ - * /` node does, chosen from the checked operand types.
enum ArithmeticKind: Sendable {
    case integer, numeric, string, duration, timeShift, timeDifference, durationScale, durationRatio
}

final class ArithmeticNode: Evaluable, @unchecked Sendable {
    let op: BinaryOperator
    let kind: ArithmeticKind
    let lhs: Evaluable
    let rhs: Evaluable
    let range: TextRange

    init(_ op: BinaryOperator, _ kind: ArithmeticKind, _ lhs: Evaluable, _ rhs: Evaluable, range: TextRange) {
        self.op = op
        self.kind = kind
        self.lhs = lhs
        self.rhs = rhs
        self.range = range
    }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        let a = try lhs.evaluate(&context)
        let b = try rhs.evaluate(&context)
        if a.isUnknown || b.isUnknown { return .unknown }
        switch kind {
        case .integer:
            guard case .int(let x) = a, case .int(let y) = b else { throw .typeFault("expected ints") }
            return .int(try integer(x, y))
        case .numeric:
            guard let x = a.numeric, let y = b.numeric else { throw .typeFault("expected numbers") }
            return .number(try numeric(x, y))
        case .string:
            guard case .string(let x) = a, case .string(let y) = b else { throw .typeFault("expected strings") }
            try context.spend((x.utf8.count + y.utf8.count) / 64)
            return .string(x + y)
        case .duration:
            guard case .duration(let x) = a, case .duration(let y) = b else { throw .typeFault("expected durations") }
            return .duration(try integer(x, y))
        case .timeShift:
            // time ± duration, or duration + time; wraps around midnight.
            let time: Int
            let shift: Int
            switch (a, b) {
            case (.time(let t), .duration(let d)): (time, shift) = (t, op == .subtract ? -d : d)
            case (.duration(let d), .time(let t)): (time, shift) = (t, d)
            default: throw .typeFault("expected a time and a duration")
            }
            let wrapped = (time % 86_400 + shift % 86_400 + 86_400) % 86_400
            return .time(wrapped)
        case .timeDifference:
            guard case .time(let x) = a, case .time(let y) = b else { throw .typeFault("expected times") }
            return .duration(context.logical(x) - context.logical(y))
        case .durationScale:
            let seconds: Int
            let factor: Double
            switch (a, b) {
            case (.duration(let d), _): (seconds, factor) = (d, b.numeric ?? .nan)
            case (_, .duration(let d)): (seconds, factor) = (d, a.numeric ?? .nan)
            default: throw .typeFault("expected a duration and a number")
            }
            if op == .divide, factor == 0 { throw .divisionByZero(range) }
            let result = op == .divide ? Double(seconds) / factor : Double(seconds) * factor
            return .duration(try ArithmeticNode.toInt(result.rounded(), range))
        case .durationRatio:
            guard case .duration(let x) = a, case .duration(let y) = b else { throw .typeFault("expected durations") }
            if y == 0 { throw .divisionByZero(range) }
            return .number(Double(x) / Double(y))
        }
    }

    private func integer(_ x: Int, _ y: Int) throws(EvaluationError) -> Int {
        let (result, overflow): (Int, Bool)
        switch op {
        case .add: (result, overflow) = x.addingReportingOverflow(y)
        case .subtract: (result, overflow) = x.subtractingReportingOverflow(y)
        case .multiply: (result, overflow) = x.multipliedReportingOverflow(by: y)
        default: throw .typeFault("integer division")
        }
        if overflow { throw .overflow(range) }
        return result
    }

    private func numeric(_ x: Double, _ y: Double) throws(EvaluationError) -> Double {
        let result: Double
        switch op {
        case .add: result = x + y
        case .subtract: result = x - y
        case .multiply: result = x * y
        default:
            if y == 0 { throw .divisionByZero(range) }
            result = x / y
        }
        if result.isNaN { throw .notANumber(range) }
        if !result.isFinite { throw .overflow(range) }
        return result
    }

    static func toInt(_ value: Double, _ range: TextRange) throws(EvaluationError) -> Int {
        if value.isNaN { throw .notANumber(range) }
        guard value >= -9.2e18, value <= 9.2e18 else { throw .overflow(range) }
        return Int(value)
    }
}

final class NegateNode: Evaluable, @unchecked Sendable {
    let operand: Evaluable
    let range: TextRange

    init(_ operand: Evaluable, range: TextRange) {
        self.operand = operand
        self.range = range
    }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        switch try operand.evaluate(&context) {
        case .int(let x):
            guard x != Int.min else { throw .overflow(range) }
            return .int(-x)
        case .number(let x): return .number(-x)
        case .duration(let x):
            guard x != Int.min else { throw .overflow(range) }
            return .duration(-x)
        case .unknown: return .unknown
        default: throw .typeFault("expected a number")
        }
    }
}

final class CallNode: Evaluable, @unchecked Sendable {
    let builtin: Builtin
    let arguments: [Evaluable]
    let range: TextRange

    init(_ builtin: Builtin, _ arguments: [Evaluable], range: TextRange) {
        self.builtin = builtin
        self.arguments = arguments
        self.range = range
    }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        var values: [Value] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments { values.append(try argument.evaluate(&context)) }
        switch builtin {
        case .min, .max:
            var best = values[0]
            for value in values.dropFirst() {
                let better = builtin == .min ? try CallNode.less(value, best) : try CallNode.less(best, value)
                if better { best = value }
            }
            return try CallNode.widen(best, like: values)
        case .clamp:
            guard values.count == 3 else { throw .typeFault("clamp arity") }
            var result = values[0]
            if try CallNode.less(result, values[1]) { result = values[1] }
            if try CallNode.less(values[2], result) { result = values[2] }
            return try CallNode.widen(result, like: values)
        case .abs:
            switch values[0] {
            case .int(let x):
                guard x != Int.min else { throw .overflow(range) }
                return .int(Swift.abs(x))
            case .number(let x): return .number(Swift.abs(x))
            case .duration(let x):
                guard x != Int.min else { throw .overflow(range) }
                return .duration(Swift.abs(x))
            default: throw .typeFault("abs")
            }
        case .round, .floor, .ceil:
            guard let x = values[0].numeric else { throw .typeFault(builtin.rawValue) }
            let rule: FloatingPointRoundingRule =
                builtin == .round ? .toNearestOrAwayFromZero : builtin == .floor ? .down : .up
            return .int(try ArithmeticNode.toInt(x.rounded(rule), range))
        case .minutes, .hours:
            guard case .duration(let seconds) = values[0] else { throw .typeFault(builtin.rawValue) }
            return .number(Double(seconds) / (builtin == .minutes ? 60 : 3600))
        case .count:
            guard case .list(let items) = values[0] else { throw .typeFault("count") }
            return .int(items.count)
        case .contains:
            guard case .list(let items) = values[0] else { throw .typeFault("contains") }
            try context.spend(items.count)
            return .bool(items.contains { Value.sameValue($0, values[1]) })
        }
    }

    private static func less(_ a: Value, _ b: Value) throws(EvaluationError) -> Bool {
        if let x = a.numeric, let y = b.numeric {
            if x.isNaN || y.isNaN { throw .notANumber(TextRange(0, 0)) }
            return x < y
        }
        if case .duration(let x) = a, case .duration(let y) = b { return x < y }
        throw .typeFault("min/max operands")
    }

    /// An int result among number arguments is reported as a number (the checked type).
    private static func widen(_ value: Value, like values: [Value]) throws(EvaluationError) -> Value {
        if case .int(let x) = value, values.contains(where: { if case .number = $0 { true } else { false } }) {
            return .number(Double(x))
        }
        return value
    }
}
