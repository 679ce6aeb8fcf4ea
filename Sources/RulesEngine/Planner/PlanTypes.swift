import Foundation
import RulesExpression
import Ruleset

/// A candidate and what the gates decided, kept from the last plan to explain it on demand.
struct PlannedCandidate: Sendable {
    var candidate: Candidate
    /// The facts its gates read: the candidate's at its fire time (`GateContext.atFire`).
    var fireFacts: FactValues
    var reason: GateReason?
    var gates: GateOutcome
    var at: Date
    var today: Bool
}

/// A notification rule behind one reference: candidates are copied many times per plan,
/// and a rule is a large value.
final class RuleBox: Sendable {
    let value: NotificationRule
    /// Its text and title templates with their surfaces' fallbacks (looked up once), and
    /// its thread.
    let body: ResolvedTemplate?
    let title: ResolvedTemplate?
    let threadID: String
    /// Its place in the ruleset's notifications (for tables worked out per profile).
    let index: Int

    init(_ value: NotificationRule, index: Int, in ruleset: Ruleset) {
        self.value = value
        self.index = index
        func resolve(_ id: String) -> ResolvedTemplate? {
            ruleset.template(id).map {
                ResolvedTemplate(
                    template: $0, fallback: ruleset.surface($0.surface)?.fallback ?? "",
                    refusedAt: TemplateRenderer.refusedSegment($0, in: ruleset))
            }
        }
        body = resolve(value.template)
        title = value.title.flatMap(resolve)
        threadID = "thread.\(value.category)"
    }
}

/// A template with its surface's fallback, behind one reference (copying the template out
/// of the rule's box retained each of its fields).
final class ResolvedTemplate: Sendable {
    let template: Template
    let fallback: String
    /// Its refused segment (see `TemplateRenderer.refusedSegment`).
    let refusedAt: Int?
    /// Its text when it has no placeholder (then it renders as it is).
    let constantText: String?

    init(template: Template, fallback: String, refusedAt: Int?) {
        self.template = template
        self.fallback = fallback
        self.refusedAt = refusedAt
        if template.segments.count == 1, case .text(let literal) = template.segments[0] {
            constantText = literal
        } else {
            constantText = template.segments.isEmpty ? "" : nil
        }
    }
}

/// What a plan reads off the profile, as values (`ProfileDerived.planInputs`): the user's
/// routines, types turned off, reminder times, day start, tone and setting values; each
/// type's weakening (its run of ignores reaching `after_ignored`, and the day it did); the
/// profile's cells at the slots plans read. Kept plans are keyed by it — equal inputs, the
/// same plan — and arrays that were not made again compare in one step.
struct PlanInputs: Sendable, Equatable {
    /// The values behind one reference, never changed in place: every plan's key holds the
    /// inputs, and inline they were copied (a retain per array) into each key, compared and
    /// destroyed at every app run. Inputs not made again compare by identity.
    private final class Storage: Sendable {
        let enabled: [Bool]
        let typeOff: [Bool]
        let reminders: [Int?]
        let dayStart: Int
        let tone: String?
        let settings: [Value]
        let weakening: [Int]
        let planFacts: [FactCell]

        init(
            enabled: [Bool], typeOff: [Bool], reminders: [Int?], dayStart: Int, tone: String?, settings: [Value], weakening: [Int],
            planFacts: [FactCell]
        ) {
            self.enabled = enabled
            self.typeOff = typeOff
            self.reminders = reminders
            self.dayStart = dayStart
            self.tone = tone
            self.settings = settings
            self.weakening = weakening
            self.planFacts = planFacts
        }

        func with(weakening: [Int]? = nil, planFacts: [FactCell]? = nil) -> Storage {
            Storage(
                enabled: enabled, typeOff: typeOff, reminders: reminders, dayStart: dayStart, tone: tone, settings: settings,
                weakening: weakening ?? self.weakening, planFacts: planFacts ?? self.planFacts)
        }
    }

    private var storage: Storage

    init(
        enabled: [Bool], typeOff: [Bool], reminders: [Int?], dayStart: Int, tone: String?, settings: [Value], weakening: [Int], planFacts: [FactCell]
    ) {
        storage = Storage(
            enabled: enabled, typeOff: typeOff, reminders: reminders, dayStart: dayStart, tone: tone, settings: settings, weakening: weakening,
            planFacts: planFacts)
    }

    var enabled: [Bool] { storage.enabled }
    var typeOff: [Bool] { storage.typeOff }
    var reminders: [Int?] { storage.reminders }
    var dayStart: Int { storage.dayStart }
    var tone: String? { storage.tone }
    var settings: [Value] { storage.settings }
    /// Per notification type: Int.min while not weakened, else the day it became weakened
    /// (Int.min + 1 when unknown).
    var weakening: [Int] {
        get { storage.weakening }
        set { storage = storage.with(weakening: newValue) }
    }
    /// The profile's cells at the slots plans read.
    var planFacts: [FactCell] {
        get { storage.planFacts }
        set { storage = storage.with(planFacts: newValue) }
    }

