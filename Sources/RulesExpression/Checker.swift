import RulesDiagnostics

/// Type-checks a parsed expression against a fact schema and returns the typed tree plus
/// every diagnostic (never only the first). Unknown names get a did-you-mean; optional
/// facts used where a definite value is needed get a hint with the `??` form.
public struct Checker {
    private let schema: FactSchema
    private let text: [Unicode.Scalar]
    public private(set) var diagnostics: [Diagnostic] = []
    /// Whether the expression names a routine left out for its own errors: it does not
    /// compile, with no diagnostic of its own.
    public private(set) var namesWithheldRoutine = false

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

    private mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    private func source(_ range: TextRange) -> String {
        let start = Swift.max(0, Swift.min(range.start, text.count))
        let end = Swift.max(start, Swift.min(range.end, text.count))
        return String(String.UnicodeScalarView(text[start..<end]))
    }

    private func needsDefault(_ node: TypedNode) -> Diagnostic {
        let written = source(node.range)
        var suggested = FactSchema.defaultSpelling(node.type.unwrapped)
        if case .fact(_, let name) = node.kind, let hint = schema.fact(named: name)?.suggestedDefault {
            suggested = hint
        }
        return ExpressionDiagnostics.needsDefault(
            written, type: node.type, suggestion: "(\(written) ?? \(suggested))", node.range)
    }

