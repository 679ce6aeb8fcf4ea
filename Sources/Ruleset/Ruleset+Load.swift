import RulesDiagnostics

extension Ruleset {
    /// Decodes and lints parsed documents (from YAML files or a bundle). Returns the
    /// ruleset when nothing is an error, and every diagnostic in output order.
    public static func load(documents: [RuleDocument]) -> (ruleset: Ruleset?, diagnostics: [Diagnostic]) {
        let (decoded, diagnostics) = RulesetDecoder.decode(documents)
        let all = DiagnosticCollector(diagnostics + Lint.run(decoded))
        return (all.hasFailures(strict: false) ? nil : decoded, all.report())
    }
}
