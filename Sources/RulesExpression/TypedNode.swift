/// A checked expression tree: every node has its type, facts are resolved to slots and
/// enum literals are typed as their enum.
public struct TypedNode: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        case constant(Value)
        case fact(slot: Int, name: String)
        case list([TypedNode])
        case call(Builtin, [TypedNode])
        case unary(UnaryOperator, TypedNode)
        case binary(BinaryOperator, TypedNode, TypedNode)
        case conditional(TypedNode, TypedNode, TypedNode)
    }

    public var kind: Kind
    public var type: ExpressionType
    public var range: TextRange

    public init(_ kind: Kind, _ type: ExpressionType, _ range: TextRange) {
        self.kind = kind
        self.type = type
        self.range = range
    }

    /// Direct children, in evaluation order.
    public var children: [TypedNode] {
        switch kind {
        case .constant, .fact: []
        case .list(let items): items
        case .call(_, let arguments): arguments
        case .unary(_, let operand): [operand]
        case .binary(_, let lhs, let rhs): [lhs, rhs]
        case .conditional(let c, let a, let b): [c, a, b]
        }
    }

    /// Names of the facts this tree reads, each once, in first-read order.
    public var factsRead: [String] {
        var names: [String] = []
        var stack = [self]
        while let node = stack.popLast() {
            if case .fact(_, let name) = node.kind, !names.contains(name) { names.append(name) }
            stack.append(contentsOf: node.children.reversed())
        }
        return names
    }
}

/// How types combine (SPEC §3): int widens to number, optionals stay optional, an empty
/// list fits any list, an error fits anything.
enum TypeRules {
    static func unify(_ a: ExpressionType, _ b: ExpressionType) -> ExpressionType? {
        if a == b { return a }
        if a == .error { return b }
        if b == .error { return a }
        if a.isNumeric, b.isNumeric { return .number }
        if case .optional(let x) = a { return unify(x, b.unwrapped).map { .optional($0) } }
        if case .optional(let y) = b { return unify(a, y).map { .optional($0) } }
        if case .list(let x) = a, case .list(let y) = b {
            if x == .nothing { return b }
            if y == .nothing { return a }
            return unify(x, y).map { .list($0) }
        }
        if (a == .routineID && b == .string) || (a == .string && b == .routineID) { return .string }
        return nil
    }

    /// Whether a value of `found` may stand where `expected` is wanted.
    static func fits(_ found: ExpressionType, _ expected: ExpressionType) -> Bool {
        if found == expected || found == .error || expected == .error { return true }
        if found == .int, expected == .number { return true }
        if case .optional(let wrapped) = expected { return fits(found.unwrapped, wrapped) }
        if case .list(let x) = found, case .list(let y) = expected { return x == .nothing || fits(x, y) }
        if found == .routineID, expected == .string { return true }
        return false
    }
}
