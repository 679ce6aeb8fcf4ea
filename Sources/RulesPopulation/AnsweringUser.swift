import Foundation
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// One synthetic user answering the operator through a run: the response model (open,
/// ignore, act, tire, opt out) over the user's draws, and how each delivery changes the user
/// (deliveries of each type, of the day, types switched off, notices off at the system level).
/// Every draw comes from the user's own stream keyed by the request id and the decision
/// (`Salt`), so a change to one notice reshuffles nothing else and two rulesets are compared
/// on the same people. A user whose group has no behaviour keys, in a run that randomises
/// nothing, answers exactly as before: opened or ignored from the same draw.
final class AnsweringUser {
    let user: SyntheticUser
    let behaviour: Behaviour
    /// The trial's chance to withhold a due delivery at the device.
    let randomize: Double
    let ruleset: Ruleset
    /// What the run saw of the user's answers, for the tally.
    var seen = AnswersSeen()
    /// The deliveries the trial withheld, for the user's telemetry.
    var withheld: [Telemetry.Withheld] = []
    /// Routines a user logs by hand (an act can do them), and the recovery items' routines:
    /// worked out once, not at every delivery.
    private let loggable: Set<String>
    private let recoveryRoutines: [String]
    /// The notice types a user may switch off in the app (a rule whose setting is a bool),
    /// worked out once when the group opts out of types: the rule was searched for (and
    /// copied) at every ignored delivery.
    private let optOutable: Set<String>
    private var day = Int.min
    private var dayDeliveries = 0
    private var systemOff = false
    /// When the user switched every notice off at the system level (for the telemetry's
    /// `notices` line at their next app run).
    private(set) var systemOffAt: Date?

    /// The decision each stream is for.
    enum Salt: UInt64 {
        case withhold = 0x5749_5448
        case fatigue = 0x4641_5449
        case act = 0x4143_5453
        case delay = 0x4445_4c41
        case target = 0x5441_5247
        case optOutType = 0x4f50_5454
        case optOutAll = 0x4f50_5441
    }

    init(_ user: SyntheticUser, behaviour: Behaviour, randomize: Double, ruleset: Ruleset) {
        self.user = user
        self.behaviour = behaviour
        self.randomize = randomize
        self.ruleset = ruleset
        loggable = Set(ruleset.routines.filter { $0.source != .healthkit }.map(\.id))
        recoveryRoutines = Array(Set((ruleset.recovery?.items ?? []).map(\.routine))).sorted()
        optOutable =
            behaviour.optOutType > 0
            ? Set(ruleset.notifications.map(\.id).filter { ruleset.settings.declaration($0)?.type == .bool }) : []
    }

    /// A closed day: its completions, and those an act of the day was for.
    func closed(_ close: DayClose) { closes.append(close) }
    private var closes: [DayClose] = []

    /// The user's answers as a tally (the run is over).
    func tally() -> AnswersTally {
        seen.finish()
        var tally = AnswersTally()
        tally.add(seen)
        for close in closes { tally.count(close, nudged: seen.nudged) }
        return tally
    }

    /// The hash of the request id being answered, worked out once per delivery.
    private var requestKey: UInt64 = 0

    func stream(_ salt: Salt, _ request: ScheduledNotification) -> SplitMix64 {
        SplitMix64(mixing: user.responseKey &+ salt.rawValue, requestKey)
    }

    /// The user's answers to a delivery (the `Responder` of their run).
    func answer(_ request: ScheduledNotification, _ engine: OperatorEngine) -> [Answer] {
        requestKey = SplitMix64.fnv1a(request.id)
        if behaviour.isEmpty, randomize == 0 { return user.response(key: requestKey).map { [Answer(delay: $0.delay, .response($0.response))] } ?? [] }
        // Notices off at the system level: the device shows nothing, the engine is not told.
        guard !systemOff else {
            seen.unshown[request.type, default: 0] += 1
            return []
        }
        // The notice's rule (a search that copies it) is looked up only where read: an act's button.
        let act = behaviour.act(type: request.type, category: request.category)
        // The target is worked out only when something needs it: the trial, or an act.
        var target: String??
        func targeted() -> String? {
            if let known = target { return known }
            let found = self.target(request, act: act, engine)
            target = .some(found)
            return found
        }
        if randomize > 0 {
            var withhold = stream(.withhold, request)
            let held = withhold.uniform() < randomize
            seen.decision(request, target: targeted(), delivered: !held, deliveriesBefore: seen.delivered[request.type] ?? 0, within: act?.within)
            if held {
                withheld.append(Telemetry.Withheld(at: request.scheduledAt, type: request.type))
                return []
            }
        }
        let before = counted(request)
        var answers: [Answer] = []
        // A tired user ignores; else the group's own answer, from the same draw as ever.
        var tired = stream(.fatigue, request)
        let response: (delay: Int, response: NotificationResponse)? =
            tired.uniform() < behaviour.fatigue(dayDeliveries) ? (3_600, .ignored) : user.response(key: requestKey)
        if response?.response == .ignored {
            if behaviour.optOutType > 0, optOutable.contains(request.type) {
                var draw = stream(.optOutType, request)
                if draw.uniform() < behaviour.optOutType {
                    seen.optedOutTypes.insert(request.type)
                    answers.append(Answer(delay: 3_660, .settings([request.type: .bool(false)])))
                }
            }
        } else if let act, acts(act, deliveriesBefore: before, request), let target = targeted() {
            // Doing it is the answer: it opens the notice (or presses its button) itself.
            seen.acted[request.type, default: 0] += 1
            seen.nudged.insert(DayRoutine(day: request.day, routine: target))
            systemOptOut(request)
            return doing(target, request: request, rule: ruleset.notification(request.type), within: act.within)
        }
        // The group's answer, before a type switched off after it (an ignore still counts).
        if let response { answers.insert(Answer(delay: response.delay, .response(response.response)), at: 0) }
        systemOptOut(request)
        return answers
    }

