import RulesDiagnostics

/// The formats a report takes (`--format` of `test --coverage`, `diff` and `population`).
package enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, html
}

/// A report a command prints — rule coverage, a behaviour diff, a population's tally: its
/// readable text, its JSON and, when it has one, its HTML page, each rendered for a
/// `ReportFormat` in one place (`rendered`).
package protocol Report {
    /// The readable text.
    func text() -> String
    /// The JSON value (printed indented, one trailing line feed).
    func json() -> JSONValue
    /// The self-contained page; nil when the report has none (coverage).
    func html() -> String?
}

extension Report {
    /// No page unless the report draws one.
    package func html() -> String? { nil }

    /// The report in `format`; nil when it has no page and `format` asks for one.
    package func rendered(_ format: ReportFormat) -> String? {
        switch format {
        case .text: text()
        case .json: json().prettyRendered() + "\n"
        case .html: html()
        }
    }
}

extension RuleCoverage: Report {}
