/// The compiled form of a checked tree: a tree of small immutable objects, each with one
/// job, chosen at compile time from the operand types, so evaluation does no type
/// dispatch and allocates nothing for scalar results.
class Evaluable: @unchecked Sendable {
    func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        .unknown
    }

    /// Evaluates to a bool (conditions); a non-bool is a type fault. Condition nodes answer
    /// it directly (the same steps, no `Value` made and unwrapped).
    func bool(_ context: inout EvaluationContext) throws(EvaluationError) -> Bool {
        guard case .bool(let value) = try evaluate(&context) else { throw .typeFault("expected a bool") }
        return value
    }

    /// The most steps an evaluation of this node takes when no fact's value can make it
    /// fail; nil when one can: arithmetic (overflow, division by zero, not a number), calls,
    /// and scans of a list whose length is known only at run time (the budget). A node of
    /// another kind is nil until it says otherwise. (A fact holding another type than its
    /// schema says, or a required fact left unknown, is a fault of the engine's, not of the
    /// expression: the checker's types rule both out.) Trees are as deep as the compiler
    /// allows, at most.
    var failureFreeSteps: Int? { nil }

    /// `own` steps plus each child's bound; nil when a child has none.
    static func steps(_ own: Int, _ children: Evaluable...) -> Int? { steps(own, children) }

    static func steps(_ own: Int, _ children: [Evaluable]) -> Int? {
        var total = own
        for child in children {
            guard let steps = child.failureFreeSteps else { return nil }
            total = total.addingReportingOverflow(steps).overflow ? Int.max : total + steps
        }
        return total
    }
}

final class ConstantNode: Evaluable, @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
    override var failureFreeSteps: Int? { 0 }
    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value { value }
}

final class FactNode: Evaluable, @unchecked Sendable {
    let slot: Int
    let name: String
    let optional: Bool

    init(slot: Int, name: String, optional: Bool) {
        self.slot = slot
        self.name = name
        self.optional = optional
    }

    override var failureFreeSteps: Int? { 1 }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        let cell = context.facts.cell(slot)
        if !optional, cell.isUnknown { throw .missingFact(name) }
        return context.facts.value(of: cell)
    }
}

final class NotNode: Evaluable, @unchecked Sendable {
    let operand: Evaluable
    init(_ operand: Evaluable) { self.operand = operand }
    override var failureFreeSteps: Int? { Evaluable.steps(1, operand) }
    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        .bool(try bool(&context))
    }
    override func bool(_ context: inout EvaluationContext) throws(EvaluationError) -> Bool {
        try context.step()
        return !(try operand.bool(&context))
    }
}

final class AndNode: Evaluable, @unchecked Sendable {
    let lhs: Evaluable
    let rhs: Evaluable
    init(_ lhs: Evaluable, _ rhs: Evaluable) {
        self.lhs = lhs
        self.rhs = rhs
    }
    override var failureFreeSteps: Int? { Evaluable.steps(1, lhs, rhs) }
    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        .bool(try bool(&context))
    }
    override func bool(_ context: inout EvaluationContext) throws(EvaluationError) -> Bool {
        try context.step()
        guard try lhs.bool(&context) else { return false }
        return try rhs.bool(&context)
    }
}

final class OrNode: Evaluable, @unchecked Sendable {
    let lhs: Evaluable
    let rhs: Evaluable
    init(_ lhs: Evaluable, _ rhs: Evaluable) {
        self.lhs = lhs
        self.rhs = rhs
    }
    override var failureFreeSteps: Int? { Evaluable.steps(1, lhs, rhs) }
    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        .bool(try bool(&context))
    }
    override func bool(_ context: inout EvaluationContext) throws(EvaluationError) -> Bool {
        try context.step()
        if try lhs.bool(&context) { return true }
        return try rhs.bool(&context)
    }
}

