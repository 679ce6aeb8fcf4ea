import RulesDiagnostics

/// The type rules of the binary operators: `&&` and `||` on conditions, `??` on an optional,
/// `==` and `!=` on one type, `in` on a list, the orderings and arithmetic.
extension Checker {
    mutating func checkBinary(_ op: BinaryOperator, _ l: SyntaxNode, _ r: SyntaxNode, _ range: TextRange) -> TypedNode {
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
            return checkCoalesce(lhs, rhs, range)
        case .equal, .notEqual:
            lhs = retypeLiteral(lhs, as: rhs.type)
            rhs = retypeLiteral(rhs, as: lhs.type)
            guard requireDefinite(lhs), requireDefinite(rhs) else { return node(.error) }
            if checkEnumLiteral(lhs, rhs) == false || checkEnumLiteral(rhs, lhs) == false { return node(.error) }
            guard TypeRules.unify(lhs.type, rhs.type) != nil else { return mismatch(op, lhs, rhs, range) }
            return node(.bool)
        case .in:
            return checkMembership(lhs, rhs, range)
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

    mutating func isCondition(_ node: TypedNode, _ op: BinaryOperator) -> Bool {
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

    mutating func mismatch(_ op: BinaryOperator, _ lhs: TypedNode, _ rhs: TypedNode, _ range: TextRange) -> TypedNode {
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
    func arithmeticType(_ op: BinaryOperator, _ a: ExpressionType, _ b: ExpressionType) -> ExpressionType? {
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
    func retypeLiteral(_ node: TypedNode, as type: ExpressionType) -> TypedNode {
        guard node.type == .string, case .constant = node.kind else { return node }
        switch type.unwrapped {
        case .enumeration, .routineID: return TypedNode(node.kind, type.unwrapped, node.range)
        default: return node
        }
    }

    /// A list literal of string literals placed against an enum (or routine id) takes
    /// that element type, each item checked against the cases; nil after a diagnostic.
    mutating func retypeListLiteral(_ list: TypedNode, as type: ExpressionType) -> TypedNode? {
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
    mutating func checkEnumLiteral(_ literal: TypedNode, _ other: TypedNode) -> Bool {
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

    /// `a ?? b`: `a` optional, `b` of its wrapped type (a needless default is said).
    mutating func checkCoalesce(_ lhs: TypedNode, _ rhs: TypedNode, _ range: TextRange) -> TypedNode {
        guard case .optional(let wrapped) = lhs.type else {
            report(ExpressionDiagnostics.needlessDefault(lhs.type, TextRange(lhs.range.end, rhs.range.end)))
            guard let type = TypeRules.unify(lhs.type, rhs.type.unwrapped) else {
                return mismatch(.coalesce, lhs, rhs, range)
            }
            return TypedNode(.binary(.coalesce, lhs, rhs), type, range)
        }
        guard let type = TypeRules.unify(wrapped, rhs.type.unwrapped) else {
            report(
                ExpressionDiagnostics.mismatch(
                    "the default must be \(wrapped), but this is \(rhs.type)", rhs.range))
            return TypedNode(.binary(.coalesce, lhs, rhs), .error, range)
        }
        return TypedNode(.binary(.coalesce, lhs, rhs), rhs.type.isOptional ? .optional(type) : type, range)
    }

    /// `a in list`: a definite `a` and a list of its type.
    mutating func checkMembership(_ lhs: TypedNode, _ rhs: TypedNode, _ range: TextRange) -> TypedNode {
        var rhs = rhs
        guard requireDefinite(lhs) else { return TypedNode(.binary(.in, lhs, rhs), .error, range) }
        guard case .list = rhs.type else {
            report(ExpressionDiagnostics.mismatch("'in' needs a list on its right, but this is \(rhs.type)", rhs.range))
            return TypedNode(.binary(.in, lhs, rhs), .error, range)
        }
        guard let list = retypeListLiteral(rhs, as: lhs.type) else { return TypedNode(.binary(.in, lhs, rhs), .error, range) }
        rhs = list
        guard case .list(let element) = rhs.type else { return TypedNode(.binary(.in, lhs, rhs), .error, range) }
        guard element == .nothing || TypeRules.unify(lhs.type, element.unwrapped) != nil else {
            return mismatch(.in, lhs, rhs, range)
        }
        return TypedNode(.binary(.in, lhs, rhs), .bool, range)
    }
}
