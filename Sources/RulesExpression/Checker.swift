import RulesDiagnostics

/// Type-checks a parsed expression against a fact schema and returns the typed tree plus
/// every diagnostic (never only the first). Unknown names get a did-you-mean; optional
/// facts used where a definite value is needed get a hint with the `??` form.
public struct Checker {
    let schema: FactSchema
    let text: [Unicode.Scalar]
    public private(set) var diagnostics: [Diagnostic] = []
    /// Whether the expression names a routine left out for its own errors: it does not
    /// compile, with no diagnostic of its own.
    public internal(set) var namesWithheldRoutine = false

    public init(schema: FactSchema, text: String) {
        self.schema = schema
        self.text = Array(text.unicodeScalars)
    }

    /// What the place an expression sits in wants of it.
    public enum Expectation: Sendable, Equatable {
        /// A definite bool (`when:`).
        case condition
        /// A value that fits this type (optional types accept unknown).
        case value(ExpressionType)
        /// Anything: the caller inspects the type (template placeholders).
        case anything
    }

    public mutating func check(_ tree: SyntaxNode, expecting expectation: Expectation) -> TypedNode {
        let typed = check(tree)
        switch expectation {
        case .condition:
            requireCondition(typed, context: "condition")
        case .value(let expected):
            if !TypeRules.fits(typed.type, expected) {
                if typed.type.isOptional, TypeRules.fits(typed.type.unwrapped, expected) {
                    report(needsDefault(typed))
                } else {
                    report(ExpressionDiagnostics.expectedType(expected, found: typed.type, context: "this value", typed.range))
                }
            }
        case .anything:
            break
        }
        return typed
    }

    mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    func source(_ range: TextRange) -> String {
        let start = Swift.max(0, Swift.min(range.start, text.count))
        let end = Swift.max(start, Swift.min(range.end, text.count))
        return String(String.UnicodeScalarView(text[start..<end]))
    }

    func needsDefault(_ node: TypedNode) -> Diagnostic {
        let written = source(node.range)
        var suggested = FactSchema.defaultSpelling(node.type.unwrapped)
        if case .fact(_, let name) = node.kind, let hint = schema.fact(named: name)?.suggestedDefault {
            suggested = hint
        }
        return ExpressionDiagnostics.needsDefault(
            written, type: node.type, suggestion: "(\(written) ?? \(suggested))", node.range)
    }

    mutating func requireCondition(_ node: TypedNode, context: String) {
        if node.type == .bool || node.type == .error { return }
        if node.type == .optional(.bool) {
            report(needsDefault(node))
            return
        }
        var hint: String?
        if node.type.unwrapped.isNumeric { hint = "compare it: \(source(node.range)) > 0" }
        report(ExpressionDiagnostics.notBoolean(node.type, node.range, hint: hint))
    }

    /// A definite operand of `type`-class, or a diagnostic (optional → `??` hint).
    mutating func requireDefinite(_ node: TypedNode) -> Bool {
        guard node.type.isOptional else { return true }
        report(needsDefault(node))
        return false
    }

    // MARK: nodes

    mutating func check(_ node: SyntaxNode) -> TypedNode {
        let range = node.range
        switch node.kind {
        case .int(let value): return TypedNode(.constant(.int(value)), .int, range)
        case .number(let value): return TypedNode(.constant(.number(value)), .number, range)
        case .string(let value): return TypedNode(.constant(.string(value)), .string, range)
        case .bool(let value): return TypedNode(.constant(.bool(value)), .bool, range)
        case .time(let value): return TypedNode(.constant(.time(value)), .time, range)
        case .duration(let value): return TypedNode(.constant(.duration(value)), .duration, range)
        case .error: return TypedNode(.constant(.unknown), .error, range)
        case .list(let items): return checkList(items, range)
        case .identifier, .member: return checkPath(node)
        case .call(let name, let nameRange, let arguments): return checkCall(name, nameRange, arguments, range)
        case .unary(let op, let operand): return checkUnary(op, check(operand), range)
        case .binary(let op, let lhs, let rhs): return checkBinary(op, lhs, rhs, range)
        case .conditional(let c, let a, let b):
            let condition = check(c)
            requireCondition(condition, context: "the condition of '?:'")
            let whenTrue = check(a)
            let whenFalse = check(b)
            guard let type = TypeRules.unify(whenTrue.type, whenFalse.type) else {
                report(
                    ExpressionDiagnostics.mismatch(
                        "the branches of '?:' have different types, \(whenTrue.type) and \(whenFalse.type)", range))
                return TypedNode(.conditional(condition, whenTrue, whenFalse), .error, range)
            }
            return TypedNode(.conditional(condition, whenTrue, whenFalse), type, range)
        }
    }

