import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles

/// `rules bundle [DIR] --out FILE`: the checked ruleset as one canonical JSON bundle.
enum BundleCommand {
    static var command: Command {
        Command(
            name: "bundle",
            abstract: "Write the checked ruleset as one canonical JSON bundle for the app.",
            discussion: """
                Runs every check first and refuses to bundle a ruleset with errors. The bundle is
                byte-identical for the same ruleset whatever its YAML spelling (flow or block style,
                quoting, comments), carries a SHA-256 of its content, and loads with Foundation alone.
                """,
            usage: "rules bundle [DIR] --out FILE",
            arguments: [("DIR", "The ruleset directory (default: .).")],
            options: [OptionSpec(name: "--out", valueName: "FILE", help: "Where to write the bundle (- for standard output).")],
            run: run)
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard let out = arguments.value("--out") else {
            return RulesCLI.usageError("bundle needs --out FILE", usage: command.usage, helpName: "bundle", io: io)
        }
        guard arguments.positional.count <= 1 else {
            return RulesCLI.usageError("bundle takes one directory", usage: command.usage, helpName: "bundle", io: io)
        }
        let path = arguments.positional.first ?? "."
        let directory = io.resolve(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            io.err("Error: no ruleset directory at \(path)\n")
            return .usage
        }
        let prefix = path == "." ? "" : path
        let files = RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders, prefix: "")
        let (documents, yamlDiagnostics, _) = RulesetDirectory.read(files)
        let load = Ruleset.load(directory: directory, displayPrefix: prefix)
        guard !load.hasErrors, yamlDiagnostics.isEmpty else {
            io.err("Error: the ruleset has errors; nothing was bundled\n")
            io.err(TextRenderer(color: false).render(load.diagnostics.filter { $0.severity == .error }, sources: load.sources))
            return .failure
        }
        let bundle = RulesetBundle.make(documents)
        if out == "-" {
            io.out(bundle)
            return .success
        }
        guard io.writeAtomically(bundle, to: out, inputs: files.map(\.path)) else { return .usage }
        io.out("wrote \(out) (\(bundle.utf8.count) bytes, \(documents.count) documents)\n")
        return .success
    }
}
