import Foundation
import RulesDiagnostics
import RulesExpression
import RulesSimulator
import Ruleset

/// `rules test --generate-boundaries OUT_DIR`: scenario days just below and above each
/// threshold a scenario can set (sleep, steps, water, the time of day, completion).
enum BoundaryCommand {
    static func generate(ruleset: Ruleset, out: String, io: CommandIO) -> ExitCode {
        let scenarios = BoundaryScenarios.make(ruleset)
        let directory = io.resolve(out)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (name, text) in scenarios {
                try Data(text.utf8).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(name)))
            }
        } catch {
            io.err("Error: cannot write to \(out): \(error.localizedDescription)\n")
            return .usage
        }
        io.out("wrote \(scenarios.count) boundary scenario\(scenarios.count == 1 ? "" : "s") to \(out)\n")
        for (name, _) in scenarios { io.out("  \(name)\n") }
        return .success
    }
}