    mutating func checkList(_ items: [SyntaxNode], _ range: TextRange) -> TypedNode {
        let typed = items.map { check($0) }
        var element: ExpressionType = .nothing
        for item in typed {
            if element == .nothing {
                element = item.type
            } else if let unified = TypeRules.unify(element, item.type) {
                element = unified
            } else {
                report(
                    ExpressionDiagnostics.mismatch(
                        "list items must have one type; this is \(item.type) after \(element)", item.range))
                element = .error
            }
        }
        return TypedNode(.list(typed), .list(element), range)
    }

    mutating func checkPath(_ node: SyntaxNode) -> TypedNode {
        guard let path = node.dottedPath else {
            if case .member(let base, let name, _) = node.kind {
                let typedBase = check(base)
                if typedBase.type != .error {
                    report(ExpressionDiagnostics.mismatch("\(typedBase.type) has no member '\(name)'", node.range))
                }
            }
            return TypedNode(.constant(.unknown), .error, node.range)
        }
        if let fact = schema.fact(named: path) {
            return TypedNode(.fact(slot: fact.slot, name: path), fact.type, node.range)
        }
        if let diagnostic = unknownPathDiagnostic(path, node) {
            report(diagnostic)
        } else {
            namesWithheldRoutine = true
        }
        return TypedNode(.constant(.unknown), .error, node.range)
    }

    /// Why `path` names no fact; nil when it names a routine left out for its own errors
    /// (reported where the routine is).
    func unknownPathDiagnostic(_ path: String, _ node: SyntaxNode) -> Diagnostic? {
        let parts = path.split(separator: ".").map(String.init)
        if parts.first == "routines", parts.count >= 2, !schema.routineIDs.contains(parts[1]) {
            if schema.withheldRoutineIDs.contains(parts[1]) { return nil }
            let range = memberRange(node, depth: parts.count - 2)
            return ExpressionDiagnostics.unknownRoutine(
                parts[1], suggestion: Suggestions.nearest(to: parts[1], among: schema.routineIDs),
                known: schema.routineIDs, range)
        }
        if schema.hasMembers(path) {
            let members = schema.members(of: path)
            return ExpressionDiagnostics.unknownFact(path, suggestion: nil, node.range).withHint(
                "'\(path)' is a group of facts; use one of: \(FactSchema.listed(members, of: path))")
        }
        if ["null", "nil", "none", "undefined", "unknown"].contains(path.lowercased()) {
            return ExpressionDiagnostics.unknownFact(path, suggestion: nil, node.range).withHint(
                "the rule language has no '\(path)': a fact that may be unknown compares through a default, e.g. (quest.steps.target ?? 0) == 0")
        }
        if parts.first == "routine", !schema.hasMembers("routine") {
            return ExpressionDiagnostics.unknownFact(path, suggestion: nil, node.range).withHint(
                "'routine' is bound only inside a notification with 'for_each: routine' (its 'at' and 'when'); elsewhere name one: routines.<id>.\(parts.dropFirst().joined(separator: "."))"
            )
        }
        // Find the longest known prefix and suggest among its members.
        var prefixLength = parts.count - 1
        while prefixLength > 0, !schema.hasMembers(parts[0..<prefixLength].joined(separator: ".")) {
            prefixLength -= 1
        }
        if prefixLength > 0 {
            let prefix = parts[0..<prefixLength].joined(separator: ".")
            let member = parts[prefixLength]
            let members = schema.members(of: prefix)
            let suggestion = Suggestions.nearest(to: member, among: members).map { prefix + "." + $0 }
            let range = memberRange(node, depth: parts.count - 1 - prefixLength)
            return ExpressionDiagnostics.unknownMember(prefix, member: member, suggestion: suggestion, members: members, range)
        }
        let candidates =
            schema.facts.map(\.name)
            + schema.facts.compactMap { fact in
                fact.name.split(separator: ".").first.map(String.init)
            }
        return ExpressionDiagnostics.unknownFact(
            path, suggestion: Suggestions.nearest(to: path, among: candidates), node.range)
    }

