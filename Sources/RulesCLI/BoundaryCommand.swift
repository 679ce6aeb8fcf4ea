import Foundation
import RulesChangeImpact
import RulesDiagnostics
import RulesExpression
import Ruleset

/// `rules test --generate-boundaries OUT_DIR`: scenario days just below and above each
/// threshold a scenario can set (sleep, steps, water, the time of day, completion).
enum BoundaryCommand {
    static func generate(ruleset: Ruleset, out: String, io: CommandIO) -> ExitCode {
        let scenarios = BoundaryScenarios.make(ruleset)
        do {
            try FileManager.default.createDirectory(atPath: io.resolve(out), withIntermediateDirectories: true)
        } catch {
            io.fail(.cannotMakeDirectory(out, reason: error.localizedDescription))
            return .usage
        }
        // Every scenario or none (a full disk halfway leaves the folder as it was).
        guard io.writeAll(scenarios.map { ((out as NSString).appendingPathComponent($0.0), $0.1) }) else { return .usage }
        io.out("wrote \(scenarios.count) boundary scenario\(scenarios.count == 1 ? "" : "s") to \(out)\n")
        for (name, _) in scenarios { io.out("  \(name)\n") }
        return .success
    }
}
