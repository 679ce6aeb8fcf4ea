/// What the linter asks of a checked expression without running it on real facts:
/// is it the same whatever the facts (constant true / false), and which facts does it read.
public enum ConstantAnalysis {
    /// `true` / `false` when the condition has that value for every fact value, nil when
    /// it depends on facts. Folds literals, `!`, and `&&` / `||` with one constant side
    /// (`x || true` is true). Times compare within a logical day starting at `dayStart`.
    public static func truth(of expression: CompiledExpression, dayStart: Int = 4 * 3600) -> Bool? {
        guard case .bool(let value)? = constantValue(expression.typed, dayStart: dayStart) else { return nil }
        return value
    }

    /// The value of a subtree that reads no facts (or is decided regardless of them).
    public static func constantValue(_ node: TypedNode, dayStart: Int = 4 * 3600) -> Value? {
        switch node.kind {
        case .constant(let value):
            return value.isUnknown ? nil : value
        case .fact:
            return nil
        case .binary(.and, let lhs, let rhs):
            let a = constantValue(lhs, dayStart: dayStart)
            let b = constantValue(rhs, dayStart: dayStart)
            if a == .bool(false) || b == .bool(false) { return .bool(false) }
            if a == .bool(true), b == .bool(true) { return .bool(true) }
            return nil
        case .binary(.or, let lhs, let rhs):
            let a = constantValue(lhs, dayStart: dayStart)
            let b = constantValue(rhs, dayStart: dayStart)
            if a == .bool(true) || b == .bool(true) { return .bool(true) }
            if a == .bool(false), b == .bool(false) { return .bool(false) }
            return nil
        default:
            guard node.children.allSatisfy({ constantValue($0, dayStart: dayStart) != nil }) else { return nil }
            var context = EvaluationContext(facts: FactValues(count: 0), dayStart: dayStart)
            return try? Compiler.compile(node).evaluate(&context)
        }
    }
}
