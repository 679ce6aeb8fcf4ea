import RulesDiagnostics
import RulesDocument
import RulesYAML

/// `rules check [PATH…]`: loads and lints rule files and scenarios.
enum CheckCommand {
    static var command: Command {
        Command(
            name: "check",
            abstract: "Load and lint a ruleset and its scenarios.",
            discussion: """
                With a directory (default: the current one), reads every .yaml/.yml file under its
                routines/, rules/, templates/ and scenarios/; with files, reads those. Exits 0 when
                nothing fails, 1 when something does, 2 on usage or I/O errors.
                """,
            usage: "rules check [PATH…] [--format text|json|sarif|github] [--strict]",
            arguments: [("PATH", "Ruleset directories or single files (default: .).")],
            options: [
                DiagnosticFormat.option,
                OptionSpec(name: "--strict", help: "Treat warnings as failures."),
            ],
            run: run)
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        let format = arguments.value("--format").flatMap(DiagnosticFormat.init(rawValue:)) ?? .text
        let strict = arguments.has("--strict")
        let paths = arguments.positional.isEmpty ? ["."] : arguments.positional
        let files: [RuleFiles.Found]
        do {
            files = try RuleFiles.collect(paths, folders: RuleFiles.rulesetFolders + ["scenarios"], io: io)
        } catch {
            switch error {
            case .missing(let path):
                io.err("Error: no such file or directory: \(path)\n")
            }
            return .usage
        }
        if files.isEmpty {
            io.err("Error: no .yaml or .yml files under routines/, rules/, templates/ or scenarios/ of \(paths.joined(separator: ", "))\n")
            return .usage
        }
        var collector = DiagnosticCollector()
        var sources: [String: SourceFile] = [:]
        for file in files {
            guard let bytes = RuleFiles.read(file.path) else {
                collector.append(
                    Diagnostic(
                        code: "io.unreadable", severity: .error, file: file.display, location: .fileStart,
                        message: "cannot read the file", hint: "check that it exists and is readable"))
                continue
            }
            sources[file.display] = SourceFile(path: file.display, text: String(decoding: bytes, as: UTF8.self))
            collector.append(contentsOf: YAMLReader.parse(bytes, file: file.display).diagnostics)
        }
        let report = collector.report(strict: strict)
        var output = DiagnosticOutput.render(report, format: format, sources: sources, color: io.useColor)
        if format == .text, report.isEmpty {
            output = "\(files.count) file\(files.count == 1 ? "" : "s") checked, no problems\n"
        }
        io.out(output)
        return collector.hasFailures(strict: strict) ? .failure : .success
    }
}
