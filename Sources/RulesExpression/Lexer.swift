import RulesDiagnostics

/// Splits expression text into tokens. Positions are Unicode-scalar offsets, so they map
/// one-to-one onto YAML columns. Problems become diagnostics and `.invalid` tokens; the
/// lexer always reaches the end.
public struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    public private(set) var diagnostics: [Diagnostic] = []

    public init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Every token of the text, ending with `.end`.
    public static func tokenize(_ text: String) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        var lexer = Lexer(text)
        var tokens: [Token] = []
        while true {
            let token = lexer.next()
            tokens.append(token)
            if token.kind == .end { break }
        }
        return (tokens, lexer.diagnostics)
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private static func isDigit(_ s: Unicode.Scalar?) -> Bool {
        guard let s else { return false }
        return s >= "0" && s <= "9"
    }

    private static func isIdentifierStart(_ s: Unicode.Scalar?) -> Bool {
        guard let s else { return false }
        return (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || s == "_"
    }

    private static func isIdentifierPart(_ s: Unicode.Scalar?) -> Bool {
        isIdentifierStart(s) || isDigit(s)
    }

    mutating func next() -> Token {
        while let s = peek(), s == " " || s == "\t" || s == "\n" || s == "\r" { index += 1 }
        let start = index
        guard let s = peek() else { return Token(.end, TextRange(start, start)) }
        if Lexer.isDigit(s) { return number(start) }
        if Lexer.isIdentifierStart(s) { return word(start) }
        if s == "\"" || s == "'" { return string(start, quote: s) }
        index += 1
        return punctuation(s, start)
    }

    /// A word: a keyword (`true`, `false`, `in`) or an identifier.
    private mutating func word(_ start: Int) -> Token {
        while Lexer.isIdentifierPart(peek()) { index += 1 }
        let word = String(String.UnicodeScalarView(scalars[start..<index]))
        let kind: Token.Kind
        switch word {
        case "true": kind = .keywordTrue
        case "false": kind = .keywordFalse
        case "in": kind = .keywordIn
        default: kind = .identifier(word)
        }
        return Token(kind, TextRange(start, index))
    }

    /// An operator or punctuation mark `s` (read: `index` is past it), with the second
    /// character of a two-character operator; a lone `=`, `&` or `|` is said and read as the
    /// operator meant, anything else as invalid.
    private mutating func punctuation(_ s: Unicode.Scalar, _ start: Int) -> Token {
        let two: Unicode.Scalar? = peek()
        func pair(_ kind: Token.Kind) -> Token {
            index += 1
            return Token(kind, TextRange(start, index))
        }
        let kind: Token.Kind
        switch s {
        case ".": kind = .dot
        case ",": kind = .comma
        case "(": kind = .leftParen
        case ")": kind = .rightParen
        case "[": kind = .leftBracket
        case "]": kind = .rightBracket
        case "+": kind = .plus
        case "-": kind = .minus
        case "*": kind = .star
        case "/": kind = .slash
        case ":": kind = .colon
        case "!": if two == "=" { return pair(.notEqual) } else { kind = .bang }
        case "<": if two == "=" { return pair(.lessEqual) } else { kind = .less }
        case ">": if two == "=" { return pair(.greaterEqual) } else { kind = .greater }
        case "=":
            if two == "=" { return pair(.equal) }
            report(ExpressionDiagnostics.singleEquals(TextRange(start, index)))
            kind = .equal
        case "&":
            if two == "&" { return pair(.and) }
            report(ExpressionDiagnostics.singleOperator("&", "&&", TextRange(start, index)))
            kind = .and
        case "|":
            if two == "|" { return pair(.or) }
            report(ExpressionDiagnostics.singleOperator("|", "||", TextRange(start, index)))
            kind = .or
        case "?": if two == "?" { return pair(.coalesce) } else { kind = .question }
        default:
            if ExpressionDiagnostics.asciiLookalike(s) != nil {
                // A run of full-width or typographic characters (a Korean input method's
                // `＆＆`, `：`) is one error whose hint writes the run in ASCII.
                while let more = peek(), ExpressionDiagnostics.asciiLookalike(more) != nil { index += 1 }
                report(ExpressionDiagnostics.lookalikes(Array(scalars[start..<index]), TextRange(start, index)))
            } else {
                report(ExpressionDiagnostics.unexpectedCharacter(s, TextRange(start, index)))
            }
            kind = .invalid
        }
        return Token(kind, TextRange(start, index))
    }

    private mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    private mutating func digits() -> Int? {
        var value = 0
        var overflow = false
        while let s = peek(), Lexer.isDigit(s) {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(s.value - 48))
            overflow = overflow || o1 || o2
            value = a
            index += 1
        }
        return overflow ? nil : value
    }

    /// Numbers, percentages, times (`20:30`) and durations (`1h30m`).
    private mutating func number(_ start: Int) -> Token {
        let whole = digits()
        let wholeEnd = index
        // A time: exactly two digits after ':'.
        if peek() == ":", Lexer.isDigit(peek(1)), Lexer.isDigit(peek(2)), !Lexer.isDigit(peek(3)) {
            index += 3
            let range = TextRange(start, index)
            let hours = whole ?? Int.max
            let minutes = Int(scalars[index - 2].value - 48) * 10 + Int(scalars[index - 1].value - 48)
            guard wholeEnd - start <= 2, minutes < 60, hours < 24 || (hours == 24 && minutes == 0) else {
                report(ExpressionDiagnostics.invalidTime(String(String.UnicodeScalarView(scalars[start..<index])), range))
                return Token(.invalid, range)
            }
            return Token(.time(hours * 3600 + minutes * 60), range)
        }
        if let unit = peek(), unit == "h" || unit == "m" || unit == "s" { return duration(start, first: whole) }
        var isFraction = false
        if peek() == ".", Lexer.isDigit(peek(1)) {
            isFraction = true
            index += 1
            while Lexer.isDigit(peek()) { index += 1 }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        if let korean = koreanUnit(start, number: text) { return korean }
        if Lexer.isIdentifierPart(peek()) {
            let unitStart = index
            while Lexer.isIdentifierPart(peek()) { index += 1 }
            let range = TextRange(start, index)
            var diagnostic = ExpressionDiagnostics.invalidNumber(String(String.UnicodeScalarView(scalars[start..<index])), range)
            // `6.5h`: a fraction of a unit. The fix is whole units (or the count a fact uses).
            let unit = String(String.UnicodeScalarView(scalars[unitStart..<index]))
            if isFraction, let value = Double(text), let factor = ["h": 3600.0, "m": 60.0, "s": 1.0][unit], value * factor < 1e9 {
                let seconds = Int((value * factor).rounded())
                diagnostic.hint =
                    "durations take whole units: write \(TimeFormat.duration(seconds))"
                    + (seconds % 60 == 0 ? ", or \(seconds / 60) where a fact counts minutes (sleep.minutes)" : "")
            }
            report(diagnostic)
            return Token(.invalid, range)
        }
        if peek() == "%" {
            index += 1
            guard let value = Double(text) else { return invalidNumber(start) }
            return Token(.percent(value / 100), TextRange(start, index))
        }
        if isFraction {
            guard let value = Double(text), value.isFinite else { return invalidNumber(start) }
            return Token(.number(value), TextRange(start, index))
        }
        guard let whole else { return invalidNumber(start) }
        return Token(.int(whole), TextRange(start, index))
    }

    /// `20시`, `6시간`, `30분`, `45초`: a number with a Korean unit. One error whose hint is the
    /// language's spelling (`20:00`, `6h`, `30m`, `45s`); nil when no Korean unit follows.
    private mutating func koreanUnit(_ start: Int, number text: String) -> Token? {
        guard let first = peek(), ["시", "분", "초"].contains(first), let value = Int(text), value < 100_000 else { return nil }
        index += 1
        let hours = first == "시" && peek() == "간"
        if hours { index += 1 }
        let range = TextRange(start, index)
        let written = String(String.UnicodeScalarView(scalars[start..<index]))
        if first == "시", !hours {
            let hint =
                value <= 24
                ? "write a time of day as \(TimeFormat.clock(value * 3600)); a duration of hours as \(value)h" : "write hours as \(value)h"
            report(ExpressionDiagnostics.at("expr.invalid_time", range, "'\(written)' is not a time of day", hint: hint))
        } else {
            let seconds = value * (hours ? 3600 : first == "분" ? 60 : 1)
            report(
                ExpressionDiagnostics.at(
                    "expr.invalid_duration", range, "'\(written)' is not a duration", hint: "write \(TimeFormat.duration(seconds))"))
        }
        return Token(.invalid, range)
    }

    private mutating func invalidNumber(_ start: Int) -> Token {
        let range = TextRange(start, index)
        report(ExpressionDiagnostics.numberTooLarge(String(String.UnicodeScalarView(scalars[start..<index])), range))
        return Token(.invalid, range)
    }

    /// `1h30m`, `90m`, `45s`, `2h15m30s`: units in decreasing order, each at most once.
    private mutating func duration(_ start: Int, first: Int?) -> Token {
        var total = 0
        var value = first
        var lastRank = 3
        var valid = first != nil
        while let amount = value, let unit = peek(), unit == "h" || unit == "m" || unit == "s" {
            let rank = unit == "h" ? 2 : unit == "m" ? 1 : 0
            let factor = unit == "h" ? 3600 : unit == "m" ? 60 : 1
            index += 1
            if rank >= lastRank { valid = false }
            lastRank = rank
            let (product, o1) = amount.multipliedReportingOverflow(by: factor)
            let (sum, o2) = total.addingReportingOverflow(product)
            if o1 || o2 { valid = false }
            total = sum
            guard Lexer.isDigit(peek()) else {
                value = nil
                break
            }
            value = digits()
            if value == nil || !(peek() == "h" || peek() == "m" || peek() == "s") {
                valid = false
                while Lexer.isDigit(peek()) { index += 1 }
                break
            }
        }
        while Lexer.isIdentifierPart(peek()) {
            valid = false
            index += 1
        }
        let range = TextRange(start, index)
        guard valid else {
            report(ExpressionDiagnostics.invalidDuration(String(String.UnicodeScalarView(scalars[start..<index])), range))
            return Token(.invalid, range)
        }
        return Token(.duration(total), range)
    }

    /// A string in double or single quotes, with escapes `\" \' \\ \n \t \u{…}`.
    private mutating func string(_ start: Int, quote: Unicode.Scalar) -> Token {
        index += 1
        var value = String.UnicodeScalarView()
        var valid = true
        while let s = peek() {
            if s == quote {
                index += 1
                let range = TextRange(start, index)
                return valid ? Token(.string(String(value)), range) : Token(.invalid, range)
            }
            if s == "\\" {
                let escapeStart = index
                index += 1
                switch peek() {
                case "\"": value.append("\"")
                case "'": value.append("'")
                case "\\": value.append("\\")
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "u" where peek(1) == "{":
                    var cursor = index + 2
                    var code: UInt32 = 0
                    var count = 0
                    while count < 8, cursor < scalars.count, let digit = UInt32(String(scalars[cursor]), radix: 16) {
                        code = code * 16 + digit
                        count += 1
                        cursor += 1
                    }
                    if cursor < scalars.count, scalars[cursor] == "}", count > 0, let scalar = Unicode.Scalar(code) {
                        value.append(scalar)
                        index = cursor
                    } else {
                        valid = false
                        report(ExpressionDiagnostics.invalidEscape(TextRange(escapeStart, cursor)))
                        index = cursor - 1
                    }
                default:
                    valid = false
                    report(ExpressionDiagnostics.invalidEscape(TextRange(escapeStart, index + 1)))
                }
                index += 1
                continue
            }
            value.append(s)
            index += 1
        }
        let range = TextRange(start, index)
        report(ExpressionDiagnostics.unterminatedString(range))
        return Token(.invalid, range)
    }
}
