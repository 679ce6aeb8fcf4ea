import Foundation
import RulesExpression
import Ruleset

/// Goals and values: what a routine asks for on the route in force, and what was done.
extension OperatorEngine {
    /// The goal of `routine` on `route` (SPEC §5.3): light scales steps, minutes, ml and
    /// count goals (not sleep, checklists or checks) and rounds half up, unless the
    /// routine names its own light goal; `set_goal` overrides win.
    func goal(of routine: Routine, on route: RouteKind, in day: DayState) -> Double {
        if let override = day.goalOverrides[routine.id] { return override }
        guard route == .light else { return routine.goal }
        if let light = routine.lightGoal { return light }
        guard routine.scalesOnLightRoute, let scale = ruleset.light?.scale else { return routine.goal }
        return (routine.goal * scale + 0.5).rounded(.down)
    }

    /// A routine's value: HealthKit steps and sleep when permitted, ticked checklist
    /// items, or the sum of its logs.
    func value(of routine: Routine, in day: DayState) -> Double {
        if routine.source == .healthkit, let health = day.health {
            if routine.unit == .steps, health.stepsPermission == .granted { return Double(health.stepsToday ?? 0) }
            if routine.category == .sleep, health.sleepPermission == .granted, let minutes = health.sleepMinutes {
                return Double(minutes)
            }
        }
        if !routine.items.isEmpty { return Double(day.ticked(routine.id).intersection(routine.items).count) }
        return day.logged(routine.id)
    }
}
