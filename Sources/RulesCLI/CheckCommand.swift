import Foundation
import RulesDiagnostics
import RulesDocument
import RulesYAML
import Ruleset
import RulesetFiles

/// `rules check [PATH…]`: loads and lints rule files and scenarios.
enum CheckCommand {
    static var command: Command {
        Command(
            name: "check",
            abstract: "Load and lint a ruleset and its scenarios.",
            discussion: """
                With a directory (default: the current one), loads the ruleset under its routines/,
                rules/ and templates/ and reads its scenarios/. With a file, loads the ruleset the file
                belongs to and reports that file's problems. Exits 0 when nothing fails, 1 when
                something does, 2 on usage or I/O errors.
                """,
            usageArguments: "[PATH…]",
            arguments: [("PATH", "Ruleset directories, single files or bundles (*.json) (default: .).")],
            options: Options.self,
            run: run)
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var format = DiagnosticFormat.text
        var strict = false
        var explain: String?
        var trust: [String] = []
        /// The channel the app's store has unless told, as `verify` reads it.
        var channel = "stable"
        var after = 0

        static var fields: [OptionField<Self>] {
            [
                .option(\.format, OptionSpec(name: "--format", valueName: "FORMAT", help: "Output format (default: text).")),
                .flag(\.strict, OptionSpec(name: "--strict", help: "Treat warnings as failures.")),
                .option(\.explain, OptionSpec(name: "--explain", valueName: "CODE", help: "Describe a diagnostic code, with examples.")),
                .repeated(
                    \.trust,
                    OptionSpec(
                        name: "--trust", valueName: "PUB", help: "For a bundle: a public key the app trusts; its signature is verified (repeatable).")
                ),
                .option(\.channel, OptionSpec(name: "--channel", valueName: "NAME", help: "For a bundle: the app's channel (checked with --trust).")),
                .option(
                    \.after,
                    OptionSpec(name: "--after", valueName: "N", help: "For a bundle: the last sequence the app accepted (checked with --trust)."),
                    as: BundleSigning.lastSequence),
            ]
        }
    }

