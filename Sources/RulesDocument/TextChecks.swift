import RulesDiagnostics

/// Checks every front end makes before parsing: size and encoding.
public enum TextChecks {
    /// The location of the first byte that is not part of valid UTF-8, if any.
    public static func firstInvalidUTF8(in bytes: [UInt8]) -> SourceLocation? {
        // The standard library's validator is vectorised; walk by hand only to find where.
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var line = 1
        var column = 1
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            let length: Int
            if byte < 0x80 {
                length = 1
            } else if byte & 0xE0 == 0xC0, byte >= 0xC2 {
                length = 2
            } else if byte & 0xF0 == 0xE0 {
                length = 3
            } else if byte & 0xF8 == 0xF0, byte <= 0xF4 {
                length = 4
            } else {
                return SourceLocation(line: line, column: column)
            }
            guard index + length <= count else { return SourceLocation(line: line, column: column) }
            if length > 1 {
                for k in 1..<length where bytes[index + k] & 0xC0 != 0x80 {
                    return SourceLocation(line: line, column: column)
                }
                let second = bytes[index + 1]
                // Overlong forms, UTF-16 surrogates and values past U+10FFFF.
                if (byte == 0xE0 && second < 0xA0) || (byte == 0xED && second > 0x9F)
                    || (byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second > 0x8F)
                {
                    return SourceLocation(line: line, column: column)
                }
            }
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    /// The 1-based line and column of a byte offset in UTF-8 text (columns in scalars).
    public static func location(ofByteOffset offset: Int, in bytes: [UInt8]) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        let limit = Swift.min(offset, bytes.count)
        while index < limit {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: column)
    }
}
