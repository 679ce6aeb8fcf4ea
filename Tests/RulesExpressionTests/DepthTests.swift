import Foundation
import RulesDiagnostics
import RulesExpression
import Testing

/// Nesting is bounded by one limit that counts parentheses, operators, member access and
/// calls alike, and the worst expression that limit allows parses, checks, compiles and
/// evaluates on a 512 KB stack (an iOS secondary thread's).
@Suite struct DepthTests {
    static let limit = InputLimits.maxExpressionDepth

    @Test func aLongMemberChainIsTooDeepNotAStackOverflow() {
        let text = "(1)" + String(repeating: ".a", count: 1_000)
        let (compiled, diagnostics) = TestSchema.compile(text)
        #expect(compiled == nil)
        #expect(diagnostics.map(\.code.rawValue) == ["expr.too_deep"])
    }

    @Test func callsCountAsLevelsToo() {
        let text = String(repeating: "abs(", count: 200) + "1" + String(repeating: ")", count: 200)
        let (compiled, diagnostics) = TestSchema.compile(text)
        #expect(compiled == nil)
        #expect(diagnostics.first?.code == "expr.too_deep")
    }

    /// The deepest expressions the limit lets through, of each kind.
    static var worstAllowed: [String] {
        let parens = String(repeating: "(", count: limit - 2) + "1" + String(repeating: ")", count: limit - 2) + " > 0"
        let negations = String(repeating: "!(", count: limit / 2 - 3) + "false" + String(repeating: ")", count: limit / 2 - 3)
        let calls = String(repeating: "abs(", count: limit / 2 - 2) + "-1" + String(repeating: ")", count: limit / 2 - 2) + " > 0"
        let sums = String(repeating: "(1 + ", count: limit / 2 - 2) + "1" + String(repeating: ")", count: limit / 2 - 2) + " > 0"
        return [parens, negations, calls, sums]
    }

    @Test func theWorstAllowedExpressionsRunOnA512KilobyteStack() throws {
        let only = Int(ProcessInfo.processInfo.environment["DEPTH_CASE"] ?? "")
        let expressions = only.map { [Self.worstAllowed[$0]] } ?? Self.worstAllowed
        let outcome = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var results: [String] = []
            for text in expressions {
                let (compiled, diagnostics) = CompiledExpression.compile(text, schema: TestSchema.schema, expecting: .anything)
                guard let compiled else {
                    results.append("\(text.prefix(20))…: \(diagnostics.map(\.message))")
                    continue
                }
                var context = EvaluationContext(facts: TestSchema.facts(), dayStart: 4 * 3600)
                do {
                    results.append(try compiled.isTrue(&context) ? "true" : "false")
                } catch {
                    results.append("error: \(error)")
                }
            }
            outcome.set(results)
            done.signal()
        }
        thread.stackSize = (Int(ProcessInfo.processInfo.environment["STACK_KB"] ?? "") ?? 512) * 1024
        thread.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(outcome.get() == ["true", "true", "true", "true"])
    }
}

/// A result handed from the test's thread back to the test.
final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [String] = []
    func set(_ new: [String]) { lock.withLock { value = new } }
    func get() -> [String] { lock.withLock { value } }
}
