import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset
import RulesetFiles

/// Loading what the simulation commands need: the ruleset (`--ruleset DIR`, default the
/// current directory) and scenario files.
enum SimulationSupport {
    /// `--ruleset DIR`, the property holding it ("." unless given).
    static func rulesetOption<Options>(_ property: WritableKeyPath<Options, String>) -> OptionField<Options> {
        .option(property, OptionSpec(name: "--ruleset", valueName: "DIR", help: "Ruleset directory (default: the current directory)."))
    }

    /// The ruleset, or nil after printing its diagnostics. `hint` says how to name another
    /// directory when this one holds no rule files.
    static func ruleset(
        _ path: String, _ io: CommandIO, hint: String = "run from the ruleset's directory, or name it with --ruleset DIR"
    ) -> (Ruleset, [String: SourceFile])? {
        loaded(path, io, hint: hint).flatMap { load in load.ruleset.map { ($0, load.sources) } }
    }

    /// The ruleset's load (its ruleset, sources and documents), or nil after printing its
    /// diagnostics.
    static func loaded(
        _ path: String, _ io: CommandIO, hint: String = "run from the ruleset's directory, or name it with --ruleset DIR"
    )
        -> RulesetLoad?
    {
        let directory = io.resolve(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            io.fail(.noRulesetDirectory(path))
            return nil
        }
        let load = Ruleset.load(directory: directory, displayPrefix: path == "." ? "" : path)
        guard load.ruleset != nil else {
            if load.diagnostics.contains(where: { $0.code == "ruleset.no_files" }) {
                io.fail(.noRuleset(path))
                io.err("help: \(hint)\n")
                return nil
            }
            io.fail(.rulesetHasErrors(path))
            io.err(TextRenderer(color: false).render(load.diagnostics, sources: load.sources))
            return nil
        }
        return load
    }

    struct LoadedScenario {
        var file: String
        var scenario: Scenario?
        var diagnostics: [Diagnostic]
        var source: SourceFile?

        /// The diagnostics as text, with the file's lines under them (empty when there are none).
        func rendered(color: Bool) -> String {
            TextRenderer(color: color).render(diagnostics, sources: source.map { [file: $0] } ?? [:])
        }

        /// The warnings of a scenario that loaded, on standard error: standard output is
        /// the command's own (a trace, JSON, a page).
        func warn(_ io: CommandIO) {
            guard scenario != nil, !diagnostics.isEmpty else { return }
            io.err(rendered(color: false))
        }
    }

    /// Scenario files under `paths` (directories are searched for .yaml/.yml files).
    static func scenarioFiles(_ paths: [String], _ io: CommandIO) -> [RulesetDirectory.File]? {
        var problems: [Diagnostic] = []
        let files = scenarioFiles(paths, io, problems: &problems)
        // A link out of the directory is said, not silently dropped.
        let outside = problems.filter { $0.code == "io.outside_root" }
        if !outside.isEmpty { io.out(TextRenderer(color: io.useColor).render(outside, sources: [:])) }
        return files
    }

    /// Whether a path named on the command line goes through a symbolic link to a place
    /// outside the current directory (a plain path anywhere is the user's to name).
    static func leadsOutside(_ absolute: String, _ io: CommandIO) -> Bool {
        guard let real = RulesetDirectory.realPath(absolute) else { return false }
        let lexical = URL(fileURLWithPath: absolute).standardizedFileURL.path
        let here = RulesetDirectory.realPath(io.currentDirectory) ?? io.currentDirectory
        return real != lexical && !RulesetDirectory.isInside(real, here)
    }

