import RulesDiagnostics
import RulesDocument
import RulesExpression

extension Ruleset {
    /// Decodes and lints parsed documents (from YAML files or a bundle). Returns the
    /// ruleset when nothing is an error, and every diagnostic in output order.
    public static func load(documents: [RuleDocument]) -> (ruleset: Ruleset?, diagnostics: [Diagnostic]) {
        let load = loadKeepingPartial(documents: documents)
        return (load.ruleset, load.diagnostics)
    }

    /// The same, with what decoded whether or not an error refused the whole: `partial` holds
    /// every entry that decoded on its own (an entry with an error is left out). For editors,
    /// which complete and hover on broken files; never for the engine.
    public static func loadKeepingPartial(documents: [RuleDocument]) -> (ruleset: Ruleset?, partial: Ruleset, diagnostics: [Diagnostic]) {
        var (decoded, diagnostics) = RulesetDecoder.decode(documents)
        decoded.sha256 = RulesetBundle.contentHash(documents)
        let all = DiagnosticCollector(diagnostics + Lint.run(decoded))
        return (all.hasFailures(strict: false) ? nil : decoded, decoded, all.report())
    }
}

extension Ruleset {
    /// Reads a value of `type` written in YAML, as setting defaults are read (used by
    /// scenarios for setting overrides). Problems go to `reader`.
    package func value(of node: YAMLNode, type: ExpressionType, key: String, reader: inout NodeReader) -> Value? {
        var decoder = RulesetDecoder()
        decoder.ruleset = self
        return decoder.readValue(node, type: type, key: key, &reader)
    }
}