final class CoalesceNode: Evaluable, @unchecked Sendable {
    let lhs: Evaluable
    let rhs: Evaluable
    init(_ lhs: Evaluable, _ rhs: Evaluable) {
        self.lhs = lhs
        self.rhs = rhs
    }
    override var failureFreeSteps: Int? { Evaluable.steps(1, lhs, rhs) }
    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        let value = try lhs.evaluate(&context)
        if case .unknown = value { return try rhs.evaluate(&context) }
        return value
    }
}

final class ConditionalNode: Evaluable, @unchecked Sendable {
    let condition: Evaluable
    let whenTrue: Evaluable
    let whenFalse: Evaluable
    init(_ condition: Evaluable, _ whenTrue: Evaluable, _ whenFalse: Evaluable) {
        self.condition = condition
        self.whenTrue = whenTrue
        self.whenFalse = whenFalse
    }
    override var failureFreeSteps: Int? { Evaluable.steps(1, condition, whenTrue, whenFalse) }
    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        return try condition.bool(&context) ? try whenTrue.evaluate(&context) : try whenFalse.evaluate(&context)
    }
}

final class ListNode: Evaluable, @unchecked Sendable {
    let items: [Evaluable]
    init(_ items: [Evaluable]) { self.items = items }
    override var failureFreeSteps: Int? { Evaluable.steps(1, items) }
    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        var values: [Value] = []
        values.reserveCapacity(items.count)
        for item in items { values.append(try item.evaluate(&context)) }
        return .list(values)
    }
}

/// How two values are ordered, by the kind of the operands (chosen at compile time).
enum Ordering: Sendable {
    case numeric, integer, time, string
}

final class CompareNode: Evaluable, @unchecked Sendable {
    let op: BinaryOperator
    let ordering: Ordering
    let lhs: Evaluable
    let rhs: Evaluable

    init(_ op: BinaryOperator, _ ordering: Ordering, _ lhs: Evaluable, _ rhs: Evaluable) {
        self.op = op
        self.ordering = ordering
        self.lhs = lhs
        self.rhs = rhs
    }

    override var failureFreeSteps: Int? { Evaluable.steps(1, lhs, rhs) }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        let a = try lhs.evaluate(&context)
        let b = try rhs.evaluate(&context)
        switch ordering {
        case .integer:
            guard let x = a.orderedInteger, let y = b.orderedInteger else { throw .typeFault("expected comparable values") }
            return .bool(CompareNode.apply(op, x, y))
        case .numeric:
            guard let x = a.numeric, let y = b.numeric else { throw .typeFault("expected numbers") }
            return .bool(CompareNode.apply(op, x, y))
        case .time:
            guard case .time(let x) = a, case .time(let y) = b else { throw .typeFault("expected times") }
            return .bool(CompareNode.apply(op, context.logical(x), context.logical(y)))
        case .string:
            guard case .string(let x) = a, case .string(let y) = b else { throw .typeFault("expected strings") }
            return .bool(CompareNode.apply(op, x, y))
        }
    }

    @inline(__always)
    static func apply<T: Comparable>(_ op: BinaryOperator, _ x: T, _ y: T) -> Bool {
        switch op {
        case .less: x < y
        case .lessEqual: x <= y
        case .greater: x > y
        default: x >= y
        }
    }
}

/// `fact op constant` on numbers or times of day: the commonest condition shape, in one
/// node that reads the slot directly instead of boxing both operands.
final class FactCompareNode: Evaluable, @unchecked Sendable {
    enum Constant {
        case number(Double)
        /// Seconds since midnight, compared within the logical day.
        case time(Int)
    }

    let op: BinaryOperator
    let slot: Int
    let name: String
    let constant: Constant

    init(_ op: BinaryOperator, slot: Int, name: String, constant: Constant) {
        self.op = op
        self.slot = slot
        self.name = name
        self.constant = constant
    }

    override var failureFreeSteps: Int? { 1 }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        .bool(try bool(&context))
    }
    override func bool(_ context: inout EvaluationContext) throws(EvaluationError) -> Bool {
        try context.step()
        // Read from the cell: no `Value` is made for a number or a time.
        let cell = context.facts.cell(slot)
        switch (cell.kind, constant) {
        case (.int, .number(let c)): return CompareNode.apply(op, Double(cell.integer), c)
        case (.number, .number(let c)): return CompareNode.apply(op, Double(bitPattern: cell.tail), c)
        case (.time, .time(let c)): return CompareNode.apply(op, context.logical(cell.integer), context.logical(c))
        case (.unknown, _): throw .missingFact(name)
        default: throw .typeFault(name)
        }
    }
}

