import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesLanguageServer
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles

/// The output formats every diagnosing command offers.
enum DiagnosticFormat: String, CaseIterable, ArgumentValue {
    case text, json, sarif, github
}

enum DiagnosticOutput {
    /// Every code `rules` can report, for SARIF's rule catalogue and `--explain`.
    static var catalogue: [CodeDescription] {
        YAMLDiagnostics.descriptions + JSONReader.descriptions + ExpressionDiagnostics.descriptions
            + RulesetDiagnostics.descriptions + LintCatalogue.checks.map(\.description) + ScenarioDiagnostics.descriptions
            + RulesetBundle.descriptions + RulesetDirectory.descriptions + EngineState.descriptions + LanguageServer.descriptions
    }

    /// The examples of a lint check, as `--explain` prints them.
    static func examples(for code: DiagnosticCode) -> String {
        guard let check = LintCatalogue.checks.first(where: { $0.description.code == code }) else { return "" }
        var out = ""
        for (title, examples) in [("Triggers", check.triggering), ("Does not trigger", check.nonTriggering)] {
            for example in examples {
                out += "\n\(title):\n"
                for (file, text) in example.files.sorted(by: { $0.key < $1.key }) {
                    out +=
                        "  # \(file)\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
                        + "\n"
                }
            }
        }
        return out
    }

    /// Renders `diagnostics` in `format`; `sources` supplies snippets for text output.
    static func render(
        _ diagnostics: [Diagnostic], format: DiagnosticFormat, sources: [String: SourceFile], color: Bool
    ) -> String {
        switch format {
        case .text:
            return TextRenderer(color: color).render(diagnostics, sources: sources)
        case .json:
            return JSONDiagnosticsRenderer.render(diagnostics)
        case .sarif:
            return SARIFRenderer(
                toolName: "rules", toolVersion: RulesCLI.version,
                informationURI: "https://github.com/operator-rules/operator-rules",
                catalogue: catalogue
            ).render(diagnostics)
        case .github:
            return GitHubRenderer.render(diagnostics)
        }
    }
}