    static func == (a: PlanInputs, b: PlanInputs) -> Bool {
        if a.storage === b.storage { return true }
        return a.dayStart == b.dayStart && a.enabled == b.enabled && a.typeOff == b.typeOff && a.reminders == b.reminders && a.tone == b.tone
            && a.weakening == b.weakening && sameCells(a.planFacts, b.planFacts) && a.settings == b.settings
    }

    /// Cells compared bit for bit.
    static func sameCells(_ a: [FactCell], _ b: [FactCell]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.sameBits(as: $1) }
    }
}

/// Tomorrow's gated candidates as a memo (`Memo`): made from what plans read off the
/// profile, the known permissions and the time, never from the run's facts (tomorrow is read
/// afresh).
typealias KeptTomorrow = Memo<TomorrowInputs, TomorrowPlan>

/// What tomorrow's plan is made from: what plans read off the profile
/// (`ProfileDerived.planInputs`), the known permissions (which `health.*` reads when there is
/// no sync yet), the planning run's time of day when tomorrow's plan reads it
/// (`RulesetDerived.tomorrowReadsNow`, else nil), and whether it was kept to be explained.
struct TomorrowInputs: Equatable, Sendable {
    var planInputs: PlanInputs
    var permissions: KnownPermissions
    var now: Int?
    var explained: Bool
}

/// Tomorrow's gated candidates for one day. Immutable, behind one reference: engines that
/// share it cannot change it, and letting go of it is one release.
final class TomorrowPlan: Sendable {
    let day: Int
    /// Each candidate's category and fire time (what today's requests are checked against).
    let fires: [CategoryTime]
    let accepted: [ScheduledNotification]
    let refusals: [SuppressedNotification]
    /// The candidates with their gates (empty when the plan kept none to be explained).
    let planned: [PlannedCandidate]

    init(day: Int, fires: [CategoryTime], accepted: [ScheduledNotification], refusals: [SuppressedNotification], planned: [PlannedCandidate]) {
        self.day = day
        self.fires = fires
        self.accepted = accepted
        self.refusals = refusals
        self.planned = planned
    }

    /// The same plan for the next day: what a fresh plan of `day + 1` gives when nothing it
    /// reads tells the two days apart — no date fact is read (`RulesetDerived.tomorrowReadsNoDate`),
    /// no type is weakened to every other day, and the zone keeps one offset over both days
    /// (`LocalClock.sameWallTimeNextDay`; every fire time and request moves by 86,400 s and
    /// every id to the next date). Nil when one of its instants cannot move so. (A plan kept
    /// to be explained is not moved: its candidates' gates were seen on its own day.)
    func nextDay(clock: LocalClock) -> TomorrowPlan? {
        // Every id of the plan is its type's (and routine's) with the planned day's date
        // (`CandidateIDs.id`): made again with the next date.
        let date = LocalClock.compactDate(day + 1)
        func moved(_ type: String, _ routine: String?) -> String { CandidateIDs.id(type: type, routine: routine, date: date) }
        var fires: [CategoryTime] = []
        fires.reserveCapacity(self.fires.count)
        for fire in self.fires {
            guard let at = clock.sameWallTimeNextDay(fire.at) else { return nil }
            fires.append(CategoryTime(category: fire.category, at: at))
        }
        var accepted: [ScheduledNotification] = []
        accepted.reserveCapacity(self.accepted.count)
        for request in self.accepted {
            guard let at = clock.sameWallTimeNextDay(request.scheduledAt) else { return nil }
            accepted.append(request.movedToNextDay(id: moved(request.type, request.routine), at: at))
        }
        var refusals: [SuppressedNotification] = []
        refusals.reserveCapacity(self.refusals.count)
        for refusal in self.refusals {
            guard let at = clock.sameWallTimeNextDay(refusal.fireAt) else { return nil }
            let id = moved(refusal.type, refusal.routine)
            refusals.append(
                SuppressedNotification(id: id, type: refusal.type, routine: refusal.routine, fireAt: at, day: refusal.day + 1, reason: refusal.reason)
            )
        }
        return TomorrowPlan(day: day + 1, fires: fires, accepted: accepted, refusals: refusals, planned: [])
    }
}