    /// The keys the app trusts (`--trust`), read before anything is loaded; nil after the
    /// usage error is said.
    static func trustedKeys(_ given: Options, _ io: CommandIO) -> TrustedKeys? {
        switch BundleSigning.trustedKeys(given.trust, io) {
        case .success(let keys): return keys
        case .failure(let problem):
            _ = RulesCLI.usageError(problem.message, usage: command.usage, helpName: "check", io: io)
            return nil
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        if let code = given.explain { return ExplainCode.run(code, io) }
        guard let keys = trustedKeys(given, io) else { return .usage }
        let (format, strict, after) = (given.format, given.strict, given.after)
        var collector = DiagnosticCollector()
        var sources: [String: SourceFile] = [:]
        var fileCount = 0
        for path in given.positional.isEmpty ? ["."] : given.positional {
            let absolute = io.resolve(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                io.fail(.noSuchPath(path))
                return .usage
            }
            let prefix = path == "." || path == "./" ? "" : path
            if SimulationSupport.leadsOutside(absolute, io) {
                fileCount += 1
                collector.append(RulesetDirectory.outsideRoot(path))
                continue
            }
            if isDirectory.boolValue {
                guard let count = checkDirectory(path, absolute: absolute, prefix: prefix, into: &collector, sources: &sources, io) else {
                    return .usage
                }
                fileCount += count
            } else if isBundle(absolute) {
                fileCount += 1
                collector.append(contentsOf: checkBundle(path, absolute: absolute, keys: keys, channel: given.channel, after: after))
            } else {
                fileCount += 1
                checkFile(path, absolute: absolute, into: &collector, sources: &sources, workingDirectory: io.resolve("."))
            }
        }
        let report = collector.report(strict: strict)
        var output = DiagnosticOutput.render(report, format: format, sources: sources, color: io.useColor)
        if format == .text, report.isEmpty {
            output = "\(fileCount) file\(fileCount == 1 ? "" : "s") checked, no problems\n"
        }
        io.out(output)
        return collector.hasFailures(strict: strict) ? .failure : .success
    }

    /// A ruleset directory: its rule files, and its scenarios and populations read against
    /// the ruleset (or as YAML when it does not load). The number of files checked, nil when
    /// it holds none.
    static func checkDirectory(
        _ path: String, absolute: String, prefix: String, into collector: inout DiagnosticCollector, sources: inout [String: SourceFile],
        _ io: CommandIO
    ) -> Int? {
        // One walk; what it could not read under scenarios/ and populations/ is said here
        // (the ruleset's own folders are reported by its load).
        var walkProblems: [Diagnostic] = []
        let files = RulesetDirectory.files(
            in: absolute, folders: RulesetDirectory.rulesetFolders + ["scenarios", "populations"], prefix: prefix, problems: &walkProblems)
        let ruleFolders = RulesetDirectory.rulesetFolders.map { prefix.isEmpty ? $0 : (prefix as NSString).appendingPathComponent($0) }
        collector.append(contentsOf: walkProblems.filter { problem in !ruleFolders.contains { problem.file.hasPrefix($0) } })
        if files.isEmpty {
            io.fail(.noRuleFiles(path))
            return nil
        }
        let load = Ruleset.load(directory: absolute, displayPrefix: prefix)
        collector.append(contentsOf: load.diagnostics)
        sources.merge(load.sources) { a, _ in a }
        // Scenarios are checked against the ruleset when it loaded, else read as YAML.
        let scenarios = files.filter { $0.folder == "scenarios" }
        let populations = files.filter { $0.folder == "populations" }
        if let ruleset = load.ruleset {
            for loaded in SimulationSupport.scenarios(scenarios, ruleset: ruleset) {
                collector.append(contentsOf: loaded.diagnostics)
                if let source = loaded.source { sources[loaded.file] = source }
            }
            for file in populations {
                let read = PopulationCommand.read(display: file.display, absolute: file.path, ruleset: ruleset)
                collector.append(contentsOf: read.diagnostics)
                if let source = read.source { sources[file.display] = source }
            }
        } else {
            let (_, scenarioDiagnostics, scenarioSources) = RulesetDirectory.read(scenarios + populations)
            collector.append(contentsOf: scenarioDiagnostics)
            sources.merge(scenarioSources) { a, _ in a }
        }
        return files.count
    }

    /// Whether the file at `path` is checked as a bundle: named `.json` or `.bundle` in any
    /// case, or (named otherwise, but not `.yaml`/`.yml`) a JSON object by its first byte —
    /// so `check --trust` never passes a bundle by its name ("x.bundle", "x.JSON").
    static func isBundle(_ path: String) -> Bool {
        let name = path.lowercased()
        if name.hasSuffix(".json") || name.hasSuffix(".bundle") { return true }
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") { return false }
        guard case .success(let bytes) = FileReader.contents(of: path, limit: InputLimits.maxBundleBytes) else { return false }
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }

    /// A bundle, as the app loads it: fields, hash and the full lint of its documents; with
    /// trusted keys, its signatures, channel and expiry too; without, an unsigned bundle is an
    /// error and a signed one a note naming its keys.
    static func checkBundle(_ path: String, absolute: String, keys: TrustedKeys, channel: String?, after: Int) -> [Diagnostic] {
        let data: Data
        switch BundleSigning.readBundle(absolute) {
        case .success(let read): data = read
        case .failure(let failure):
            return [Diagnostic(code: "io.unreadable", severity: .error, file: path, location: .fileStart, message: failure.description)]
        }
        var diagnostics: [Diagnostic]
        if !keys.ids.isEmpty {
            diagnostics = Ruleset.load(bundle: data, trust: BundleTrust(keys: keys, channel: channel, lastSequence: after, now: Date())).diagnostics
        } else {
            // Opened once: the envelope says whether it is signed, the documents load as the
            // app loads them.
            let (envelope, documents, failure) = RulesetBundle.open(data)
            if let failure {
                diagnostics = failure.diagnostics
            } else {
                diagnostics = Ruleset.loadPlaced(documents).diagnostics
                if let envelope, envelope.signatures.isEmpty || envelope.release == nil {
                    diagnostics.insert(
                        Diagnostic(
                            code: "bundle.unsigned", severity: .error, file: "bundle", location: .fileStart, message: "the bundle is not signed",
                            hint: "the app refuses it: make it with `rules bundle --sign KEY --sequence N`"),
                        at: 0)
                } else if let envelope {
                    let ids = envelope.signatures.map(\.keyID).joined(separator: ", ")
                    diagnostics.append(
                        Diagnostic(
                            code: "bundle.unverified", severity: .note, file: "bundle", location: .fileStart,
                            message: "signed by \(ids); the signatures were not verified", hint: "give --trust PUB to verify them as the app would"))
                }
            }
        }
        return diagnostics.map { diagnostic in
            var copy = diagnostic
            if copy.file == "bundle" { copy.file = path }
            return copy
        }
    }

    /// A single file: load the ruleset it belongs to (the directory above its routines/,
    /// rules/ or templates/ folder) and keep that file's diagnostics; a scenario (under
    /// scenarios/) is loaded against that ruleset, as `rules check .` does; a file outside
    /// any ruleset is only read as YAML.
    static func checkFile(
        _ path: String, absolute: String, into collector: inout DiagnosticCollector, sources: inout [String: SourceFile],
        workingDirectory: String = "."
    ) {
        var components = (path as NSString).pathComponents
        var absoluteRoot = (absolute as NSString).deletingLastPathComponent
        components.removeLast()
        var inside: [String] = [(path as NSString).lastPathComponent]
        while let last = components.last {
            if last == "populations" {
                let root = (absoluteRoot as NSString).deletingLastPathComponent
                if let ruleset = Ruleset.load(directory: root).ruleset {
                    let read = PopulationCommand.read(display: path, absolute: absolute, ruleset: ruleset)
                    collector.append(contentsOf: read.diagnostics)
                    if let source = read.source { sources[path] = source }
                    return
                }
            }
            if last == "scenarios" {
                let root = (absoluteRoot as NSString).deletingLastPathComponent
                if let ruleset = Ruleset.load(directory: root).ruleset {
                    let file = RulesetDirectory.File(path: absolute, display: path, folder: "scenarios")
                    for loaded in SimulationSupport.scenarios([file], ruleset: ruleset) {
                        collector.append(contentsOf: loaded.diagnostics)
                        if let source = loaded.source { sources[loaded.file] = source }
                    }
                    return
                }
            }
            if RulesetDirectory.rulesetFolders.contains(last) {
                absoluteRoot = (absoluteRoot as NSString).deletingLastPathComponent
                components.removeLast()
                let prefix = components.first == "/" ? "/" + components.dropFirst().joined(separator: "/") : components.joined(separator: "/")
                let display =
                    prefix.isEmpty || prefix == "."
                    ? ([last] + inside).joined(separator: "/") : prefix + "/" + ([last] + inside).joined(separator: "/")
                let load = Ruleset.load(directory: absoluteRoot, displayPrefix: prefix == "." ? "" : prefix)
                // The file's findings, and what keeps them from being whole: another file of the
                // ruleset that does not parse (its error, and the note on what was left out), so
                // a file is never called clean while its ruleset could not be read.
                collector.append(
                    contentsOf: load.diagnostics.filter {
                        $0.file == display || ($0.code.phase == "yaml" && $0.severity == .error) || $0.code.rawValue == "ruleset.knock_on"
                    })
                sources.merge(load.sources) { a, _ in a }
                return
            }
            inside.insert(last, at: 0)
            components.removeLast()
            absoluteRoot = (absoluteRoot as NSString).deletingLastPathComponent
        }
        outsideRuleset(path, absolute: absolute, into: &collector, sources: &sources, workingDirectory: workingDirectory)
    }
}

extension CheckCommand {
    /// A file outside any ruleset's folders: a population file (known by its keys) is read
    /// against the working directory's ruleset; anything else is said to be read as YAML only.
    static func outsideRuleset(
        _ path: String, absolute: String, into collector: inout DiagnosticCollector, sources: inout [String: SourceFile], workingDirectory: String
    ) {
        let (documents, diagnostics, fileSources) = RulesetDirectory.read([RulesetDirectory.File(path: absolute, display: path, folder: "")])
        sources.merge(fileSources) { a, _ in a }
        // A population file is known by its keys wherever it lies: read against the ruleset of
        // the working directory, as `rules population` would read it from there.
        let keys = Set(documents.first?.node.pairs?.compactMap { $0.key.scalar } ?? [])
        if keys.contains("groups"), let ruleset = Ruleset.load(directory: workingDirectory).ruleset {
            let read = PopulationCommand.read(display: path, absolute: absolute, ruleset: ruleset)
            collector.append(contentsOf: read.diagnostics)
            return
        }
        collector.append(contentsOf: diagnostics)
        guard diagnostics.isEmpty else { return }
        // Anything else outside a ruleset's folders was only read as YAML: said, never "no problems".
        collector.append(
            Diagnostic(
                code: "io.not_checked", severity: .warning, file: path, location: .fileStart,
                message: keys.contains("groups")
                    ? "a population file read as YAML only: no ruleset here to check it against"
                    : "read as YAML only: not under a ruleset's routines/, rules/, templates/, scenarios/ or populations/",
                hint: keys.contains("groups")
                    ? "run from the ruleset's directory, or put it under the ruleset's populations/"
                    : "check the ruleset's directory instead (rules check DIR)"))
    }
}

/// `rules check --explain CODE`.
enum ExplainCode {
    static func run(_ code: String, _ io: CommandIO) -> ExitCode {
        guard let description = DiagnosticOutput.catalogue.first(where: { $0.code.rawValue == code }) else {
            let near = Suggestions.nearest(to: code, among: DiagnosticOutput.catalogue.map(\.code.rawValue))
            io.fail(.unknownCode(code, near: near))
            return .usage
        }
        var out = "\(description.code.rawValue) (\(description.severity.rawValue)): \(description.summary)\n\n\(description.rationale)\n"
        out += DiagnosticOutput.examples(for: description.code)
        io.out(out)
        return .success
    }
}
