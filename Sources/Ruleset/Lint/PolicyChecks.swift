import RulesDiagnostics
import RulesExpression

extension LintCatalogue {
    static let neverFires = LintCheck(
        "lint.never_fires", .warning,
        summary: "a notification that can never be delivered",
        rationale:
            "A notification whose `at` is a fixed time inside quiet hours (and not `in_quiet_hours: allow` or `defer`), or whose `when` is constant false, is refused every day whatever the settings.",
        triggering: [
            LintExample([
                "rules/n.yaml": """
                policy:
                  quiet_hours: { start: "22:30", end: "07:00" }
                notifications:
                  - id: late_checkin
                    category: checkin
                    at: 1️⃣"23:00"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ]),
            LintExample([
                "rules/n.yaml": """
                notifications:
                  - id: never
                    category: checkin
                    at: "09:00"
                    when: 1️⃣false
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ]),
        ],
        nonTriggering: [
            LintExample([
                "rules/n.yaml": """
                policy:
                  quiet_hours: { start: "22:30", end: "07:00" }
                notifications:
                  - id: bedtime
                    category: bedtime
                    at: "23:00"
                    in_quiet_hours: allow
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ]
    ) { context, report in
        var findings: [Diagnostic] = []
        let policy = context.ruleset.policy
        for rule in context.ruleset.notifications {
            if rule.inQuietHours == .drop, case .time(let at)? = ConstantAnalysis.constantValue(rule.at.typed), policy.isQuiet(at) {
                findings.append(
                    report.finding(
                        rule.atOrigin, "notification '\(rule.id)' fires at \(TimeFormat.clock(at)), inside quiet hours, and is dropped every day",
                        hint: "move it out of quiet hours, or set 'in_quiet_hours: defer' or 'allow'"))
            }
            if let when = rule.when, context.truth(when) == false {
                findings.append(
                    report.finding(
                        rule.whenOrigin ?? rule.origin, "the condition of notification '\(rule.id)' is never true", hint: "fix the condition"))
            }
        }
        return findings
    }

    static let lockScreenTemplate = """
        surfaces:
          lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어. }
        templates:
          - id: checkin_ready
            surface: lock_screen
            text: 오늘 루트가 준비됐어.
        """

    static let longCooldown = LintCheck(
        "lint.long_cooldown", .warning,
        summary: "a category cooldown of a day or more",
        rationale:
            "The cooldown spaces deliveries of one category within a day; a day or more silences each category after its first notification for good.",
        triggering: [LintExample(["rules/p.yaml": "policy:\n  category_cooldown: 1️⃣24h\n"])],
        nonTriggering: [LintExample(["rules/p.yaml": "policy:\n  category_cooldown: 90m\n"])]
    ) { context, report in
        let policy = context.ruleset.policy
        guard policy.categoryCooldown >= 86_400, let origin = context.ruleset.cooldownOrigin else { return [] }
        return [
            report.finding(
                origin, "category_cooldown is \(TimeFormat.duration(policy.categoryCooldown)): a category could notify only once",
                hint: "the shipped policy uses 90m")
        ]
    }

    static let recoveryTooLong = LintCheck(
        "lint.recovery_too_long", .warning,
        summary: "more recovery items than `max_items`",
        rationale: "The recovery route is the minimal route (three items in the shipped ruleset). Items past `max_items` are never offered.",
        triggering: [
            LintExample([
                "routines/r.yaml":
                    "- { id: water, name: 물, category: water, source: manual, unit: ml, goal: 1500 }\n- { id: steps, name: 걸음 수, category: steps, source: healthkit, unit: steps, goal: 6000 }\n",
                "rules/recovery.yaml": """
                recovery:
                  max_items: 1
                  items:
                    - { routine: water, target: 300 }
                    - 1️⃣{ routine: steps, delta: 300 }
                """,
            ])
        ],
        nonTriggering: [
            LintExample([
                "routines/r.yaml": "- { id: water, name: 물, category: water, source: manual, unit: ml, goal: 1500 }\n",
                "rules/recovery.yaml": "recovery:\n  max_items: 3\n  items:\n    - { routine: water, target: 300 }\n",
            ])
        ]
    ) { context, report in
        guard let recovery = context.ruleset.recovery, recovery.items.count > recovery.maxItems else { return [] }
        return recovery.items.dropFirst(recovery.maxItems).map { item in
            report.finding(
                item.origin, "recovery has \(recovery.items.count) items but max_items is \(recovery.maxItems); this one is never offered",
                hint: "remove items or raise max_items")
        }
    }

    static let nonPositive = LintCheck(
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

    static let lightScale = LintCheck(
        "lint.light_scale", .error,
        summary: "a light-route scale outside (0, 1]",
        rationale: "The light route lowers goals (가벼운 루트); a scale of 0 or less removes them, one above 1 raises them.",
        triggering: [LintExample(["rules/light.yaml": "light:\n  scale: 1️⃣1.5\n"])],
        nonTriggering: [LintExample(["rules/light.yaml": "light:\n  scale: 0.6\n"])]
    ) { context, report in
        guard let light = context.ruleset.light, light.scale <= 0 || light.scale > 1 else { return [] }
        return [
            report.finding(
                light.origin, "light scale is \(Value.formatNumber(light.scale)); it must be above 0 and at most 1",
                hint: "the shipped light route uses 0.6")
        ]
    }
}

extension LintCatalogue {
    static let noToggle = LintCheck(
        "lint.no_toggle", .warning,
        summary: "a notification type the user cannot turn off",
        rationale:
            "Every notification type can be switched on and off in settings. The engine refuses a type whose bool setting of the same id is false (`disabled`); a type without one can only be silenced by editing the rules — unless it is opt-in, firing only at a time the user set (an optional setting in `at`).",
        triggering: [
            LintExample([
                "rules/n.yaml": """
                notifications:
                  - id: 1️⃣morning_checkin
                    category: checkin
                    at: "09:00"
                    template: checkin_ready
                """,
                "templates/t.yaml": lockScreenTemplate,
            ])
        ],
        nonTriggering: [
            LintExample([
                "rules/n.yaml": """
                settings:
                  morning_checkin: { type: bool, default: true }
                  bedtime: { type: "time?" }
                notifications:
                  - id: morning_checkin
                    category: checkin
                    at: "09:00"
                    template: checkin_ready
                  - id: bedtime
                    category: bedtime
                    at: settings.bedtime - 30m
                    in_quiet_hours: allow
                    template: checkin_ready
                """,
                "templates/t.yaml": lockScreenTemplate,
            ])
        ]
    ) { context, report in
        context.ruleset.notifications.compactMap { rule -> Diagnostic? in
            if context.ruleset.settings.declaration(rule.id)?.type == .bool { return nil }
            let optIn =
                rule.at.factsRead.contains { name in
                    name.hasPrefix("settings.") && context.ruleset.schema.fact(named: name)?.type.isOptional == true
                } || rule.perRoutine
            guard !optIn else { return nil }
            return report.finding(
                rule.origin, "notification '\(rule.id)' has no bool setting '\(rule.id)', so the user cannot turn it off",
                hint: "declare settings: { \(rule.id): { type: bool, default: true } }")
        }
    }
}

extension LintCatalogue {
    static let cooldownClash = LintCheck(
        "lint.cooldown_clash", .warning,
        summary: "two notifications of one category closer than the cooldown",
        rationale:
            "The category cooldown spaces deliveries of one category; a new 08:00 notice of the check-in category silently knocks out the 09:00 one on every day the first is delivered.",
        triggering: [
            LintExample([
                "rules/n.yaml": """
                policy:
                  category_cooldown: 90m
                notifications:
                  - id: early
                    category: checkin
                    at: "08:00"
                    template: checkin_ready
                  - id: morning
                    category: checkin
                    at: 1️⃣"09:00"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ],
        nonTriggering: [
            LintExample([
                "rules/n.yaml": """
                policy:
                  category_cooldown: 90m
                notifications:
                  - id: early
                    category: checkin
                    at: "07:00"
                    template: checkin_ready
                  - id: morning
                    category: checkin
                    at: "09:00"
                    template: checkin_ready
                """, "templates/t.yaml": lockScreenTemplate,
            ])
        ]
    ) { context, report in
        let ruleset = context.ruleset
        let cooldown = ruleset.policy.categoryCooldown
        let dayStart = ruleset.dayStartsAt
        // Per category, the constant fire times sorted: the clashing pairs are the ones
        // within a cooldown of each other, found in a sliding window (n log n, not every pair
        // of rules), at most `maxPairs` of them.
        var byCategory: [String: [(position: Int, index: Int)]] = [:]
        var categories: [String] = []
        for (index, rule) in ruleset.notifications.enumerated() where !rule.perRoutine {
            guard case .time(let at)? = ConstantAnalysis.constantValue(rule.at.typed) else { continue }
            if byCategory[rule.category] == nil { categories.append(rule.category) }
            byCategory[rule.category, default: []].append((((at - dayStart) % 86_400 + 86_400) % 86_400, index))
        }
        let maxPairs = InputLimits.maxDiagnostics
        var pairs: [(later: Int, earlier: Int, gap: Int)] = []
        collect: for category in categories {
            let entries = (byCategory[category] ?? []).sorted { ($0.position, $0.index) < ($1.position, $1.index) }
            var start = 0
            for current in entries.indices {
                // (`start < current`: with a cooldown of 0 nothing clashes, and the window never
                // passes the entry itself.)
                while start < current, entries[current].position - entries[start].position >= cooldown { start += 1 }
                for other in start..<current {
                    let (a, b) = (entries[other], entries[current])
                    pairs.append((Swift.max(a.index, b.index), Swift.min(a.index, b.index), b.position - a.position))
                    if pairs.count >= maxPairs { break collect }
                }
            }
        }
        var findings: [Diagnostic] = []
        for pair in pairs.sorted(by: { ($0.later, $0.earlier) < ($1.later, $1.earlier) }) {
            let rule = ruleset.notifications[pair.later]
            let earlier = ruleset.notifications[pair.earlier]
            findings.append(
                report.finding(
                    rule.atOrigin,
                    "notifications '\(earlier.id)' (\(earlier.atOrigin.file):\(earlier.atOrigin.location.line)) and '\(rule.id)' share category '\(rule.category)' and fire \(TimeFormat.duration(pair.gap)) apart, under the \(TimeFormat.duration(cooldown)) cooldown",
                    hint:
                        "the later one is refused on every day the earlier is delivered: move one, give it its own category, or shorten category_cooldown"
                ))
        }
        return findings
    }
}