/// What a plan was made from, to tell whether the next app run may keep it: a plan is a
/// function of the facts it reads (`RulesetDerived.planReads`), what it reads off the
/// profile (`ProfileDerived.planInputs`), the day's
/// route, skip, deliveries and pending requests, and — through "fires after now" — of the
/// time only when one of its candidates' fire time has come.
struct PlanMemo: Sendable, Equatable {
    var day: Int
    var planInputs: PlanInputs
    var skipped: Bool
    var route: RouteKind
    var reason: String
    var deliveries: Int
    var delivered: Int
    var pending: Int
    /// Whether the plan kept its candidates to be explained (`explains`).
    var explained: Bool
}

/// The request ids of a day's candidates (`<type>.<yyyymmdd>`, by rule index; per-routine
/// types are named when made), kept for today and tomorrow instead of formatted at every plan.
struct CandidateIDs: Sendable {
    var day: Int
    var date: String
    var ids: [String]

    /// A request's id: `<type>.<yyyymmdd>`, or `<type>.<routine>.<yyyymmdd>` for a per-routine
    /// type, with the date of the candidate's day (`LocalClock.compactDate`).
    static func id(type: String, routine: String?, date: String) -> String {
        routine.map { String.joined(String.joined(type, ".", $0), ".", date) } ?? String.joined(type, ".", date)
    }
}

/// The latest notification of a category (see `plan`).
struct CategoryTime {
    var category: String
    var at: Date
}

/// The last plan as a memo (`Memo`): made from `PlanMemo` and the facts the profile's plans
/// read (`ProfileDerived.planReads`), kept with what a later run needs of it.
typealias KeptPlan = Memo<PlanMemo, PlanKept>

/// What a kept plan gives a later run (immutable, behind one reference, as `TomorrowPlan`).
final class PlanKept: Sendable {
    /// The soonest fire time among its candidates: the plan stands until then.
    let nextFire: Date
    /// Its candidates with their gates (explained as seen at a later run that keeps it).
    let planned: [PlannedCandidate]
    /// Today's candidates by fire time and tomorrow's soonest, when a delivery may leave the
    /// plan standing (nil: it may not — a candidate was refused for `max_pending`, or the
    /// plan is explained).
    let fires: KeptFires?

    init(nextFire: Date, planned: [PlannedCandidate], fires: KeptFires? = nil) {
        self.nextFire = nextFire
        self.planned = planned
        self.fires = fires
    }
}

extension Memo where Inputs == PlanMemo, Value == PlanKept {
    /// This plan after iOS delivered its soonest requests, each at its own time: the same
    /// plan without them, kept for what is made now (`memo`) — nil unless every candidate
    /// whose time has come was such a request, delivered since, and nothing else changed.
    /// The gates count a delivery as they counted its request (the daily cap the same total
    /// of the day's deliveries and requests, a category's cooldown the same time), its id is
    /// left out of a new plan as delivered, and the facts plans read are compared by the
    /// caller; a plan with a candidate refused for `max_pending` is not kept (the freed place
    /// would go to it). A new plan made in its place asks iOS for nothing new.
    func afterDeliveries(_ memo: PlanMemo, at time: Date, delivered: [String: ScheduledNotification]) -> KeptPlan? {
        guard let fires = value.fires else { return nil }
        var passed = 0
        while passed < fires.today.count, fires.today[passed].at <= time {
            guard fires.today[passed].delivers, delivered[fires.today[passed].id] != nil else { return nil }
            passed += 1
        }
        guard passed > 0, time < fires.tomorrow, memo.deliveries == inputs.deliveries + passed, memo.delivered == inputs.delivered + passed,
            memo.pending == inputs.pending - passed
        else { return nil }
        var expected = inputs
        (expected.deliveries, expected.delivered, expected.pending) = (memo.deliveries, memo.delivered, memo.pending)
        guard expected == memo else { return nil }
        let rest = KeptFires(today: Array(fires.today[passed...]), tomorrow: fires.tomorrow)
        let nextFire = Swift.min(rest.today.first?.at ?? .distantFuture, rest.tomorrow)
        return replacing(inputs: memo, value: PlanKept(nextFire: nextFire, planned: value.planned, fires: rest))
    }
}

/// A kept plan's candidates by fire time (`KeptPlan.afterDeliveries`): today's in plan order
/// and the soonest of tomorrow's.
struct KeptFires: Sendable {
    var today: [KeptFire]
    var tomorrow: Date
}

/// One of today's candidates of a kept plan: its fire time, its request id and whether iOS
/// was asked to deliver it then (scheduled, not deferred).
struct KeptFire: Sendable {
    var at: Date
    var id: String
    var delivers: Bool
}

/// One candidate of a plan: a notification type (and routine) on a logical day.
struct Candidate: Sendable {
    var box: RuleBox
    var routine: String?
    var day: Int
    /// Fire time, seconds since midnight, and its instant.
    var seconds: Int
    var fireAt: Date
    var facts: FactValues
    var id: String
}