    /// The scenario files of `paths`, with what a directory walk could not read (unreadable
    /// directories, symlinks that lead nowhere) in `problems`.
    static func scenarioFiles(_ paths: [String], _ io: CommandIO, problems: inout [Diagnostic]) -> [RulesetDirectory.File]? {
        var files: [RulesetDirectory.File] = []
        // Links are followed only into the current directory (or the named directory, when
        // it lies elsewhere): a pull request's link to /etc is named, never read.
        let here = RulesetDirectory.realPath(io.currentDirectory) ?? io.currentDirectory
        for path in paths {
            let absolute = io.resolve(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                io.fail(.noSuchPath(path))
                return nil
            }
            let real = RulesetDirectory.realPath(absolute) ?? absolute
            if leadsOutside(absolute, io) {
                problems.append(RulesetDirectory.outsideRoot(path))
                continue
            }
            if isDirectory.boolValue {
                let root = RulesetDirectory.isInside(real, here) ? here : real
                let walk = RulesetDirectory.walk(under: absolute, display: path == "." ? nil : path, root: root)
                problems += walk.problems
                for relative in walk.files {
                    let display = path == "." ? relative : (path.hasSuffix("/") ? path + relative : path + "/" + relative)
                    files.append(
                        RulesetDirectory.File(path: (absolute as NSString).appendingPathComponent(relative), display: display, folder: "scenarios"))
                }
            } else {
                files.append(RulesetDirectory.File(path: absolute, display: path, folder: "scenarios"))
            }
        }
        return files
    }

    /// Reads and loads each file's scenarios (one per document).
    static func scenarios(_ files: [RulesetDirectory.File], ruleset: Ruleset) -> [LoadedScenario] {
        var loaded: [LoadedScenario] = []
        for file in files {
            let (parsed, source) = FileReader.yaml(file.path, display: file.display)
            guard parsed.isClean else {
                loaded.append(
                    LoadedScenario(file: file.display, scenario: nil, diagnostics: DiagnosticCollector(parsed.diagnostics).report(), source: source))
                continue
            }
            for document in parsed.documents where !document.isNull {
                let (scenario, diagnostics) = ScenarioLoader.load(document, file: file.display, source: source, ruleset: ruleset)
                // Sorted, without duplicates, at most 100 (then one note), as `check` reports.
                loaded.append(
                    LoadedScenario(file: file.display, scenario: scenario, diagnostics: DiagnosticCollector(diagnostics).report(), source: source))
            }
        }
        return loaded
    }

    /// `HH:MM` (first day) or `YYYY-MM-DDTHH:MM` → (day index, seconds), or why `text` names
    /// no moment of the scenario (one message for `simulate --at` and `explain --at`).
    static func stopPoint(_ text: String, scenario: Scenario) -> Result<(day: Int, seconds: Int), StopPointError> {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let dayText = parts.count == 2 ? parts[0] : nil
        guard let seconds = NodeReader.readTime(parts.count == 2 ? parts[1] : text) else {
            return .failure(
                StopPointError(message: "'\(text)' is not a time: give HH:MM (00:00 to 24:00), or YYYY-MM-DDTHH:MM for another day of the scenario"))
        }
        guard let first = scenario.days.first, let last = scenario.days.last else {
            return .failure(StopPointError(message: "the scenario has no days"))
        }
        guard let dayText else { return .success((0, seconds)) }
        guard let date = DateFormat.days(dayText) else {
            return .failure(StopPointError(message: "'\(dayText)' is not a date (YYYY-MM-DD)"))
        }
        guard let index = scenario.days.firstIndex(where: { $0.date == date }) else {
            let span = first.date == last.date ? DateFormat.string(first.date) : "\(DateFormat.string(first.date)) to \(DateFormat.string(last.date))"
            return .failure(StopPointError(message: "\(dayText) is not a day of the scenario (its days: \(span))"))
        }
        return .success((index, seconds))
    }

    struct StopPointError: Error {
        var message: String
    }

    /// The files a run reads, which no output may replace: the rule files of the ruleset
    /// `directory` and `extra` (the scenario, population or state named on the command line).
    static func inputs(ruleset directory: String, _ io: CommandIO, extra: [String]) -> [String] {
        let root = io.resolve(directory)
        return RulesetDirectory.files(in: root, folders: RulesetDirectory.rulesetFolders).map(\.path) + extra
    }
}
