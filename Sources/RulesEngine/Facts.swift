import Foundation
import RulesExpression
import Ruleset

extension OperatorEngine {
    /// Fills every fact of SPEC §3 from the day, the profile and the reading.
    func fillFacts(_ reading: inout DayReading, day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String) {
        // Written straight into the fresh array: one uniqueness check, not one per fact (and
        // no `Array(repeating:)`, which copies its element through the runtime one by one).
        let values = [Value](unsafeUninitializedCapacity: layout.count) { buffer, initialized in
            buffer.initialize(repeating: .unknown)
            initialized = buffer.count
            fill(FactWriter(buffer: buffer), reading, day: day, route: route, risk: risk, now: now, event: event)
        }
        var facts = FactValues(count: 0)
        facts.values = values
        reading.facts = facts
    }

    private func fill(_ facts: FactWriter, _ reading: DayReading, day: DayState, route: RouteKind, risk: RiskLevel, now: Int, event: String) {
        let health = day.health
        facts.put(layout.now, .time(now))
        facts.put(layout.today, .date(day.day))
        facts.put(layout.weekday, .string(DateFormat.weekday(day.day)))
        let stepsGranted = health?.stepsPermission == .granted
        let stepsRoutine = reading.routines[safe: derived.stepsRoutine]
        facts.put(layout.stepsToday, .int(stepsGranted ? health?.stepsToday ?? 0 : Int(saturating: stepsRoutine?.value ?? 0)))
        facts.put(layout.stepsYesterday, .int(stepsGranted ? health?.stepsYesterday ?? 0 : 0))
        facts.put(layout.stepsAverage7, .int(stepsGranted ? health?.stepsAverage7 ?? 0 : 0))
        facts.put(layout.stepsGoal, .int(Int(saturating: stepsRoutine?.goal ?? 0)))
        let sleepGranted = health?.sleepPermission == .granted
        let sleepRoutine = reading.routines[safe: derived.sleepRoutine]
        var sleepMinutes: Int? = sleepGranted ? health?.sleepMinutes : nil
        if sleepMinutes == nil, let logged = sleepRoutine, logged.value > 0 { sleepMinutes = Int(saturating: logged.value) }
        facts.put(layout.sleepMinutes, sleepMinutes.map(Value.int) ?? .unknown)
        facts.put(layout.sleepStart, (sleepGranted ? health?.sleepStart : nil).map(Value.time) ?? .unknown)
        facts.put(layout.sleepEnd, (sleepGranted ? health?.sleepEnd : nil).map(Value.time) ?? .unknown)
        facts.put(layout.healthSteps, .string((health?.stepsPermission ?? lastPermissions.steps).rawValue))
        facts.put(layout.healthSleep, .string((health?.sleepPermission ?? lastPermissions.sleep).rawValue))
        facts.put(layout.healthSyncedAt, day.syncedAt.map(Value.time) ?? .unknown)
        let water = reading.routines[safe: derived.waterRoutine]
        facts.put(layout.waterML, .int(Int(saturating: water?.value ?? 0)))
        facts.put(layout.waterGoal, .int(Int(saturating: water?.goal ?? 0)))
        facts.put(layout.completed, .int(reading.completed))
        facts.put(layout.total, .int(reading.total))
        facts.put(layout.completionRate, .number(reading.rate))
        facts.put(layout.route, .string(route.rawValue))
        facts.put(layout.risk, .string(risk.rawValue))
        facts.put(layout.recoveryCompleted, .bool(recoveryCompleted(day)))
        // No item left: unknown, so no template renders an empty list.
        let itemsText = recoveryItemsText(day)
        facts.put(layout.recoveryItemsText, itemsText.isEmpty ? .unknown : .string(itemsText))
        let remaining = recoveryRemainingText(day)
        facts.put(layout.recoveryRemainingText, remaining.isEmpty ? .unknown : .string(remaining))
        if let quest = day.quest {
            facts.put(layout.questStart, .int(quest.startSteps))
            facts.put(layout.questTarget, .int(quest.targetDelta))
            facts.put(layout.questClear, .int(quest.clearSteps))
            facts.put(layout.questCurrent, .int(quest.currentSteps))
            facts.put(layout.questRemaining, .int(quest.remainingSteps))
            facts.put(layout.questProgress, .number(quest.progress))
        }
        facts.put(layout.sentToday, .int(day.deliveries.count))
        facts.put(layout.streakDays, .int(profile.streakDays))
        facts.put(layout.event, .string(event))
        for (index, routine) in reading.routines.enumerated() where index < layout.routines.count {
            layout.routines[index].put(routine, into: facts)
        }
        for fact in fromProfile.settingFacts { facts.put(fact.slot, fact.value) }
        for fact in fromProfile.ignoredStreakFacts { facts.put(fact.slot, fact.value) }
    }

}

/// Writes facts into a fresh array in place (no uniqueness check or patch lookup per fact).
struct FactWriter: FactSink {
    let buffer: UnsafeMutableBufferPointer<Value>

    @inline(__always)
    func put(_ slot: Int?, _ value: Value) {
        if let slot, slot >= 0, slot < buffer.count { buffer[slot] = value }
    }
}
