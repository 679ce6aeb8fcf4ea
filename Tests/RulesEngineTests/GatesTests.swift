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

    /// A planner for `profile` (the defaults when nil) under `ruleset`: no engine runs.
    static func planner(_ ruleset: Ruleset = Shipped.ruleset, profile: OperatorProfile? = nil) -> NotificationPlanner {
        let prepared = PreparedRuleset(ruleset)
        let profile = profile ?? OperatorProfile(ruleset: ruleset)
        return NotificationPlanner(
            prepared: prepared,
            profileBox: ProfileBox(profile, prepared),
            weakenedSince: profile.weakenedSince, clock: clock, permissions: KnownPermissions(), explains: false, memoises: true)
    }

    /// A context and today's candidates of a fresh day read at 08:00, made by the planner's
    /// own parts (`DayReader`, `candidates`, `gateContext`) without an engine.
    static func candidates(_ planner: NotificationPlanner = planner(), deliveries: [Delivery] = []) -> (GateContext, [Candidate]) {
        let current = DayState(day: day)
        let reading = planner.reader.read(current, route: .regular, risk: .low, now: 8 * 3600)
        var memos = PlanMemos()
        let ids = NotificationPlanner.candidateIDs(day: day, &memos, planner.prepared.ruleBoxes)
        var problems: [String] = []
        let made = planner.candidates(
            for: day, today: day, reading: reading, at: clock.instant(day: day, seconds: 8 * 3600), ids: ids, delivered: [:],
            problems: &problems)
        #expect(problems.isEmpty)
        let today = PlanDay(day: day, skipped: false, route: .regular, reason: "default", deliveries: deliveries)
        return (planner.gateContext(today), made)
    }

    /// The candidate of one type.
    static func candidate(_ type: String, _ made: [Candidate]) throws -> Candidate {
        try #require(made.first { $0.box.value.id == type }, "\(made.map(\.id))")
    }

    static func gated(_ candidate: Candidate, _ context: GateContext) -> GatedCandidate {
        var problems: [String] = []
        let gated = GatedCandidate(
            candidate: candidate, fireSeconds: candidate.seconds, fireAt: candidate.fireAt, fireDay: candidate.day,
            facts: context.atFire(candidate.facts, fireSeconds: candidate.seconds, problems: &problems), level: candidate.box.value.interruptionLevel)
        #expect(problems.isEmpty)
        return gated
    }

    static let none = GateInputs(accepted: [], skipped: false, recovery: nil)

    @Test func theGatesRunInTheDocumentedOrder() {
        #expect(
            GateReason.planOrder.map(\.rawValue) == [
                "disabled", "skipped", "condition_false", "completed", "quiet_hours", "daily_cap", "category_cooldown", "weakened", "stale",
            ])
    }

    @Test func theDailyCapCountsTheRequestsItIsGiven() throws {
        let (context, made) = Self.candidates()
        let candidate = try #require(made.first)
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
        let (context, made) = Self.candidates()
        let candidate = try #require(made.first)
        var gated = Self.gated(candidate, context)
        let inputs = GateInputs(accepted: [], skipped: false, recovery: nil)
        #expect(WeakeningGate.check(&gated, inputs, context) == .passed && gated.level != .passive)
        var streaks = context.ignoredStreaks
        streaks[candidate.box.index] = context.ruleset.policy.weakenAfterIgnored
        let ignored = GateContext(
            prepared: context.prepared, typeOff: context.typeOff, ignoredStreaks: streaks,
            weakenedSince: context.weakenedSince, today: context.today, deliveries: context.deliveries, clock: context.clock,
            dayStart: context.dayStart)
        // The shipped policy weakens to passive delivery.
        #expect(context.ruleset.policy.weakenEffect == .passive)
        #expect(WeakeningGate.check(&gated, inputs, ignored) == .passed && gated.level == .passive && gated.relevance == 0.2)
    }

    @Test func skippedRefusesOnlyWhenTheInputsSaySo() throws {
        let (context, made) = Self.candidates()
        var gated = Self.gated(try #require(made.first), context)
        #expect(SkippedGate.check(&gated, GateInputs(accepted: [], skipped: true, recovery: nil), context) != .passed)
        #expect(SkippedGate.check(&gated, GateInputs(accepted: [], skipped: false, recovery: nil), context) == .passed)
    }

    @Test func disabledReadsTheTypesOwnSetting() throws {
        var profile = OperatorProfile(ruleset: Shipped.ruleset)
        profile.settings["morning_checkin"] = .bool(false)
        let (off, made) = Self.candidates(Self.planner(profile: profile))
        let (on, _) = Self.candidates()
        var gated = Self.gated(try Self.candidate("morning_checkin", made), off)
        #expect(DisabledGate.check(&gated, Self.none, off) == .refused("setting 'morning_checkin' is false"))
        #expect(DisabledGate.check(&gated, Self.none, on) == .passed)
        // Another type's setting does not turn this one off.
        var other = Self.gated(try Self.candidate("evening_underachievement", made), off)
        #expect(DisabledGate.check(&other, Self.none, off) == .passed)
    }

    @Test func conditionReadsTheFactsAtTheFireTime() throws {
        let (context, made) = Self.candidates()
        // A fresh day: nothing done, completion 0 < 0.6.
        var gated = Self.gated(try Self.candidate("evening_underachievement", made), context)
        #expect(ConditionGate.check(&gated, Self.none, context) == .passed)
        if let slot = context.layout.completionRate { gated.facts.patch(slot, cell: .number(0.8)) }
        #expect(ConditionGate.check(&gated, Self.none, context) == .refused("completion_rate < 0.6"))
        #expect(gated.problems.isEmpty)
        // Without `when:` nothing refuses.
        var always = Self.gated(try Self.candidate("morning_checkin", made), context)
        #expect(ConditionGate.check(&always, Self.none, context) == .passed)
    }

    @Test func completedRefusesAReminderOfADoneRoutine() throws {
        var profile = OperatorProfile(ruleset: Shipped.ruleset)
        profile.settings["routine_reminder"] = .bool(true)
        profile.settings["reminders"] = .map(["water": .time(15 * 3600)])
        let (context, made) = Self.candidates(Self.planner(profile: profile))
        var gated = Self.gated(try Self.candidate("routine_reminder", made), context)
        #expect(CompletedGate.check(&gated, Self.none, context) == .passed)
        let index = try #require(context.ruleset.routines.firstIndex { $0.id == "water" })
        let slot = try #require(context.layout.routines[index].status)
        gated.facts.patch(slot, cell: RoutineStatus.completed.cell)
        #expect(CompletedGate.check(&gated, Self.none, context) == .refused("routine 'water' is done"))
        // A type that is not per routine is never refused here.
        var daily = Self.gated(try Self.candidate("morning_checkin", made), context)
        daily.facts.patch(slot, cell: RoutineStatus.completed.cell)
        #expect(CompletedGate.check(&daily, Self.none, context) == .passed)
    }

    @Test func quietHoursDeferOrAllowAsTheTypeSays() throws {
        var profile = OperatorProfile(ruleset: Shipped.ruleset)
        profile.settings["bedtime"] = .time(23 * 3600 + 30 * 60)
        let (context, made) = Self.candidates(Self.planner(profile: profile))
        // Bedtime at 23:00 is allowed inside quiet hours (22:30-07:00).
        var bedtime = Self.gated(try Self.candidate("bedtime", made), context)
        #expect(bedtime.fireSeconds == 23 * 3600)
        #expect(QuietHoursGate.check(&bedtime, Self.none, context) == .passed && bedtime.deferredBy == 0)
        // The morning check-in moved to 23:00 is dropped (the default handling).
        let morning = try Self.candidate("morning_checkin", made)
        #expect(morning.box.value.inQuietHours == .drop)
        var late = Self.gated(morning, context)
        late.fireSeconds = 23 * 3600
        late.fireAt = Self.clock.instant(day: Self.day, seconds: 23 * 3600)
        #expect(QuietHoursGate.check(&late, Self.none, context) == .refused("23:00 is inside quiet hours"))
        // At 09:00 nothing is quiet.
        var nine = Self.gated(morning, context)
        #expect(QuietHoursGate.check(&nine, Self.none, context) == .passed && nine.deferredBy == 0)
        // A type that defers is held to 07:00 the next morning.
        let (deferring, variantMade) = Self.candidates(Self.planner(try Self.deferringRuleset()))
        var held = Self.gated(try Self.candidate("morning_checkin", variantMade), deferring)
        held.fireSeconds = 23 * 3600
        held.fireAt = Self.clock.instant(day: Self.day, seconds: 23 * 3600)
        #expect(QuietHoursGate.check(&held, Self.none, deferring) == .passed)
        #expect(held.fireSeconds == 7 * 3600 && held.deferredBy == 8 * 3600 && held.fireDay == Self.day + 1)
        #expect(held.outcome.deferredTo == 7 * 3600)
    }

    /// The shipped rules with the morning check-in deferred out of quiet hours, stale after 1 h.
    static func deferringRuleset() throws -> Ruleset {
        try Shipped.variant([
            (
                "rules/notifications.yaml", "    template: checkin_ready\n",
                "    template: checkin_ready\n    in_quiet_hours: defer\n    expires_after: 1h\n"
            )
        ])
    }

    @Test func cooldownCountsDeliveriesAndRequestsOfTheCategory() throws {
        let (context, made) = Self.candidates()
        let candidate = try Self.candidate("morning_checkin", made)
        var gated = Self.gated(candidate, context)
        let cooldown = TimeInterval(context.ruleset.policy.categoryCooldown)
        func request(at offset: TimeInterval, _ category: String) -> ScheduledNotification {
            var request = Self.request(candidate, category: category)
            request.scheduledAt = candidate.fireAt.addingTimeInterval(offset)
            return request
        }
        #expect(CooldownGate.check(&gated, GateInputs(accepted: [request(at: 1800, "checkin")], skipped: false, recovery: nil), context) != .passed)
        // Exactly the cooldown apart passes; another category never counts.
        #expect(
            CooldownGate.check(&gated, GateInputs(accepted: [request(at: cooldown, "checkin")], skipped: false, recovery: nil), context) == .passed)
        #expect(CooldownGate.check(&gated, GateInputs(accepted: [request(at: 60, "salvage")], skipped: false, recovery: nil), context) == .passed)
        // A delivery of the category counts as well.
        let delivered = [Delivery(type: "x", category: "checkin", at: candidate.fireAt.addingTimeInterval(-600))]
        let (withDelivery, _) = Self.candidates(deliveries: delivered)
        #expect(CooldownGate.check(&gated, Self.none, withDelivery) != .passed)
    }

    @Test func staleRefusesWhatWasDeferredPastItsExpiry() throws {
        let (context, made) = Self.candidates(Self.planner(try Self.deferringRuleset()))
        var gated = Self.gated(try Self.candidate("morning_checkin", made), context)
        #expect(StaleGate.check(&gated, Self.none, context) == .passed)
        gated.deferredBy = 3600
        #expect(StaleGate.check(&gated, Self.none, context) == .passed)
        gated.deferredBy = 3601
        #expect(StaleGate.check(&gated, Self.none, context) != .passed)
    }

    @Test func maxPendingKeepsTheSoonest() throws {
        let (_, made) = Self.candidates()
        var accepted = made.prefix(3).map { Self.request($0) }
        #expect(accepted.count == 3)
        var refusals: [SuppressedNotification] = []
        let latest = try #require(accepted.max { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) })
        MaxPendingGate.apply(&accepted, &refusals, limit: 2)
        #expect(accepted.count == 2 && accepted.allSatisfy { $0.scheduledAt <= latest.scheduledAt })
        #expect(refusals.map(\.id) == [latest.id] && refusals.first?.reason == .maxPending)
    }

    @Test func requestsHaveTheSameIDWhateverBoxHoldsIt() throws {
        let (_, made) = Self.candidates()
        let first = try #require(made.first)
        let second = try #require(made.dropFirst().first { $0.id != first.id })
        let request = Self.request(first)
        // The same box, another box with the same id (a request made again), another id.
        var changed = request
        changed.text = "다른 문구"
        #expect(request.sameID(as: request) && request.sameID(as: changed) && changed.sameID(as: Self.request(first, category: "c")))
        #expect(!request.sameID(as: Self.request(second)) && !Self.request(second).sameID(as: changed))
    }

    static func request(_ candidate: Candidate, category: String = "other") -> ScheduledNotification {
        ScheduledNotification(
            id: candidate.id, type: candidate.box.value.id, routine: candidate.routine, scheduledAt: candidate.fireAt, day: candidate.day,
            status: "scheduled", deepLink: candidate.box.value.deepLink, templateID: candidate.box.value.template, sensitive: false,
            createdReason: "default", interruptionLevel: .active, relevance: 1, threadID: "t", category: category, actions: [], title: nil,
            text: "", redacted: false)
    }
}
