import Foundation
import RulesEngine
import Ruleset
import Testing

@testable import RulesEngine

/// Each gate is a value of its own: a function of the candidate, the plan's inputs and a
/// `GateContext`, testable without an engine's other parts.
@Suite struct GatesTests {
    static let clock = EngineStateTests.seoul
    static let day = EngineStateTests.day

    /// A context and today's planned candidates after a morning app run.
    static func planned() throws -> (GateContext, [PlannedCandidate]) {
        var engine = try #require(
            OperatorEngine(prepared: PreparedRuleset(Shipped.ruleset), state: EngineState(ruleset: Shipped.ruleset, clock: clock)))
        // The candidates are kept to be explained.
        engine.explains = true
        engine.handle(.appOpened(health: EngineStateTests.health(steps: 500)), at: clock.instant(day: day, seconds: 8 * 3600))
        return (engine.planner.gateContext(try #require(engine.planDay)), engine.decisions.planned ?? [])
    }

    static func gated(_ planned: PlannedCandidate, _ context: GateContext) -> GatedCandidate {
        let candidate = planned.candidate
        var problems: [String] = []
        let gated = GatedCandidate(
            candidate: candidate, fireSeconds: candidate.seconds, fireAt: candidate.fireAt, fireDay: candidate.day,
            facts: context.atFire(candidate.facts, fireSeconds: candidate.seconds, problems: &problems), level: candidate.box.value.interruptionLevel)
        #expect(problems.isEmpty)
        return gated
    }

    @Test func theGatesRunInTheDocumentedOrder() {
        #expect(
            GateReason.planOrder.map(\.rawValue) == [
                "disabled", "skipped", "condition_false", "completed", "quiet_hours", "daily_cap", "category_cooldown", "weakened", "stale",
            ])
    }

    @Test func theDailyCapCountsTheRequestsItIsGiven() throws {
        let (context, planned) = try Self.planned()
        let candidate = try #require(planned.first { $0.today })
        var gated = Self.gated(candidate, context)
        #expect(DailyCapGate.check(&gated, GateInputs(accepted: [], skipped: false, recovery: nil), context) == .passed)
        let request = Self.request(candidate)
        let full = Array(repeating: request, count: context.ruleset.policy.maxPerDay)
        #expect(DailyCapGate.check(&gated, GateInputs(accepted: full, skipped: false, recovery: nil), context) != .passed)
        // Requests of another day do not count.
        var tomorrow = request
        tomorrow.day += 1
        let other = Array(repeating: tomorrow, count: context.ruleset.policy.maxPerDay)
        #expect(DailyCapGate.check(&gated, GateInputs(accepted: other, skipped: false, recovery: nil), context) == .passed)
    }

    @Test func weakeningReadsTheIgnoreCountsOfItsContext() throws {
        let (context, planned) = try Self.planned()
        let candidate = try #require(planned.first)
        var gated = Self.gated(candidate, context)
        let inputs = GateInputs(accepted: [], skipped: false, recovery: nil)
        #expect(WeakeningGate.check(&gated, inputs, context) == .passed && gated.level != .passive)
        var streaks = context.ignoredStreaks
        streaks[candidate.candidate.box.index] = context.ruleset.policy.weakenAfterIgnored
        let ignored = GateContext(
            prepared: context.prepared, typeOff: context.typeOff, ignoredStreaks: streaks,
            weakenedSince: context.weakenedSince, today: context.today, deliveries: context.deliveries, clock: context.clock,
            dayStart: context.dayStart)
        // The shipped policy weakens to passive delivery.
        #expect(context.ruleset.policy.weakenEffect == .passive)
        #expect(WeakeningGate.check(&gated, inputs, ignored) == .passed && gated.level == .passive && gated.relevance == 0.2)
    }

    @Test func skippedRefusesOnlyWhenTheInputsSaySo() throws {
        let (context, planned) = try Self.planned()
        var gated = Self.gated(try #require(planned.first), context)
        #expect(SkippedGate.check(&gated, GateInputs(accepted: [], skipped: true, recovery: nil), context) != .passed)
        #expect(SkippedGate.check(&gated, GateInputs(accepted: [], skipped: false, recovery: nil), context) == .passed)
    }

    static func request(_ planned: PlannedCandidate) -> ScheduledNotification {
        let candidate = planned.candidate
        return ScheduledNotification(
            id: candidate.id, type: candidate.box.value.id, routine: candidate.routine, scheduledAt: candidate.fireAt, day: candidate.day,
            status: "scheduled", deepLink: candidate.box.value.deepLink, templateID: candidate.box.value.template, sensitive: false,
            createdReason: "default", interruptionLevel: .active, relevance: 1, threadID: "t", category: "other", actions: [], title: nil,
            text: "", redacted: false)
    }
}
