import RulesDiagnostics

/// A small JSON reader for hostile input (tool calls from a model, downloaded bundles):
/// positions on every node, duplicate keys refused, nesting and size bounded, numbers kept
/// as their text so the consumer decides what fits. Produces the same `YAMLNode`s as the
/// YAML reader: strings are double-quoted scalars, numbers, booleans and null plain ones.
public struct JSONReader {
    public static let descriptions: [CodeDescription] = [
        CodeDescription(
            code: "json.syntax", severity: .error, summary: "the text is not valid JSON", rationale: "The message says what was expected where."),
        CodeDescription(
            code: "json.duplicate_key", severity: .error, summary: "an object has the same key twice",
            rationale: "Readers disagree on which wins, so duplicates are refused."),
        CodeDescription(
            code: "json.too_deep", severity: .error, summary: "arrays and objects nest too deeply",
            rationale: "Nesting is bounded to keep reading safe."),
        CodeDescription(
            code: "json.too_large", severity: .error, summary: "the text is larger than allowed", rationale: "Size is bounded to keep reading safe."),
        CodeDescription(code: "json.invalid_utf8", severity: .error, summary: "the text is not UTF-8", rationale: "JSON text is UTF-8."),
    ]

    private let bytes: [UInt8]
    private let file: String
    private let maxDepth: Int
    private var index = 0
    private var line = 1
    private var column = 1

    /// Reads one JSON value. `maxBytes` and `maxDepth` bound the input (tool calls use
    /// 64 KiB and 32 levels, bundles their own limits).
    public static func parse(
        _ bytes: [UInt8], file: String, maxBytes: Int = InputLimits.maxToolCallBytes,
        maxDepth: Int = InputLimits.maxToolCallDepth
    ) -> ParsedDocuments {
        if bytes.count > maxBytes {
            return failure(
                Diagnostic(
                    code: "json.too_large", severity: .error, file: file, location: .fileStart,
                    message: "text is \(bytes.count) bytes, over the limit of \(maxBytes)"))
        }
        if let bad = TextChecks.firstInvalidUTF8(in: bytes) {
            return failure(
                Diagnostic(code: "json.invalid_utf8", severity: .error, file: file, location: bad, message: "bytes here are not valid UTF-8"))
        }
        var reader = JSONReader(bytes: bytes, file: file, maxDepth: maxDepth)
        do throws(Failure) {
            reader.skipWhitespace()
            let node = try reader.value(depth: 1)
            reader.skipWhitespace()
            if reader.index < bytes.count { throw reader.error("unexpected text after the JSON value") }
            return ParsedDocuments(documents: [node], diagnostics: [])
        } catch {
            return failure(error.diagnostic)
        }
    }

    public static func parse(
        _ text: String, file: String, maxBytes: Int = InputLimits.maxToolCallBytes, maxDepth: Int = InputLimits.maxToolCallDepth
    ) -> ParsedDocuments {
        parse(Array(text.utf8), file: file, maxBytes: maxBytes, maxDepth: maxDepth)
    }

    private static func failure(_ diagnostic: Diagnostic) -> ParsedDocuments {
        ParsedDocuments(documents: [], diagnostics: [diagnostic])
    }

    struct Failure: Error {
        var diagnostic: Diagnostic
    }

    private init(bytes: [UInt8], file: String, maxDepth: Int) {
        self.bytes = bytes
        self.file = file
        self.maxDepth = maxDepth
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func error(_ message: String, code: DiagnosticCode = "json.syntax") -> Failure {
        Failure(diagnostic: Diagnostic(code: code, severity: .error, file: file, location: location, message: message))
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    /// `depth` counts containers: the root object or array is level 1, and a scalar takes
    /// no level of its own (so `maxDepth` nested arrays pass and one more does not).
    private mutating func value(depth: Int) throws(Failure) -> YAMLNode {
        guard let byte = current else { throw error("expected a value, found the end of the text") }
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
            guard depth <= maxDepth else { throw error("nesting is deeper than \(maxDepth) levels", code: "json.too_deep") }
        }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""):
            let start = location
            let text = try string()
            return YAMLNode(.scalar(text, .doubleQuoted), range: SourceRange(start: start, end: location))
        case UInt8(ascii: "t"): return try literal("true")
        case UInt8(ascii: "f"): return try literal("false")
        case UInt8(ascii: "n"): return try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("expected a value, found '\(String(decoding: [byte], as: UTF8.self))'")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) -> YAMLNode {
        let start = location
        for expected in word.utf8 {
            guard current == expected else { throw error("expected '\(word)'") }
            advance()
        }
        return YAMLNode(.scalar(word, .plain), range: SourceRange(start: start, end: location))
    }

