import RulesDiagnostics
import RulesExpression

/// `lint.fraction_as_percent`: a share from 0 to 1 compared with a number written as a percent.
enum FractionAsPercentCheck: LintRule {
    static let check = LintCheck(
        "lint.fraction_as_percent", .error,
        summary: "a share from 0 to 1 compared with a number written as a percent",
        rationale:
            "`completion_rate` is a share from 0 to 1 (0.6 is 60 %), and a routine's `progress` is its value over its goal (1 is done). `completion_rate < 60` is always true and `progress >= 80` never: the number was written as a percent. Write the share (`0.6`, `0.8`).",
        triggering: [
            LintExample([
                "rules/route.yaml": """
                route:
                  - use: recovery
                    when: now >= 21:00 && completion_rate < 1️⃣60
                  - use: regular
                    when: true
                """
            ])
        ],
        nonTriggering: [
            LintExample([
                "rules/route.yaml": """
                route:
                  - use: recovery
                    when: now >= 21:00 && completion_rate < 0.6
                  - use: regular
                    when: true
                """
            ])
        ]
    ) { context, report in
        var conditions: [(CompiledExpression, Origin)] = []
        for table in context.tables { conditions += table.entries.map { ($0.when, $0.whenOrigin) } }
        for rule in context.ruleset.notifications { if let when = rule.when, let origin = rule.whenOrigin { conditions.append((when, origin)) } }
        for template in context.ruleset.templates {
            if let when = template.when, let origin = template.whenOrigin { conditions.append((when, origin)) }
        }
        var findings: [Diagnostic] = []
        for (expression, origin) in conditions {
            for threshold in Threshold.extract(from: expression.typed) {
                guard let bound = bound(of: threshold.fact), let number = number(threshold.constant), number > bound else { continue }
                let comparison = threshold.text(in: expression.source)
                var place = origin
                // Point at the number (a one-line condition: its column in scalars), so the
                // hint's quick fix replaces the number alone.
                if !expression.source.contains("\n") { place.location.column += threshold.range.start + KoreanCount.lastNumberOffset(in: comparison) }
                findings.append(
                    report.finding(
                        place, "'\(comparison)' compares a share from 0 to 1 with \(Value.formatNumber(number)), written as a percent",
                        hint: number <= 100 ? "did you mean '\(Value.formatNumber(number / 100))'?" : "write the share: 1 is the whole"))
            }
        }
        return findings
    }

    /// The largest value a fact that is a share can sensibly be compared with: 1 for
    /// `completion_rate`; 5 for a progress (a goal met five times over), nil for other facts.
    static func bound(of fact: String) -> Double? {
        if fact == "completion_rate" { return 1 }
        if fact == "progress" || fact == "routine.progress" || fact == "quest.steps.progress" { return 5 }
        if fact.hasPrefix("routines."), fact.hasSuffix(".progress") { return 5 }
        return nil
    }

    static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .number(let number): number
        default: nil
        }
    }
}