    private mutating func requireCondition(_ node: TypedNode, context: String) {
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
    private mutating func requireDefinite(_ node: TypedNode) -> Bool {
        guard node.type.isOptional else { return true }
        report(needsDefault(node))
        return false
    }

    // MARK: nodes

    private mutating func check(_ node: SyntaxNode) -> TypedNode {
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

    private mutating func checkList(_ items: [SyntaxNode], _ range: TextRange) -> TypedNode {
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

    private mutating func checkPath(_ node: SyntaxNode) -> TypedNode {
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
    private func unknownPathDiagnostic(_ path: String, _ node: SyntaxNode) -> Diagnostic? {
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
    private func memberRange(_ node: SyntaxNode, depth: Int) -> TextRange {
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

    private mutating func checkCall(
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

    private mutating func checkUnary(_ op: UnaryOperator, _ operand: TypedNode, _ range: TextRange) -> TypedNode {
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

    // MARK: binary operators

    private mutating func checkBinary(_ op: BinaryOperator, _ l: SyntaxNode, _ r: SyntaxNode, _ range: TextRange) -> TypedNode {
        var lhs = check(l)
        var rhs = check(r)
        func node(_ type: ExpressionType) -> TypedNode { TypedNode(.binary(op, lhs, rhs), type, range) }
        if lhs.type == .error || rhs.type == .error { return node(.error) }
        switch op {
        case .and, .or:
            let leftOK = isCondition(lhs, op)
            let rightOK = isCondition(rhs, op)
            return node(leftOK && rightOK ? .bool : .error)
        case .coalesce:
            guard case .optional(let wrapped) = lhs.type else {
                report(ExpressionDiagnostics.needlessDefault(lhs.type, TextRange(lhs.range.end, rhs.range.end)))
                guard let type = TypeRules.unify(lhs.type, rhs.type.unwrapped) else {
                    return mismatch(op, lhs, rhs, range)
                }
                return node(type)
            }
            guard let type = TypeRules.unify(wrapped, rhs.type.unwrapped) else {
                report(
                    ExpressionDiagnostics.mismatch(
                        "the default must be \(wrapped), but this is \(rhs.type)", rhs.range))
                return node(.error)
            }
            return node(rhs.type.isOptional ? .optional(type) : type)
        case .equal, .notEqual:
            lhs = retypeLiteral(lhs, as: rhs.type)
            rhs = retypeLiteral(rhs, as: lhs.type)
            guard requireDefinite(lhs), requireDefinite(rhs) else { return node(.error) }
            if checkEnumLiteral(lhs, rhs) == false || checkEnumLiteral(rhs, lhs) == false { return node(.error) }
            guard TypeRules.unify(lhs.type, rhs.type) != nil else { return mismatch(op, lhs, rhs, range) }
            return node(.bool)
        case .in:
            guard requireDefinite(lhs) else { return node(.error) }
            guard case .list = rhs.type else {
                report(ExpressionDiagnostics.mismatch("'in' needs a list on its right, but this is \(rhs.type)", rhs.range))
                return node(.error)
            }
            guard let list = retypeListLiteral(rhs, as: lhs.type) else { return node(.error) }
            rhs = list
            guard case .list(let element) = rhs.type else { return node(.error) }
            guard element == .nothing || TypeRules.unify(lhs.type, element.unwrapped) != nil else {
                return mismatch(op, lhs, rhs, range)
            }
            return node(.bool)
        case .less, .lessEqual, .greater, .greaterEqual:
            guard requireDefinite(lhs), requireDefinite(rhs) else { return node(.error) }
            let a = lhs.type
            let b = rhs.type
            let ordered: Bool = (a.isNumeric && b.isNumeric) || (a == b && [.duration, .time, .date, .string].contains(a))
            return ordered ? node(.bool) : mismatch(op, lhs, rhs, range)
        case .add, .subtract, .multiply, .divide:
            guard let type = arithmeticType(op, lhs.type.unwrapped, rhs.type.unwrapped) else {
                return mismatch(op, lhs, rhs, range)
            }
            // A divisor that reads no fact is folded first: `/(1-1)`, `/(0*5)` and `/min(0,1)`
            // divide by zero as surely as `/0`.
            if op == .divide, let divisor = ConstantAnalysis.constantValue(rhs), divisor.isZero {
                report(ExpressionDiagnostics.divisionByZero(rhs.range))
                return node(.error)
            }
            return node(lhs.type.isOptional || rhs.type.isOptional ? .optional(type) : type)
        }
    }

    private mutating func isCondition(_ node: TypedNode, _ op: BinaryOperator) -> Bool {
        if node.type == .bool { return true }
        if node.type.isOptional {
            report(needsDefault(node))
        } else {
            report(ExpressionDiagnostics.mismatch("'\(op.rawValue)' needs bools, but this is \(node.type)", node.range))
        }
        return false
    }

    /// The fix for comparing a number with a duration: a fact that counts minutes (or steps,
    /// ml …) is compared with a number in its own unit (`sleep.minutes` with 390, not 6h30m).
    static func unitHint(number: TypedNode, duration: TypedNode) -> String {
        var node = number
        while case .binary(.coalesce, let inner, _) = node.kind { node = inner }
        guard case .fact(_, let name) = node.kind else {
            return "a number and a duration do not combine: write the number in the fact's unit, or use a duration fact"
        }
        let unit = FactCatalogue.entry(name)?.unit ?? (name.hasSuffix(".value") || name.hasSuffix(".goal") ? "the routine's unit" : nil)
        guard let unit else { return "'\(name)' is a number: compare it with a number, not a duration" }
        if unit == "minutes", case .constant(.duration(let seconds)) = duration.kind {
            return "'\(name)' counts minutes: write \(seconds / 60)"
        }
        return "'\(name)' counts \(unit): compare it with a number in that unit"
    }

    /// The fix for comparing a number with a time of day: `sleep.minutes < 06:30` means 390.
    static func timeHint(number: TypedNode, time: TypedNode) -> String {
        var node = number
        while case .binary(.coalesce, let inner, _) = node.kind { node = inner }
        if case .fact(_, let name) = node.kind, FactCatalogue.entry(name)?.unit == "minutes", case .constant(.time(let seconds)) = time.kind {
            return "'\(name)' counts minutes: write \(seconds / 60) (\(TimeFormat.clock(seconds)) is a time of day)"
        }
        return "times are written 21:00; durations 30m"
    }

    private mutating func mismatch(_ op: BinaryOperator, _ lhs: TypedNode, _ rhs: TypedNode, _ range: TextRange) -> TypedNode {
        var hint: String?
        if (lhs.type == .time && rhs.type.isNumeric) || (rhs.type == .time && lhs.type.isNumeric) {
            let (number, time) = lhs.type == .time ? (rhs, lhs) : (lhs, rhs)
            hint = Checker.timeHint(number: number, time: time)
        } else if (lhs.type == .duration && rhs.type.isNumeric) || (rhs.type == .duration && lhs.type.isNumeric),
            op != .multiply, op != .divide
        {
            let (number, duration) = lhs.type == .duration ? (rhs, lhs) : (lhs, rhs)
            hint = Checker.unitHint(number: number, duration: duration)
        }
        report(
            ExpressionDiagnostics.mismatch(
                "'\(op.rawValue)' cannot combine \(lhs.type) and \(rhs.type)", range, hint: hint))
        return TypedNode(.binary(op, lhs, rhs), .error, range)
    }

    /// The result of `a op b` for definite operand types (SPEC §3): `/` always yields a
    /// number; time ± duration is a time; time − time a duration.
    private func arithmeticType(_ op: BinaryOperator, _ a: ExpressionType, _ b: ExpressionType) -> ExpressionType? {
        switch (op, a, b) {
        case (.divide, _, _) where a.isNumeric && b.isNumeric: return .number
        case (_, .int, .int): return .int
        case (_, _, _) where a.isNumeric && b.isNumeric: return .number
        case (.add, .string, .string): return .string
        case (.add, .duration, .duration), (.subtract, .duration, .duration): return .duration
        case (.add, .time, .duration), (.add, .duration, .time), (.subtract, .time, .duration): return .time
        case (.subtract, .time, .time): return .duration
        case (.multiply, .duration, _) where b.isNumeric: return .duration
        case (.multiply, _, .duration) where a.isNumeric: return .duration
        case (.divide, .duration, _) where b.isNumeric: return .duration
        case (.divide, .duration, .duration): return .number
        default: return nil
        }
    }

    /// A string literal placed against an enum (or routine id) takes that type.
    private func retypeLiteral(_ node: TypedNode, as type: ExpressionType) -> TypedNode {
        guard node.type == .string, case .constant = node.kind else { return node }
        switch type.unwrapped {
        case .enumeration, .routineID: return TypedNode(node.kind, type.unwrapped, node.range)
        default: return node
        }
    }

    /// A list literal of string literals placed against an enum (or routine id) takes
    /// that element type, each item checked against the cases; nil after a diagnostic.
    private mutating func retypeListLiteral(_ list: TypedNode, as type: ExpressionType) -> TypedNode? {
        guard case .list(let items) = list.kind, !items.isEmpty else { return list }
        let retyped = items.map { retypeLiteral($0, as: type) }
        var ok = true
        for item in retyped where checkEnumLiteral(item, list) == false { ok = false }
        guard ok else { return nil }
        var element: ExpressionType = retyped[0].type
        for item in retyped.dropFirst() {
            guard let unified = TypeRules.unify(element, item.type) else { return list }
            element = unified
        }
        return TypedNode(.list(retyped), .list(element), list.range)
    }

    /// Checks a literal typed as an enum against the enum's cases (false when wrong).
    private mutating func checkEnumLiteral(_ literal: TypedNode, _ other: TypedNode) -> Bool {
        guard case .constant(.string(let value)) = literal.kind else { return true }
        switch literal.type {
        case .enumeration(let type):
            guard !type.cases.contains(value) else { return true }
            report(
                ExpressionDiagnostics.unknownEnumCase(
                    value, type: type, suggestion: Suggestions.nearest(to: value, among: type.cases), literal.range))
            return false
        case .routineID:
            guard !schema.routineIDs.contains(value) else { return true }
            if schema.withheldRoutineIDs.contains(value) {
                namesWithheldRoutine = true
                return false
            }
            report(
                ExpressionDiagnostics.unknownRoutine(
                    value, suggestion: Suggestions.nearest(to: value, among: schema.routineIDs),
                    known: schema.routineIDs, literal.range))
            return false
        default:
            return true
        }
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
    fileprivate var isZero: Bool {
        switch self {
        case .int(let value): value == 0
        case .number(let value): value == 0
        case .duration(let value): value == 0
        default: false
        }
    }
}
