import RulesDiagnostics
import RulesExpression

/// `lint.non_positive`: a goal, amount or delta that is zero or negative.
enum NonPositiveCheck: LintRule {
    static let check = LintCheck(
        "lint.non_positive", .error,
        summary: "a goal, amount or delta that is zero or negative",
        rationale:
            "Progress is value ÷ goal; a goal of zero or less makes every routine complete (or divides by zero), and a recovery item of zero is done before it starts.",
        triggering: [
            LintExample(["routines/w.yaml": "id: water\nname: 물\ncategory: water\nsource: manual\nunit: ml\ngoal: 1️⃣0\n"]),
            LintExample([
                "routines/s.yaml": "id: steps\nname: 걸음 수\ncategory: steps\nsource: healthkit\nunit: steps\ngoal: 6000\n",
                "rules/recovery.yaml": "recovery:\n  items:\n    - 1️⃣{ routine: steps, delta: -300 }\n",
            ]),
        ],
        nonTriggering: [
            LintExample([
                "routines/w.yaml": "id: water\nname: 물\ncategory: water\nsource: manual\nunit: ml\ngoal: 1500\nroutes:\n  light: { goal: 1000 }\n"
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        for routine in context.ruleset.routines {
            if routine.goal <= 0 {
                findings.append(
                    report.finding(
                        routine.goalOrigin ?? routine.origin, "routine '\(routine.id)' has goal \(Value.formatNumber(routine.goal))",
                        hint: "goals are above zero"))
            }
            if let light = routine.lightGoal, light <= 0 {
                findings.append(
                    report.finding(
                        routine.origin, "routine '\(routine.id)' has light goal \(Value.formatNumber(light))", hint: "goals are above zero"))
            }
            if routine.quickLog.contains(where: { $0 <= 0 }) {
                findings.append(report.finding(routine.origin, "routine '\(routine.id)' has a quick-log amount of zero or less"))
            }
        }
        for item in context.ruleset.recovery?.items ?? [] {
            switch item.requirement {
            case .target(let amount) where amount <= 0:
                findings.append(report.finding(item.origin, "recovery item '\(item.routine)' has target \(Value.formatNumber(amount))"))
            case .delta(let delta) where delta <= 0:
                findings.append(report.finding(item.origin, "recovery item '\(item.routine)' has delta \(delta)"))
            default:
                break
            }
        }
        return findings
    }
}
