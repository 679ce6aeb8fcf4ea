import Foundation

// Benchmarks for the hot paths, run in a release build:
//   swift run -c release Benchmarks [yaml] [expression] [check] [day] [app-run] [bundle] [scaling] [population] [diff-sample] [lsp] [tune] [fit] [warehouse] [population-memory] [memo-check[:USERS]]
// Every figure is a ratio against a baseline measured in the same run, so the numbers
// compare across machines; nothing here is asserted by the unit tests.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "fit-child" {
    FitBenchmark.fitChild(CommandLine.arguments[2], repository: repositoryRoot())
}
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "rules-child" {
    FitBenchmark.rulesChild(Array(CommandLine.arguments.dropFirst(2)), repository: repositoryRoot())
}
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "telemetry-child" {
    FitBenchmark.telemetryChild(CommandLine.arguments[2], repository: repositoryRoot())
}
let selected = Set(CommandLine.arguments.dropFirst())
func wants(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if wants("yaml") { YAMLBenchmark.run() }
if wants("expression") { ExpressionBenchmark.run() }
if wants("check") { CheckBenchmark.run(repository: repositoryRoot()) }
if wants("day") { DayBenchmark.run(repository: repositoryRoot()) }
if wants("app-run") { AppRunBenchmark.run(repository: repositoryRoot()) }
if wants("bundle") { BundleBenchmark.run(repository: repositoryRoot()) }
if wants("scaling") { ScalingBenchmark.run(repository: repositoryRoot()) }
if wants("population") { PopulationBenchmark.run(repository: repositoryRoot()) }
if wants("diff-sample") { PopulationBenchmark.diffSample(repository: repositoryRoot()) }
if wants("lsp") { LanguageServerBenchmark.run(repository: repositoryRoot()) }
if wants("tune") { TuneBenchmark.run(repository: repositoryRoot()) }
// Minutes long the first time (it writes the telemetry): only when named.
if selected.contains("fit") { FitBenchmark.run(repository: repositoryRoot()) }
// Tens of minutes (three engines, a million users' rows): only when named.
if selected.contains("warehouse") { FitBenchmark.warehouse(repository: repositoryRoot()) }
// Minutes long: only when named.
if selected.contains("population-memory") { PopulationBenchmark.memory(repository: repositoryRoot()) }
// Not a timing: the memo switch on 10,000 synthetic users (minutes): only when named
// (`memo-check:N` for N users).
for name in selected where name == "memo-check" || name.hasPrefix("memo-check:") {
    MemoCheck.run(repository: repositoryRoot(), users: Int(name.dropFirst("memo-check:".count)) ?? 10_000)
}

/// The repository root: the current directory when it holds Package.swift (as with
/// `swift run`), else the directory above the built binary's `.build`.
func repositoryRoot() -> String {
    let current = FileManager.default.currentDirectoryPath
    if FileManager.default.fileExists(atPath: current + "/Package.swift") { return current }
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.pathComponents.count > 1 {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.path + "/Package.swift") { return url.path }
    }
    return current
}
