import Foundation
import RulesLanguageServer

/// `rules lsp`: the language server on standard input and output.
enum LSPCommand {
    static var command: Command {
        Command(
            name: "lsp",
            abstract: "Run the language server for editors (LSP 3.17 over standard input and output).",
            discussion: """
                Speaks the Language Server Protocol on standard input and output (Content-Length
                framing, incremental text sync, UTF-16 positions). As you type, every open file is
                checked with the checks and codes of `rules check`, over the whole ruleset of the
                workspace with your unsaved buffers in place of their files, and open scenario
                files against it; each diagnostic carries its code, a link to the reference and
                the hint. Diagnostics run once typing pauses (150 ms). Also: completion of keys,
                facts, functions, ids and allowed values; hover on facts, templates, routines and
                keys; go to definition and references of ids; document symbols; quick fixes for
                every mechanical hint (did you mean, 24-hour times, durations, quoting, a
                routine's enabled check); code lenses with the scenarios' results, worked out in
                the background from the saved files. Exits 0 after the client's shutdown and exit, 1 when the input ends first.
                Editor setup: docs/EDITORS.md.
                """,
            options: NoOptions.self, run: run)
    }

    static func run(_: NoOptions, _ io: CommandIO) -> ExitCode {
        LanguageServerLoop.run(input: .standardInput, output: .standardOutput, explain: explanation) == 0 ? .success : .failure
    }

    /// A code's `--explain` summary and rationale, for hover.
    @Sendable static func explanation(_ code: String) -> String? {
        DiagnosticOutput.catalogue.first { $0.code.rawValue == code }.map {
            "**\($0.code.rawValue)** (\($0.severity.rawValue)): \($0.summary)\n\n\($0.rationale)"
        }
    }
}
