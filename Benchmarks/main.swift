// Benchmarks for the hot paths, run in a release build:
//   swift run -c release Benchmarks [yaml] [expression]
// Every figure is a ratio against a baseline measured in the same run, so the numbers
// compare across machines; nothing here is asserted by the unit tests.
let selected = Set(CommandLine.arguments.dropFirst())
func wants(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if wants("yaml") { YAMLBenchmark.run() }
if wants("expression") { ExpressionBenchmark.run() }
