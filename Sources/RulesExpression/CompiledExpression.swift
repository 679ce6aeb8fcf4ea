import RulesDiagnostics

/// An expression that has been parsed, checked against a schema and compiled: what the
/// ruleset stores for every `when:`, `at:` and template placeholder.
public struct CompiledExpression: Sendable {
    /// Behind one reference: rules and candidates copy their expressions often, and one
    /// retain is cheaper than one per field.
    private final class Storage: Sendable {
        let source: String
        let typed: TypedNode
        let program: Evaluable
        let factsRead: [String]
        /// `Evaluable.failureFreeSteps` of the program, worked out once.
        let failureFreeSteps: Int?

        init(source: String, typed: TypedNode, program: Evaluable, factsRead: [String]) {
            self.source = source
            self.typed = typed
            self.program = program
            self.factsRead = factsRead
            failureFreeSteps = program.failureFreeSteps
        }
    }
    private let storage: Storage

    private init(source: String, typed: TypedNode, program: Evaluable, factsRead: [String]) {
        storage = Storage(source: source, typed: typed, program: program, factsRead: factsRead)
    }

    /// The text as written in the rule file.
    public var source: String { storage.source }
    public var typed: TypedNode { storage.typed }
    private var program: Evaluable { storage.program }

    /// The checked type of the result.
    public var type: ExpressionType { typed.type }

    /// Facts read, each once, in first-read order (computed once, at compile time).
    public var factsRead: [String] { storage.factsRead }

    /// Whether some values of the facts it reads can make an evaluation fail (an evaluation
    /// error: overflow, division by zero, not a number, a call's error, or more steps than
    /// the budget); false when it has no arithmetic, no call and no scan of a list of run-time
    /// length, and takes at most the budget's steps. Its types are the checker's: a value of
    /// another type, or a required fact left unknown, would be the engine's fault.
    public var canFailOnValues: Bool { storage.failureFreeSteps.map { $0 > InputLimits.evaluationBudget } ?? true }

    /// Parses, checks and compiles `source`. Returns nil with every diagnostic when it has
    /// errors, or when it names a routine of `schema.withheldRoutineIDs` (whose own error
    /// is reported where it is defined); warnings come back alongside a compiled
    /// expression. Diagnostics are placed on the expression's own text (see
    /// `Diagnostic.placed(in:locate:)`).
    public static func compile(
        _ source: String, schema: FactSchema, expecting expectation: Checker.Expectation
    ) -> (expression: CompiledExpression?, diagnostics: [Diagnostic]) {
        let (tree, parseDiagnostics) = Parser.parse(source)
        if parseDiagnostics.contains(where: { $0.severity == .error }) { return (nil, parseDiagnostics) }
        if ExpressionDepth.of(tree) > InputLimits.maxExpressionDepth {
            return (nil, parseDiagnostics + [ExpressionDiagnostics.tooDeep(tree.range)])
        }
        var checker = Checker(schema: schema, text: source)
        let typed = checker.check(tree, expecting: expectation)
        let diagnostics = parseDiagnostics + checker.diagnostics
        if diagnostics.contains(where: { $0.severity == .error }) || checker.namesWithheldRoutine { return (nil, diagnostics) }
        return (CompiledExpression(source: source, typed: typed, program: Compiler.compile(typed), factsRead: typed.factsRead), diagnostics)
    }

    /// Evaluates against `context`; the step counter continues from its current value.
    public func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        try program.evaluate(&context)
    }

    /// Evaluates a condition with a fresh step budget.
    public func isTrue(_ context: inout EvaluationContext) throws(EvaluationError) -> Bool {
        context.steps = 0
        return try program.bool(&context)
    }

    /// Evaluates with a fresh step budget.
    public func value(_ context: inout EvaluationContext) throws(EvaluationError) -> Value {
        context.steps = 0
        return try program.evaluate(&context)
    }
}

/// Depth of a tree, measured without recursion (a hostile `a+a+…` chain is deep).
enum ExpressionDepth {
    static func of(_ tree: SyntaxNode) -> Int {
        var deepest = 0
        var stack: [(SyntaxNode, Int)] = [(tree, 1)]
        while let (node, depth) = stack.popLast() {
            deepest = Swift.max(deepest, depth)
            if deepest > InputLimits.maxExpressionDepth { return deepest }
            switch node.kind {
            case .list(let items): stack += items.map { ($0, depth + 1) }
            case .member(let base, _, _): stack.append((base, depth))  // a.b.c is one fact
            case .call(_, _, let arguments): stack += arguments.map { ($0, depth + 1) }
            case .unary(_, let operand): stack.append((operand, depth + 1))
            case .binary(_, let lhs, let rhs):
                stack.append((lhs, depth + 1))
                stack.append((rhs, depth + 1))
            case .conditional(let c, let a, let b):
                stack.append((c, depth + 1))
                stack.append((a, depth + 1))
                stack.append((b, depth + 1))
            default: break
            }
        }
        return deepest
    }
}
