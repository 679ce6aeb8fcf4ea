import RulesDiagnostics

/// Parses expression text into a `SyntaxNode` tree by precedence climbing, lowest first:
/// `c ? a : b`, `??`, `||`, `&&`, `== != in`, `< <= > >=`, `+ -`, `* /`, unary `! -`,
/// member access and calls. Errors are reported with the exact offset and what was expected;
/// the parser recovers at list and argument boundaries to report several per expression.
public struct Parser {
    private var tokens: [Token]
    private var position = 0
    private var depth = 0
    private var depthReported = false
    public private(set) var diagnostics: [Diagnostic] = []

    /// Parses `text`. A tree is returned even with errors (with `.error` nodes); callers
    /// must not check or evaluate it when `diagnostics` holds an error.
    public static func parse(_ text: String) -> (tree: SyntaxNode, diagnostics: [Diagnostic]) {
        let length = text.unicodeScalars.count
        if length > InputLimits.maxExpressionLength {
            return (
                SyntaxNode(.error, TextRange(0, length)),
                [ExpressionDiagnostics.tooLong(length, TextRange(0, length))]
            )
        }
        let (tokens, lexDiagnostics) = Lexer.tokenize(text)
        var parser = Parser(tokens: tokens)
        parser.diagnostics = lexDiagnostics
        guard tokens.first?.kind != .end else {
            return (SyntaxNode(.error, TextRange(0, 0)), [ExpressionDiagnostics.empty()])
        }
        let tree = parser.expression()
        if parser.current.kind != .end, !parser.diagnostics.contains(where: { $0.severity == .error }) {
            var diagnostic = ExpressionDiagnostics.unexpectedToken(parser.current, expected: "an operator or the end of the expression")
            // `8:30pm`: a 12-hour clock. The fix is the 24-hour time.
            if case .time(let seconds) = parser.previous.kind, case .identifier(let suffix) = parser.current.kind,
                ["am", "pm"].contains(suffix.lowercased())
            {
                var hour = seconds / 3600 % 12
                if suffix.lowercased() == "pm" { hour += 12 }
                let minutes = seconds % 3600 / 60
                diagnostic.hint = "write 24-hour time: \(hour < 10 ? "0" : "")\(hour):\(minutes < 10 ? "0" : "")\(minutes)"
            }
            // `6h 30m`: a duration written with a space.
            if case .duration(let first) = parser.previous.kind, case .duration(let second) = parser.current.kind {
                let total = first &+ second
                diagnostic.hint =
                    "write a duration without spaces: \(TimeFormat.duration(total))"
                    + (total % 60 == 0 ? ", or \(total / 60) where a fact counts minutes (sleep.minutes)" : "")
            }
            parser.report(diagnostic)
        }
        return (tree, parser.diagnostics)
    }

    private init(tokens: [Token]) { self.tokens = tokens }

    private var current: Token { tokens[Swift.min(position, tokens.count - 1)] }
    private var previous: Token { tokens[Swift.max(0, Swift.min(position - 1, tokens.count - 1))] }

    private mutating func advance() -> Token {
        let token = current
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private mutating func report(_ diagnostic: Diagnostic) {
        // After the depth limit, everything else is a cascade of it.
        if depthReported, diagnostic.code != "expr.too_deep" { return }
        // One diagnostic per offset: cascades at the same place add nothing.
        if diagnostics.contains(where: { $0.location == diagnostic.location && $0.code == diagnostic.code }) { return }
        diagnostics.append(diagnostic)
    }

    private mutating func expect(_ kind: Token.Kind, _ spelling: String) -> Bool {
        if current.kind == kind {
            _ = advance()
            return true
        }
        report(ExpressionDiagnostics.unexpectedToken(current, expected: spelling))
        return false
    }

    /// Guards recursion so a hostile `((((…` cannot exhaust the stack.
    private mutating func nested(_ body: (inout Parser) -> SyntaxNode) -> SyntaxNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= InputLimits.maxExpressionDepth else { return tooDeep() }
        return body(&self)
    }

