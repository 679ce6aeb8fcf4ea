import Foundation

/// Text written as a YAML double-quoted scalar that reads back as the same text: backslashes
/// and quotes escaped, control characters and the characters YAML reads as line breaks
/// (U+0085, U+2028, U+2029) and the byte-order mark written as escapes, so no text can end the
/// scalar, fold a line or start a new key.
package enum YAMLQuoted {
    package static func text(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += String(format: "\\x%02X", scalar.value)
            case "\u{85}", "\u{2028}", "\u{2029}", "\u{FEFF}": out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