    private mutating func number() throws(Failure) -> YAMLNode {
        let start = location
        let first = index
        if current == UInt8(ascii: "-") { advance() }
        guard let lead = current, lead >= UInt8(ascii: "0"), lead <= UInt8(ascii: "9") else { throw error("expected a digit") }
        if lead == UInt8(ascii: "0") {
            advance()
        } else {
            while let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { advance() }
        }
        if current == UInt8(ascii: ".") {
            advance()
            guard let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { throw error("expected a digit after '.'") }
            while let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { throw error("expected a digit in the exponent") }
            while let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { advance() }
        }
        let text = String(decoding: bytes[first..<index], as: UTF8.self)
        return YAMLNode(.scalar(text, .plain), range: SourceRange(start: start, end: location))
    }

    private mutating func string() throws(Failure) -> String {
        advance()  // opening quote
        // Bytes of a string with escapes, unescaped; a string without any is decoded straight
        // from the input.
        var unescaped: [UInt8] = []
        var escaped = false
        var run = index
        while true {
            guard let byte = current else { throw error("string is not closed") }
            if byte == UInt8(ascii: "\"") {
                let text =
                    escaped ? String(decoding: unescaped + bytes[run..<index], as: UTF8.self) : String(decoding: bytes[run..<index], as: UTF8.self)
                advance()
                return text
            }
            if byte < 0x20 { throw error("control character inside a string; escape it") }
            if byte != UInt8(ascii: "\\") {
                advance()
                continue
            }
            escaped = true
            unescaped += bytes[run..<index]
            advance()
            guard let escape = current else { throw error("string is not closed") }
            advance()
            switch escape {
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard current == UInt8(ascii: "\\") else { throw error("lone UTF-16 surrogate in \\u escape") }
                    advance()
                    guard current == UInt8(ascii: "u") else { throw error("lone UTF-16 surrogate in \\u escape") }
                    advance()
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid UTF-16 surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                unescaped += Array(String(Character(scalar)).utf8)
            default:
                guard let byte = JSONEscape.byte(escape) else {
                    throw error("unknown escape '\\\(String(decoding: [escape], as: UTF8.self))'")
                }
                unescaped.append(byte)
            }
            run = index
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt32
            switch current {
            case let byte? where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case let byte? where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case let byte? where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: throw error("expected four hex digits after \\u")
            }
            code = code * 16 + digit
            advance()
        }
        return code
    }

    private mutating func array(depth: Int) throws(Failure) -> YAMLNode {
        let start = location
        advance()
        var items: [YAMLNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            return YAMLNode(.sequence(items), range: SourceRange(start: start, end: location), isFlow: true)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                advance()
                continue
            }
            guard current == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            advance()
            return YAMLNode(.sequence(items), range: SourceRange(start: start, end: location), isFlow: true)
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> YAMLNode {
        let start = location
        advance()
        var pairs: [YAMLPair] = []
        var seen: [String: Int] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            return YAMLNode(.mapping(pairs), range: SourceRange(start: start, end: location), isFlow: true)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let keyStart = location
            let key = try string()
            // Small objects are searched; a large one keeps an index of its keys.
            let firstLine: Int?
            if pairs.count < 16 {
                firstLine = pairs.first { $0.key.scalar == key }?.key.start.line
            } else {
                if seen.isEmpty { for pair in pairs { seen[pair.key.scalar ?? ""] = pair.key.start.line } }
                firstLine = seen[key]
                seen[key] = keyStart.line
            }
            if let firstLine {
                throw Failure(
                    diagnostic: Diagnostic(
                        code: "json.duplicate_key", severity: .error, file: file, location: keyStart,
                        message: "duplicate key '\(key)' (first on line \(firstLine))"))
            }
            let keyNode = YAMLNode(.scalar(key, .doubleQuoted), range: SourceRange(start: keyStart, end: location))
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            advance()
            skipWhitespace()
            let value = try value(depth: depth + 1)
            pairs.append(YAMLPair(key: keyNode, value: value))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                advance()
                continue
            }
            guard current == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            advance()
            return YAMLNode(.mapping(pairs), range: SourceRange(start: start, end: location), isFlow: true)
        }
    }
}

/// JSON's escapes of one character after the backslash (all but `\u`), shared by every JSON
/// reader here.
public enum JSONEscape {
    /// The byte `escape` stands for after a backslash; nil when it is not one of them.
    public static func byte(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }
}