/// `fact == constant` (or `!=`): the commonest test of an enum fact (`risk == "high"`),
/// comparing cells where the bits decide (an inline string against an inline constant)
/// and values otherwise, exactly as `EqualityNode` over a `FactNode` would.
final class FactEqualityNode: Evaluable, @unchecked Sendable {
    let negated: Bool
    let slot: Int
    let name: String
    let optional: Bool
    let constant: Value
    /// The constant as a cell, when it fits one.
    let constantCell: FactCell?

    init(negated: Bool, slot: Int, name: String, optional: Bool, constant: Value) {
        self.negated = negated
        self.slot = slot
        self.name = name
        self.optional = optional
        self.constant = constant
        constantCell = FactCell(constant)
    }

    override var failureFreeSteps: Int? { 2 }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        .bool(try bool(&context))
    }
    override func bool(_ context: inout EvaluationContext) throws(EvaluationError) -> Bool {
        // Two steps, as the equality and its fact operand would take.
        try context.step()
        try context.step()
        let cell = context.facts.cell(slot)
        if !optional, cell.isUnknown { throw .missingFact(name) }
        if let constantCell, cell.kind == .string, constantCell.kind == .string {
            // Same bytes: equal. Different ASCII bytes: different. Else Swift's comparison
            // (canonical equivalence) decides.
            if cell.sameBits(as: constantCell) { return !negated }
            if cell.isASCIIString, constantCell.isASCIIString { return negated }
        }
        let equal = Value.sameValue(context.facts.value(of: cell), constant)
        return equal != negated
    }
}

final class EqualityNode: Evaluable, @unchecked Sendable {
    let negated: Bool
    let lhs: Evaluable
    let rhs: Evaluable

    init(negated: Bool, _ lhs: Evaluable, _ rhs: Evaluable) {
        self.negated = negated
        self.lhs = lhs
        self.rhs = rhs
    }

    override var failureFreeSteps: Int? { Evaluable.steps(1, lhs, rhs) }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        let equal = Value.sameValue(try lhs.evaluate(&context), try rhs.evaluate(&context))
        return .bool(equal != negated)
    }
}

final class InNode: Evaluable, @unchecked Sendable {
    let element: Evaluable
    let list: Evaluable

    init(_ element: Evaluable, _ list: Evaluable) {
        self.element = element
        self.list = list
    }

    /// The list's scan is bounded only when its length is written in the expression.
    override var failureFreeSteps: Int? {
        let length: Int
        if let literal = list as? ListNode {
            length = literal.items.count
        } else if let constant = list as? ConstantNode, case .list(let items) = constant.value {
            length = items.count
        } else {
            return nil
        }
        return Evaluable.steps(1 + length, element, list)
    }

    override func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try context.step()
        let value = try element.evaluate(&context)
        guard case .list(let items) = try list.evaluate(&context) else { throw .typeFault("expected a list") }
        try context.spend(items.count)
        return .bool(items.contains { Value.sameValue($0, value) })
    }
}

extension EvaluationContext {
    /// Charges `count` steps at once (list scans).
    @inline(__always)
    mutating func spend(_ count: Int) throws(EvaluationError) {
        steps &+= count
        if steps > budget { throw .budgetExceeded }
    }
}

extension Value {
    /// Equality with int/number widening (`3 == 3.0`).
    static func sameValue(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .number(let y)): return Double(x) == y
        case (.number(let x), .int(let y)): return x == Double(y)
        default: return a == b
        }
    }

    /// Ints, durations, dates and times as integers for ordering (times are ordered by
    /// the caller through the logical day instead).
    var orderedInteger: Int? {
        switch self {
        case .int(let v), .duration(let v), .date(let v): v
        default: nil
        }
    }
}