    /// Counts a delivery the user sees, of its type and of its day; returns the type's
    /// deliveries before it (the ones seen: one count, updated in place).
    private func counted(_ request: ScheduledNotification) -> Int {
        if request.day != day {
            day = request.day
            dayDeliveries = 0
        }
        dayDeliveries += 1
        guard let index = seen.delivered.index(forKey: request.type) else {
            seen.delivered[request.type] = 1
            return 0
        }
        let before = seen.delivered.values[index]
        seen.delivered.values[index] = before + 1
        return before
    }

    /// Every notice switched off at the system level after this delivery, per delivery above
    /// `opt_out.above` that day: the device shows nothing more (the engine is not told).
    private func systemOptOut(_ request: ScheduledNotification) {
        if behaviour.optOutAll > 0, dayDeliveries > behaviour.optOutAbove {
            var draw = stream(.optOutAll, request)
            if draw.uniform() < behaviour.optOutAll {
                systemOff = true
                systemOffAt = request.scheduledAt
                seen.optedOutAll = true
            }
        }
    }

    /// Whether this delivery makes the user act: `p`, worn off by the type's deliveries so far.
    private func acts(_ act: Behaviour.Act, deliveriesBefore k: Int, _ request: ScheduledNotification) -> Bool {
        var draw = stream(.act, request)
        return draw.uniform() < behaviour.wornOff(act.p, deliveries: k)
    }

    /// What the notice asks for: its routine (a per-routine notice), one of `does`, one of the
    /// recovery items (the recovery notice), else one of the user's routines still open — drawn
    /// by the group's own log weights. Nil when nothing is left to do.
    func target(_ request: ScheduledNotification, act: Behaviour.Act?, _ engine: OperatorEngine) -> String? {
        if let routine = request.routine { return routine }
        let statuses = engine.statuses()
        func open(_ id: String) -> Bool { loggable.contains(id) && statuses[id] != nil && statuses[id] != .completed }
        var candidates: [String]
        if let does = act?.does {
            candidates = does.filter(open)
        } else if request.category == "recovery", !recoveryRoutines.isEmpty {
            candidates = recoveryRoutines.filter(open)
        } else {
            candidates = statuses.keys.sorted().filter(open)
        }
        guard !candidates.isEmpty else { return nil }
        let weights = candidates.map { user.logWeights[$0] ?? 0 }
        let total = weights.reduce(0, +)
        var draw = stream(.target, request)
        let point = draw.uniform() * (total > 0 ? total : Double(candidates.count))
        var cumulative = 0.0
        for (index, candidate) in candidates.enumerated() {
            cumulative += total > 0 ? weights[index] : 1
            if point < cumulative { return candidate }
        }
        return candidates[candidates.count - 1]
    }

    /// Doing the routine: through the notice's button when it has one for it, else by opening
    /// the app and logging the group's value (a checklist: every item ticked).
    private func doing(_ id: String, request: ScheduledNotification, rule: NotificationRule?, within: Int) -> [Answer] {
        var delay = stream(.delay, request)
        let at = 60 * (1 + Int(delay.uniform() * Double(Swift.max(1, within / 60 - 1))))
        guard let routine = ruleset.routine(id) else { return [] }
        let buttons: [(NotificationAction, String)] = [(.logWater250, "water"), (.completeSupplement, "supplement"), (.completeSkincare, "skincare")]
        if let button = buttons.first(where: { rule?.actions.contains($0.0) == true && routine.category.rawValue == $0.1 }) {
            return [Answer(delay: at, .response(.action(button.0)))]
        }
        var answers = [Answer(delay: at, .response(.opened))]
        if routine.items.isEmpty {
            let value = user.logValues[id] ?? routine.quickLog.first ?? (routine.unit == .check ? 1 : routine.goal)
            answers.append(Answer(delay: at + 60, .log(routine: id, value: value)))
        } else {
            answers += routine.items.map { Answer(delay: at + 60, .check(routine: id, item: $0)) }
        }
        return answers
    }
}

extension SyntheticUser {
    /// How this user answers a run's deliveries (a fresh answering state for each run).
    package func responder(ruleset: Ruleset, randomize: Double = 0) -> Responder {
        AnsweringUser(self, behaviour: behaviour, randomize: randomize, ruleset: ruleset).answer
    }
}

/// A routine on a logical day.
struct DayRoutine: Hashable, Sendable {
    var day: Int
    var routine: String
}
