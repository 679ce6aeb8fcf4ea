/// Turns a checked tree into its evaluable form once; the result is evaluated many times.
enum Compiler {
    static func compile(_ node: TypedNode) -> Evaluable {
        switch node.kind {
        case .constant(let value):
            return ConstantNode(node.type == .number ? (value.numeric.map(Value.number) ?? value) : value)
        case .fact(let slot, let name):
            return FactNode(slot: slot, name: name, optional: node.type.isOptional)
        case .list(let items):
            if items.allSatisfy({ if case .constant = $0.kind { true } else { false } }) {
                return ConstantNode(.list(items.compactMap { if case .constant(let v) = $0.kind { v } else { nil } }))
            }
            return ListNode(items.map(compile))
        case .call(let builtin, let arguments):
            return CallNode(builtin, arguments.map(compile), range: node.range)
        case .unary(.not, let operand):
            return NotNode(compile(operand))
        case .unary(.negate, let operand):
            return NegateNode(compile(operand), range: node.range)
        case .conditional(let c, let a, let b):
            return ConditionalNode(compile(c), compile(a), compile(b))
        case .binary(let op, let lhs, let rhs):
            return binary(op, lhs, rhs, node)
        }
    }

    private static func binary(_ op: BinaryOperator, _ lhs: TypedNode, _ rhs: TypedNode, _ node: TypedNode) -> Evaluable {
        switch op {
        case .and: return AndNode(compile(lhs), compile(rhs))
        case .or: return OrNode(compile(lhs), compile(rhs))
        case .coalesce: return CoalesceNode(compile(lhs), compile(rhs))
        case .equal, .notEqual:
            if case .fact(let slot, let name) = lhs.kind, case .constant(let constant) = rhs.kind {
                return FactEqualityNode(negated: op == .notEqual, slot: slot, name: name, optional: lhs.type.isOptional, constant: constant)
            }
            if case .constant(let constant) = lhs.kind, case .fact(let slot, let name) = rhs.kind {
                return FactEqualityNode(negated: op == .notEqual, slot: slot, name: name, optional: rhs.type.isOptional, constant: constant)
            }
            return EqualityNode(negated: op == .notEqual, compile(lhs), compile(rhs))
        case .in: return InNode(compile(lhs), compile(rhs))
        case .less, .lessEqual, .greater, .greaterEqual:
            return comparison(op, lhs, rhs)
        case .add, .subtract, .multiply, .divide:
            return ArithmeticNode(op, arithmeticKind(op, lhs.type.unwrapped, rhs.type.unwrapped), compile(lhs), compile(rhs), range: node.range)
        }
    }

    private static func comparison(_ op: BinaryOperator, _ lhs: TypedNode, _ rhs: TypedNode) -> Evaluable {
        // `fact op constant`: one node, no boxing.
        if case .fact(let slot, let name) = lhs.kind, case .constant(let constant) = rhs.kind {
            if lhs.type.isNumeric, let value = constant.numeric {
                return FactCompareNode(op, slot: slot, name: name, constant: .number(value))
            }
            if lhs.type == .time, case .time(let value) = constant {
                return FactCompareNode(op, slot: slot, name: name, constant: .time(value))
            }
        }
        let ordering: Ordering
        switch lhs.type {
        case .int where rhs.type == .int: ordering = .integer
        case .int, .number: ordering = .numeric
        case .time: ordering = .time
        case .string: ordering = .string
        default: ordering = .integer
        }
        return CompareNode(op, ordering, compile(lhs), compile(rhs))
    }

    private static func arithmeticKind(_ op: BinaryOperator, _ a: ExpressionType, _ b: ExpressionType) -> ArithmeticKind {
        switch (a, b) {
        case (.int, .int): return op == .divide ? .numeric : .integer
        case (.string, _): return .string
        case (.duration, .duration): return op == .divide ? .durationRatio : .duration
        case (.time, .time): return .timeDifference
        case (.time, _), (_, .time): return .timeShift
        case (.duration, _), (_, .duration): return .durationScale
        default: return .numeric
        }
    }
}