    /// Reports the depth limit once and skips the rest (everything after is a cascade).
    private mutating func tooDeep() -> SyntaxNode {
        if !depthReported {
            depthReported = true
            report(ExpressionDiagnostics.tooDeep(current.range))
        }
        position = tokens.count - 1
        return SyntaxNode(.error, current.range)
    }

    /// One nesting level, without a closure: the path through parentheses is the deepest
    /// recursion of the parser, so it stays a few small frames per level.
    mutating func expression() -> SyntaxNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= InputLimits.maxExpressionDepth else { return tooDeep() }
        return conditional()
    }

    private mutating func conditional() -> SyntaxNode {
        let condition = coalesce()
        guard current.kind == .question else { return condition }
        _ = advance()
        let whenTrue = operand(after: "'?'") { $0.expression() }
        _ = expect(.colon, "':' of 'c ? a : b'")
        let whenFalse = operand(after: "':'") { $0.expression() }
        return SyntaxNode(.conditional(condition, whenTrue, whenFalse), condition.range.union(whenFalse.range))
    }

    private mutating func coalesce() -> SyntaxNode {
        let lhs = binaryLevel(0)
        guard current.kind == .coalesce else { return lhs }
        let op = advance()
        let rhs = operand(after: op.spelling) { $0.nested { $0.coalesce() } }
        return SyntaxNode(.binary(.coalesce, lhs, rhs), lhs.range.union(rhs.range))
    }

    /// Binary levels from `||` (0) to `*` `/` (5), all left-associative.
    private static let levels: [[(Token.Kind, BinaryOperator)]] = [
        [(.or, .or)],
        [(.and, .and)],
        [(.equal, .equal), (.notEqual, .notEqual), (.keywordIn, .in)],
        [(.less, .less), (.lessEqual, .lessEqual), (.greater, .greater), (.greaterEqual, .greaterEqual)],
        [(.plus, .add), (.minus, .subtract)],
        [(.star, .multiply), (.slash, .divide)],
    ]

    /// The level and operator of a binary operator token.
    private static func binary(_ kind: Token.Kind) -> (level: Int, op: BinaryOperator)? {
        for (level, operators) in levels.enumerated() {
            if let match = operators.first(where: { $0.0 == kind }) { return (level, match.1) }
        }
        return nil
    }

    /// Operators of `minimum` level and tighter, by precedence climbing: one frame per
    /// operand rather than one per level, so deep nesting stays shallow on the stack.
    private mutating func binaryLevel(_ minimum: Int) -> SyntaxNode {
        var lhs = unary()
        while let (level, op) = Parser.binary(current.kind), level >= minimum {
            let token = advance()
            let rhs = operand(after: token.spelling) { $0.nested { $0.binaryLevel(level + 1) } }
            lhs = SyntaxNode(.binary(op, lhs, rhs), lhs.range.union(rhs.range))
        }
        return lhs
    }

    /// Parses the operand after an operator, or reports "expected an operand after '&&'".
    private mutating func operand(after spelling: String, _ parse: (inout Parser) -> SyntaxNode) -> SyntaxNode {
        if Parser.canStartOperand(current.kind) { return parse(&self) }
        report(ExpressionDiagnostics.expectedOperand(after: spelling, found: current))
        return SyntaxNode(.error, TextRange(current.range.start, current.range.start))
    }

    private static func canStartOperand(_ kind: Token.Kind) -> Bool {
        switch kind {
        case .int, .number, .percent, .string, .time, .duration, .identifier, .keywordTrue, .keywordFalse,
            .leftParen, .leftBracket, .bang, .minus, .invalid:
            return true
        default:
            return false
        }
    }

    private mutating func unary() -> SyntaxNode {
        let op: UnaryOperator
        switch current.kind {
        case .bang: op = .not
        case .minus: op = .negate
        default: return postfix()
        }
        let token = advance()
        let operand = operand(after: token.spelling) { $0.nested { $0.unary() } }
        // Fold `-3` into a literal so that printing and constant analysis see a number.
        if op == .negate {
            switch operand.kind {
            case .int(let value): return SyntaxNode(.int(-value), token.range.union(operand.range))
            case .number(let value): return SyntaxNode(.number(-value), token.range.union(operand.range))
            case .duration(let value): return SyntaxNode(.duration(-value), token.range.union(operand.range))
            default: break
            }
        }
        return SyntaxNode(.unary(op, operand), token.range.union(operand.range))
    }

    /// Member access and calls after a primary. Each link of a chain counts as a level of
    /// nesting (`(1).a.a…` cannot build a tree deeper than the limit).
    private mutating func postfix() -> SyntaxNode {
        var node = primary()
        var links = 0
        while true {
            if current.kind == .dot || current.kind == .leftParen {
                links += 1
                guard depth + links <= InputLimits.maxExpressionDepth else { return tooDeep() }
            }
            if current.kind == .dot {
                _ = advance()
                guard case .identifier(let name) = current.kind else {
                    report(ExpressionDiagnostics.unexpectedToken(current, expected: "a name after '.'"))
                    return SyntaxNode(.error, node.range)
                }
                let nameToken = advance()
                node = SyntaxNode(.member(node, name: name, nameRange: nameToken.range), node.range.union(nameToken.range))
            } else if current.kind == .leftParen {
                guard case .identifier(let name) = node.kind else {
                    report(ExpressionDiagnostics.notCallable(node.range))
                    return SyntaxNode(.error, node.range)
                }
                _ = advance()
                let arguments = sequence(closing: .rightParen, closingSpelling: "')'")
                node = SyntaxNode(.call(name: name, nameRange: node.range, arguments: arguments), node.range.union(previous.range))
            } else {
                return node
            }
        }
    }

    /// Comma-separated expressions up to `closing`; skips to the next ',' or `closing` after
    /// an error so later items are still checked.
    private mutating func sequence(closing: Token.Kind, closingSpelling: String) -> [SyntaxNode] {
        var items: [SyntaxNode] = []
        if current.kind == closing {
            _ = advance()
            return items
        }
        while true {
            let errorsBefore = diagnostics.count
            items.append(operand(after: items.isEmpty ? (closing == .rightParen ? "'('" : "'['") : "','") { $0.expression() })
            if diagnostics.count > errorsBefore {
                while current.kind != .comma, current.kind != closing, current.kind != .end { _ = advance() }
            }
            if current.kind == .comma {
                _ = advance()
                continue
            }
            _ = expect(closing, "',' or \(closingSpelling)")
            return items
        }
    }

    /// `( expression )`, kept out of `primary` so that the recursion through parentheses
    /// does not carry `primary`'s large frame.
    private mutating func parenthesized() -> SyntaxNode {
        let open = advance()
        guard Parser.canStartOperand(current.kind) else {
            report(ExpressionDiagnostics.expectedOperand(after: "'('", found: current))
            _ = expect(.rightParen, "')'")
            return SyntaxNode(.error, open.range.union(previous.range))
        }
        let inner = expression()
        _ = expect(.rightParen, "')'")
        return SyntaxNode(inner.kind, open.range.union(previous.range))
    }

    private mutating func primary() -> SyntaxNode {
        if current.kind == .leftParen { return parenthesized() }
        let token = current
        switch token.kind {
        case .int(let value):
            _ = advance()
            return SyntaxNode(.int(value), token.range)
        case .number(let value), .percent(let value):
            _ = advance()
            return SyntaxNode(.number(value), token.range)
        case .string(let value):
            _ = advance()
            return SyntaxNode(.string(value), token.range)
        case .time(let value):
            _ = advance()
            return SyntaxNode(.time(value), token.range)
        case .duration(let value):
            _ = advance()
            return SyntaxNode(.duration(value), token.range)
        case .keywordTrue, .keywordFalse:
            _ = advance()
            return SyntaxNode(.bool(token.kind == .keywordTrue), token.range)
        case .identifier(let name):
            _ = advance()
            return SyntaxNode(.identifier(name), token.range)
        case .leftParen:
            return parenthesized()
        case .leftBracket:
            _ = advance()
            let items = sequence(closing: .rightBracket, closingSpelling: "']'")
            return SyntaxNode(.list(items), token.range.union(previous.range))
        case .invalid:
            _ = advance()
            return SyntaxNode(.error, token.range)
        default:
            report(ExpressionDiagnostics.unexpectedToken(token, expected: "an operand"))
            _ = advance()
            return SyntaxNode(.error, token.range)
        }
    }
}
