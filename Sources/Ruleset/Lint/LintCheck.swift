import RulesDiagnostics
import RulesExpression

/// A ruleset example for a lint check: files (path → YAML text). In a triggering example,
/// `1️⃣` marks where each finding must point; the marker is removed before loading.
package struct LintExample: Sendable {
    package var files: [String: String]

    package init(_ files: [String: String]) { self.files = files }
}

/// One lint check: what it reports and why, examples that must and must not trigger it
/// (one parameterised test runs them all), and the check itself.
package struct LintCheck: Sendable {
    package let description: CodeDescription
    package let triggering: [LintExample]
    package let nonTriggering: [LintExample]
    let run: @Sendable (LintContext, LintReporter) -> [Diagnostic]

    init(
        _ code: DiagnosticCode, _ severity: Severity, summary: String, rationale: String,
        triggering: [LintExample], nonTriggering: [LintExample],
        run: @escaping @Sendable (LintContext, LintReporter) -> [Diagnostic]
    ) {
        description = CodeDescription(code: code, severity: severity, summary: summary, rationale: rationale)
        self.triggering = triggering
        self.nonTriggering = nonTriggering
        self.run = run
    }

    func findings(_ context: LintContext) -> [Diagnostic] {
        run(context, LintReporter(code: description.code, severity: description.severity))
    }
}

/// Builds a check's findings with its code and severity.
struct LintReporter: Sendable {
    let code: DiagnosticCode
    let severity: Severity

    func finding(_ origin: Origin, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: severity, file: origin.file, location: origin.location, message: message, hint: hint)
    }
}

/// What checks read: the ruleset and derived facts about it.
struct LintContext {
    let ruleset: Ruleset

    /// Why `fact` is sensitive, or nil (see `Ruleset.sensitivity(of:)`).
    func sensitivity(of fact: String) -> String? { ruleset.sensitivity(of: fact) }

    /// Whether a `when:` always holds (`nil`: it depends on facts).
    func truth(_ expression: CompiledExpression) -> Bool? {
        ConstantAnalysis.truth(of: expression, dayStart: ruleset.dayStartsAt)
    }

    /// The decision tables with their names, for the table checks.
    var tables: [(name: String, entries: [(when: CompiledExpression, origin: Origin, whenOrigin: Origin)], fallback: String?)] {
        [
            ("risk", ruleset.risk.map { ($0.when, $0.origin, $0.whenOrigin) }, "risk is then 'low'"),
            ("route", ruleset.route.map { ($0.when, $0.origin, $0.whenOrigin) }, "the route is then 'regular'"),
            ("judgement.routine", (ruleset.judgement?.routine ?? []).map { ($0.when, $0.origin, $0.whenOrigin) }, nil),
            ("judgement.day", (ruleset.judgement?.day ?? []).map { ($0.when, $0.origin, $0.whenOrigin) }, "the day is then 'failed'"),
        ]
    }
}

/// Runs every lint check over a decoded ruleset.
package enum Lint {
    package static func run(_ ruleset: Ruleset) -> [Diagnostic] {
        let context = LintContext(ruleset: ruleset)
        return LintCatalogue.checks.flatMap { $0.findings(context) }
    }
}
