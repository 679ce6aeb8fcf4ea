import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset
import Testing

@testable import RulesEngine

/// Numbers the engine turns into integers or multiplies are bounded when the ruleset loads
/// (10^9 unless a field says less), and the engine's own conversions never trap.
@Suite struct BoundedNumberTests {
    @Test(arguments: [
        ("routines/water.yaml", "goal: 1500", "goal: 1e19"),
        ("routines/water.yaml", "goal: 1500", "goal: 1000000001"),
        ("rules/judgement.yaml", "completed: 10", "completed: 9223372036854775807"),
        ("rules/route.yaml", "delta: 300", "delta: 99999999999"),
        ("rules/route.yaml", "target: 300", "target: 1.7976931348623157e308"),
        ("rules/notifications.yaml", "category_cooldown: 90m", "category_cooldown: 99999999h"),
        // Past every integer or Double: still out of range, not "expected a number".
        ("rules/judgement.yaml", "completed: 10", "completed: 99999999999999999999"),
        ("rules/judgement.yaml", "completed: 10", "completed: 1e19"),
        ("routines/water.yaml", "goal: 1500", "goal: 1e400"),
        ("routines/water.yaml", "goal: 1500", "goal: -1e400"),
    ])
    func aNumberOverTheBoundIsACheckErrorAtTheValue(file: String, old: String, new: String) throws {
        let directory = NSTemporaryDirectory() + "bounded-\(UUID().uuidString)"
        for folder in ["routines", "rules", "templates"] {
            try FileManager.default.copyItem(atPath: Shipped.root + "/" + folder, toPath: directory + "/" + folder)
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/" + file
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try #require(text.contains(old), "\(file) lacks \(old)")
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        let load = Ruleset.load(directory: directory)
        #expect(load.ruleset == nil)
        let error = try #require(load.diagnostics.first { $0.severity == .error })
        #expect(error.code == "ruleset.out_of_range")
        #expect(error.file.hasSuffix(file))
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains(old) }.map { $0 + 1 }
        #expect(error.location.line == line)
    }

    @Test func theLargestAllowedNumbersSimulateWithoutTrapping() throws {
        let big = try Shipped.variant([
            ("routines/water.yaml", "goal: 1500", "goal: 1000000000"),
            ("rules/judgement.yaml", "completed: 10", "completed: 1000000000"),
            ("rules/route.yaml", "delta: 300", "delta: 1000000000"),
        ])
        // Steps on their way to a billion by 22:00.
        func steps(_ count: Int) -> HealthReading { HealthReading(stepsPermission: .granted, stepsToday: count) }
        let result = try EngineDays(big, routines: ["steps", "water", "skincare"])
            .at("2026-07-20", "08:00", .open(steps(66_666_666))).at("2026-07-20", "09:00", .log("water", 1_000_000))
            .at("2026-07-20", "21:10", .open(steps(944_444_444))).at("2026-07-21", "08:00", .open()).live()
        #expect(result.closedDays.count == 2)
    }

    @Test func hugeTemplateArithmeticRendersInsteadOfTrapping() {
        #expect(TemplateRendererProbe.format(.number(1e20 * 100_000_000_000_000_000_000.5), .thousands) != "")
        #expect(TemplateRendererProbe.format(.number(-9.3e18), .thousands) != "")
        #expect(TemplateRendererProbe.format(.number(1e300), .hm) != "")
        #expect(TemplateRendererProbe.format(.number(3240), .thousands) == "3,240")
    }

    @Test func anEditToAnImpossibleValueIsAProblemAndChangesNothing() throws {
        let clock = try #require(LocalClock(identifier: "Asia/Seoul"))
        let day = try #require(DateFormat.days("2026-07-20"))
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: clock)
        engine.handle(.log(routine: "water", value: 500, unit: nil, source: .manual), at: clock.instant(day: day, seconds: 9 * 3600))
        for value in [1e300, -1, .nan, .infinity, 1_000_001] {
            let records = engine.handle(.editLog(id: "log_20260720_001", value: value), at: clock.instant(day: day, seconds: 10 * 3600))
            #expect(records.contains { if case .problem(.invalidValue, _) = $0.kind { true } else { false } }, "\(value)")
            let added = engine.handle(
                .log(routine: "water", value: value, unit: nil, source: .manual), at: clock.instant(day: day, seconds: 10 * 3600))
            #expect(added.contains { if case .problem(.invalidValue, _) = $0.kind { true } else { false } }, "\(value)")
        }
        #expect(engine.habitLogs.map(\.value) == [500])
    }
}