    /// The range of the name `depth` members below the top of a member chain.
    func memberRange(_ node: SyntaxNode, depth: Int) -> TextRange {
        var current = node
        for _ in 0..<depth {
            guard case .member(let base, _, _) = current.kind else { break }
            current = base
        }
        switch current.kind {
        case .member(_, _, let nameRange): return nameRange
        default: return current.range
        }
    }

    mutating func checkCall(
        _ name: String, _ nameRange: TextRange, _ arguments: [SyntaxNode], _ range: TextRange
    ) -> TypedNode {
        let typed = arguments.map { check($0) }
        guard let builtin = Builtin(rawValue: name) else {
            report(
                ExpressionDiagnostics.unknownFunction(
                    name, suggestion: Suggestions.nearest(to: name, among: Builtin.allCases.map(\.rawValue)), nameRange))
            return TypedNode(.call(.count, typed), .error, range)
        }
        if typed.contains(where: { $0.type == .error }) {
            return TypedNode(.call(builtin, typed), .error, range)
        }
        for argument in typed where argument.type.isOptional {
            report(needsDefault(argument))
            return TypedNode(.call(builtin, typed), .error, range)
        }
        var arguments = typed
        if builtin == .contains, arguments.count == 2, case .list(let element) = arguments[0].type {
            arguments[1] = retypeLiteral(arguments[1], as: element)
            guard let list = retypeListLiteral(arguments[0], as: arguments[1].type) else {
                return TypedNode(.call(builtin, arguments), .error, range)
            }
            arguments[0] = list
        }
        guard let type = builtin.resultType(arguments.map(\.type)) else {
            report(ExpressionDiagnostics.wrongArguments(builtin, found: arguments.map(\.type), range))
            return TypedNode(.call(builtin, arguments), .error, range)
        }
        return TypedNode(.call(builtin, arguments), type, range)
    }

    mutating func checkUnary(_ op: UnaryOperator, _ operand: TypedNode, _ range: TextRange) -> TypedNode {
        if operand.type == .error { return TypedNode(.unary(op, operand), .error, range) }
        switch op {
        case .not:
            if operand.type == .bool { return TypedNode(.unary(op, operand), .bool, range) }
            if operand.type.isOptional {
                report(needsDefault(operand))
            } else {
                report(ExpressionDiagnostics.mismatch("'!' needs a bool, but this is \(operand.type)", operand.range))
            }
        case .negate:
            let base = operand.type.unwrapped
            if base == .int || base == .number || base == .duration {
                return TypedNode(.unary(op, operand), operand.type, range)
            }
            report(ExpressionDiagnostics.mismatch("'-' needs a number or duration, but this is \(operand.type)", operand.range))
        }
        return TypedNode(.unary(op, operand), .error, range)
    }
}

extension Diagnostic {
    func withHint(_ hint: String) -> Diagnostic {
        var copy = self
        copy.hint = hint
        return copy
    }
}

extension Value {
    /// A number or duration that is zero (the divisor `/` refuses).
    var isZero: Bool {
        switch self {
        case .int(let value): value == 0
        case .number(let value): value == 0
        case .duration(let value): value == 0
        default: false
        }
    }
}
