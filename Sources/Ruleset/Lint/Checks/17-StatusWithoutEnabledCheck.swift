import RulesDiagnostics
import RulesExpression

/// `lint.status_without_enabled`: a notification that reads a routine's status but not whether the routine is on.
enum StatusWithoutEnabledCheck: LintRule {
    static let check = LintCheck(
        "lint.status_without_enabled", .warning,
        summary: "a notification that reads a routine's status but not whether the routine is on",
        rationale:
            "A routine the user never turned on is `not_started` all day, so `routines.stretching.status != \"completed\"` holds for every user who does not do stretching at all: they get a nudge for a routine they do not have. Read `routines.stretching.enabled` in the same condition.",
        triggering: [
            LintExample([
                "routines/r.yaml":
                    "- { id: stretching, name: 스트레칭, category: exercise, source: manual, unit: minutes, goal: 10, default_enabled: false }\n",
                "rules/n.yaml": """
                settings:
                  stretching_nudge: { type: bool, default: true }
                notifications:
                  - id: stretching_nudge
                    category: nudge
                    at: "19:00"
                    when: 1️⃣routines.stretching.status != "completed"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ],
        nonTriggering: [
            LintExample([
                "routines/r.yaml":
                    "- { id: stretching, name: 스트레칭, category: exercise, source: manual, unit: minutes, goal: 10, default_enabled: false }\n",
                "rules/n.yaml": """
                settings:
                  stretching_nudge: { type: bool, default: true }
                notifications:
                  - id: stretching_nudge
                    category: nudge
                    at: "19:00"
                    when: routines.stretching.enabled && routines.stretching.status != "completed"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ]
    ) { context, report in
        context.ruleset.notifications.flatMap { rule -> [Diagnostic] in
            guard let when = rule.when else { return [] }
            let read = Set(when.factsRead)
            let routines = read.compactMap { fact -> String? in
                let parts = fact.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 3, parts[0] == "routines", parts[2] == "status" else { return nil }
                return String(parts[1])
            }
            return Set(routines).sorted().compactMap { routine in
                guard !read.contains("routines.\(routine).enabled") else { return nil }
                return report.finding(
                    rule.whenOrigin ?? rule.origin,
                    "notification '\(rule.id)' reads routines.\(routine).status but not routines.\(routine).enabled: it also fires for users who never turned '\(routine)' on",
                    hint: "write `routines.\(routine).enabled && \(when.source)`")
            }
        }
    }
}
