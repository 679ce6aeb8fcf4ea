/// Diagnostics as a JSON array, one object per diagnostic with fixed key order:
/// `file, line, column, end_line, end_column, severity, code, message, hint`.
public enum JSONDiagnosticsRenderer {
    public static func render(_ diagnostics: [Diagnostic]) -> String {
        JSONValue.array(diagnostics.map(object)).prettyRendered() + "\n"
    }

    static func object(_ d: Diagnostic) -> JSONValue {
        .object([
            ("file", .string(d.file)),
            ("line", .int(d.location.line)),
            ("column", .int(d.location.column)),
            ("end_line", .optional(d.end?.line)),
            ("end_column", .optional(d.end?.column)),
            ("severity", .string(d.severity.rawValue)),
            ("code", .string(d.code.rawValue)),
            ("message", .string(d.message)),
            ("hint", .optional(d.hint)),
        ])
    }
}

/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`,
/// which the Actions runner turns into annotations on the pull request.
public enum GitHubRenderer {
    public static func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(line).joined()
    }

    static func line(_ d: Diagnostic) -> String {
        let command: String
        switch d.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .note: command = "notice"
        }
        var properties = [
            "file=\(escapeProperty(d.file))",
            "line=\(d.location.line)",
            "col=\(d.location.column)",
        ]
        if let end = d.end {
            properties.append("endLine=\(end.line)")
            properties.append("endColumn=\(end.column)")
        }
        properties.append("title=\(escapeProperty(d.code.rawValue))")
        var message = d.message
        if let hint = d.hint { message += "\nhelp: " + hint }
        return "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))\n"
    }

    /// Escaping of the message part (GitHub's `escapeData`).
    static func escapeData(_ text: String) -> String {
        text.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }

    /// Escaping of a property value (GitHub's `escapeProperty`).
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
