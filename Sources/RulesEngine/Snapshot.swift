import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// What home, the widget and notifications read (seed 8.1), saved at every app run.
public struct DailySnapshot: Sendable, Hashable, Codable {
    /// The logical day (days since 1970-01-01).
    public var date: Int
    /// Steps today (0 without permission).
    public var stepsToday: Int
    /// The steps goal in force.
    public var stepsGoal: Int
    /// Last night's sleep, minutes, when known (sensitive: home only).
    public var sleepMinutes: Int?
    /// Water today, ml.
    public var waterML: Int
    /// The water goal in force, ml.
    public var waterGoalML: Int
    /// Routines completed today.
    public var completedRoutines: Int
    /// Core routines today.
    public var totalRoutines: Int
    /// completed / total.
    public var completionRate: Double
    /// The route in force.
    public var route: RouteKind
    /// The risk decided last.
    public var risk: RiskLevel
    /// The home line.
    public var characterLine: String
    /// When it was made.
    public var lastUpdatedAt: Date
    /// The walking quest, during a recovery route with one.
    public var quest: WalkingQuest?
    /// The widget's line (surface `widget`, redacted) and its permission state.
    public var widgetLine: RenderedText?
    /// The steps permission last known.
    public var stepsPermission: HealthReading.Permission

    /// The seed's JSON, keys in the seed's order, plus `quest` while a quest exists.
    public func json(clock: LocalClock) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("date", .string(DateFormat.string(date))),
            ("steps_today", .int(stepsToday)),
            ("steps_goal", .int(stepsGoal)),
            ("sleep_minutes", .optional(sleepMinutes)),
            ("water_ml", .int(waterML)),
            ("water_goal_ml", .int(waterGoalML)),
            ("completed_routines", .int(completedRoutines)),
            ("total_routines", .int(totalRoutines)),
            ("today_completion_rate", .number(completionRate)),
            ("active_route_type", .string(route.rawValue)),
            ("risk_level", .string(risk.rawValue)),
            ("character_line", .string(characterLine)),
            ("last_updated_at", .string(clock.iso8601(lastUpdatedAt))),
        ]
        if let quest {
            members.append(
                (
                    "quest",
                    .object([
                        ("quest_start_steps", .int(quest.startSteps)),
                        ("target_delta_steps", .int(quest.targetDelta)),
                        ("quest_clear_steps", .int(quest.clearSteps)),
                        ("current_steps", .int(quest.currentSteps)),
                        ("remaining_steps", .int(quest.remainingSteps)),
                        ("progress", .number(quest.progress)),
                        ("cleared", .bool(quest.isCleared)),
                    ])
                ))
        }
        return .object(members)
    }

    /// The widget's view (seed 7.4): counts and rates, never sleep or sensitive values.
    public func widgetJSON(clock: LocalClock) -> JSONValue { WidgetView(self).json(clock: clock) }
}

extension WidgetView {
    /// The widget's JSON, keys in a fixed order.
    public func json(clock: LocalClock) -> JSONValue {
        .object([
            ("date", .string(DateFormat.string(date))),
            ("completed_routines", .int(completedRoutines)),
            ("total_routines", .int(totalRoutines)),
            ("today_completion_rate", .number(completionRate)),
            ("steps_today", .int(stepsToday)),
            ("steps_goal", .int(stepsGoal)),
            ("water_ml", .int(waterML)),
            ("water_goal_ml", .int(waterGoalML)),
            ("active_route_type", .string(route.rawValue)),
            ("line", .optional(line)),
            ("redacted", .bool(redacted)),
            ("healthkit_permission", .string(healthKitPermission.rawValue)),
            ("last_updated_at", .string(clock.iso8601(lastUpdatedAt))),
        ])
    }
}

extension RouteState {
    /// Seed 8.3's JSON.
    public func json(day: Int, ruleset: Ruleset) -> JSONValue {
        .object([
            ("id", .string("route_\(LocalClock.compactDate(day))")),
            ("date", .string(DateFormat.string(day))),
            ("type", .string(route.rawValue)),
            ("status", .string("active")),
            (
                "items",
                .array(
                    items.map { item in
                        let routine = ruleset.routine(item.routine)
                        let target: JSONValue
                        let unit: String
                        switch item.requirement {
                        case .target(let amount):
                            target = .number(amount)
                            unit = routine?.unit.rawValue ?? ""
                        case .item(let name):
                            target = .int(1)
                            unit = "check"
                            _ = name
                        case .delta(let steps):
                            target = .int(steps)
                            unit = "steps"
                        }
                        var members: [(String, JSONValue)] = [
                            ("id", .string(item.id)), ("category", .string(routine?.category.rawValue ?? item.routine)),
                            ("target_value", target), ("unit", .string(unit)), ("status", .string(item.status.rawValue)),
                        ]
                        if case .item(let name) = item.requirement { members.insert(("item", .string(name)), at: 2) }
                        return .object(members)
                    })
            ),
            ("created_reason", .string(reason)),
        ])
    }
}

extension HabitLog {
    /// Seed 8.2's JSON.
    public func json(clock: LocalClock, status: RoutineStatus) -> JSONValue {
        .object([
            ("id", .string(id)),
            ("date", .string(DateFormat.string(day))),
            ("category", .string(category.rawValue)),
            ("value", .number(value)),
            ("unit", .string(unit.rawValue)),
            ("status", .string(status.rawValue)),
            ("source", .string(source.rawValue)),
            ("created_at", .string(clock.iso8601(createdAt))),
            ("updated_at", .string(clock.iso8601(updatedAt))),
        ])
    }
}

extension ScheduledNotification {
    /// Seed 8.4's fields plus SPEC §5.6's.
    public func json(clock: LocalClock) -> JSONValue {
        .object([
            ("id", .string(id)),
            ("type", .string(type)),
            ("scheduled_at", .string(clock.iso8601(scheduledAt))),
            ("status", .string(status)),
            ("deep_link", .optional(deepLink)),
            ("template_id", .string(templateID)),
            ("sensitive", .bool(sensitive)),
            ("created_reason", .string(createdReason)),
            ("interruption_level", .string(interruptionLevel.rawValue)),
            ("relevance_score", .number(relevance)),
            ("thread_id", .string(threadID)),
            ("category", .string(category)),
            ("actions", .array(actions.map { .string($0.rawValue) })),
            ("title", .optional(title)),
            ("text", .string(text)),
        ])
    }
}

extension DailySnapshot {
    /// This snapshot with its counts within a saved state's bound (0…10^9): a day's logs can
    /// add up past it (a thousand logs of 1,000,000 ml), and a snapshot past it would make the
    /// engine's save refused at the next load.
    var withinStateBounds: DailySnapshot {
        let bounded = OperatorProfile.clampedCount
        var copy = self
        copy.stepsToday = bounded(stepsToday)
        copy.stepsGoal = bounded(stepsGoal)
        copy.sleepMinutes = sleepMinutes.map(bounded)
        copy.waterML = bounded(waterML)
        copy.waterGoalML = bounded(waterGoalML)
        return copy
    }
}
