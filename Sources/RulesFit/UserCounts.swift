import Foundation
import RulesEngine

/// Sums and counts of one routine's logs or ticks.
package struct RoutineUse: Sendable, Equatable {
    /// Days with at least one, and how many in all.
    package var days = 0
    package var count = 0
    package var value = 0.0
    /// Minutes of the logical day: sum and sum of squares.
    package var minutes = 0.0
    package var minutesSquared = 0.0
    var lastDay = Int.min

    mutating func add(day: Int, minute: Int, value: Double) {
        if day != lastDay {
            days += 1
            lastDay = day
        }
        count += 1
        self.value += value
        minutes += Double(minute)
        minutesSquared += Double(minute) * Double(minute)
    }
}

/// The app opens of one 10-minute bin of the logical day: how many, and their minutes summed.
struct OpenBin: Sendable, Equatable {
    /// Bins 0…144: the logical day's 1,440 minutes and its close.
    static let count = 145
    var bin: Int
    var count: Int
    var minutes: Double
}

extension UserCounts {
    /// Adds opens to `bin`, keeping the bins in order.
    mutating func addOpen(bin: Int, count: Int, minutes: Double) {
        if let index = openBins.firstIndex(where: { $0.bin >= bin }) {
            if openBins[index].bin == bin {
                openBins[index].count += count
                openBins[index].minutes += minutes
            } else {
                openBins.insert(OpenBin(bin: bin, count: count, minutes: minutes), at: index)
            }
        } else {
            openBins.append(OpenBin(bin: bin, count: count, minutes: minutes))
        }
    }
}

/// A delivered or withheld notice waiting for a log or tick within the window: its type, the
/// routine it is about (a per-routine notice; nil: any), until when, and its bin of deliveries.
struct OpenPoint: Sendable, Equatable {
    var type: String
    var routine: String?
    var until: Int
    var delivered: Bool
    var bin: Int
}

/// The trial's decision points of one type for one user: delivered and withheld, and how many
/// of each were followed by a log or tick within the window — per bin of deliveries so far.
package struct UserTrial: Sendable, Equatable {
    /// By bin start (0, 7, 14, 28): (delivered, done, withheld, done).
    package var bins: [Int: [Int]] = [:]

    /// The withheld decision points over every bin.
    var withheldPoints: Int { bins.values.reduce(0) { $0 + $1[2] } }
}

/// Everything `rules population fit` counts of one user while reading (frozen as `UserFeatures`
/// once the user is read): counts and sums, memory independent of how many lines the user has.
package struct UserCounts: Sendable {
    package var days = 0
    var lastDay = Int.min
    var lastMinute = Int.min
    /// App opens (runs the user started) by 10-minute bin of the logical day, only the bins
    /// with opens, in bin order: a user keeps a few of the 145, not all of them.
    var openBins: [OpenBin] = []
    /// Opens by bin (0…144), every bin.
    package var opens: [Int] {
        var all = [Int](repeating: 0, count: OpenBin.count)
        for bin in openBins { all[bin.bin] = bin.count }
        return all
    }
    package var logs: [String: RoutineUse] = [:]
    package var ticks: [String: RoutineUse] = [:]
    package var deliveries = 0
    /// Deliveries the app withheld for a trial.
    package var withheld = 0
    package var opened = 0
    package var ignored = 0
    package var acted = 0
    package var skips = 0
    package var stepsGranted: Bool?
    package var sleepGranted: Bool?
    package var sleep = Moments()
    package var wake = Moments()
    package var steps = Moments()
    /// Deliveries of a type the user saw, and ignored, before switching it off.
    package var ignoredByType: [String: Int] = [:]
    package var switchedOff: Set<String> = []
    /// Route each day ended on (the last route line of the day), by route.
    package var routeDays: [String: Int] = [:]
    /// Days by their result (`day` lines).
    package var resultDays: [String: Int] = [:]
    var dayRoute: String?
    /// The trial, by type.
    package var trial: [String: UserTrial] = [:]
    var deliveredSoFar: [String: Int] = [:]
    var open: [OpenPoint] = []
    var daySteps: (minute: Int, steps: Int)?
    /// Whether the user ran the app at all (what users set is sent at a run).
    package var ran = false
    /// The routines the user keeps (`routine` lines); nil when the app sent none.
    package var enabled: Set<String>?
    /// What the user set before their first delivery: bools (a type's switch by its type, other
    /// bools by key), enum values, and times (by key, a per-routine time as `key.routine`) in
    /// wall minutes at the middle of their 30-minute bucket. Later switches are opt-outs.
    package var setOn: [String: Bool] = [:]
    package var setChoice: [String: String] = [:]
    package var setAt: [String: Int] = [:]
    /// Whether the device stopped showing the app's notices (a `notices` line, off).
    package var noticesOff = false
    /// The deliveries seen while notices were on, and the one after which they went off.
    package var notices = NoticesWatch()
    /// Deliveries by their place in the day (1st, 2nd, 3rd, 4th or later) and how many of each
    /// were ignored: what tires a user shows here.
    package var deliveredByPlace = PlaceCounts(places: 4)
    package var ignoredByPlace = PlaceCounts(places: 4)
    var dayDelivered = 0
    /// When the user last opened or answered a notice (minutes since 1970's first day).
    var lastAnswer: Int?
    /// When the user last opened a notice, until a log or tick in the minute after it makes
    /// that opening the notice's act (counted in `acted`, not `opened`).
    var lastOpened: Int?
    /// Deliveries of each type before the device stopped showing notices.
    package var seenByType: [String: Int] = [:]
    var dayPlaceByType: [String: Int] = [:]

    /// The act window: a log or tick within 45 minutes of a decision point counts as done.
    static let window = 45

    /// Adds `line` when it is not earlier than the user's last one; otherwise adds nothing and
    /// returns where the user's lines had got to (day, minute).
    mutating func add(inOrder line: TelemetryLine, dayStart: Int) -> (day: Int, minute: Int)? {
        if (line.day, line.minute) < (lastDay, lastMinute) { return (lastDay, lastMinute) }
        add(line, dayStart: dayStart)
        return nil
    }

    /// Adds one line (in time order for this user).
    mutating func add(_ line: TelemetryLine, dayStart: Int) {
        if line.day != lastDay {
            closeDay(dayStart: dayStart)
            days += 1
            lastDay = line.day
        }
        lastMinute = line.minute
        let clock = line.day * 1_440 + line.minute
        switch Telemetry.Kind(rawValue: line.kind) {
        case .run?:
            let cause = line.words["cause"]
            if cause == "open" {
                addOpen(bin: Swift.min(OpenBin.count - 1, line.minute / 10), count: 1, minutes: Double(line.minute))
            }
            if cause == "action", line.words["action"] == "skip_today" { skips += 1 }
            if !noticesOff { notices.ranWithNoticesOn() }
            ran = true
        case .log?:
            guard let routine = line.words["routine"] else { return }
            // A log in the minute after a notice was opened or answered is the notice's act
            // (fitted as `acts`), not the user's own habit.
            if !answered(at: clock) {
                logs[routine, default: RoutineUse()].add(day: line.day, minute: line.minute, value: line.numbers["value"] ?? 0)
            }
            actedOnOpening(at: clock)
            resolve(done: clock, routine: routine)
        case .tick?:
            guard let routine = line.words["routine"], line.numbers["checked"] == 1 else { return }
            if !answered(at: clock) { ticks[routine, default: RoutineUse()].add(day: line.day, minute: line.minute, value: 1) }
            actedOnOpening(at: clock)
            resolve(done: clock, routine: routine)
        case .delivery?, .withheld?: decisionPoint(line, at: clock)
        case .response?: response(line, at: clock)
        case .setting?: setting(line)
        case .routine?: if let routine = line.words["routine"] { enabled = (enabled ?? []).union([routine]) }
        case .notices?:
            if line.numbers["on"] == 0 {
                noticesOff = true
                notices.wentOff()
            }
        case .health?: health(line, dayStart: dayStart)
        case .route?: dayRoute = line.words["route"]
        case .day?:
            routeDays[dayRoute ?? "none", default: 0] += 1
            if let result = line.words["result"] { resultDays[result, default: 0] += 1 }
        case nil: break
        }
    }

    /// An answer to a delivery: opened, ignored (by its type and its place in the day) or acted on.
    mutating func response(_ line: TelemetryLine, at clock: Int) {
        if line.words["response"] != "ignored" { lastAnswer = clock }
        if let type = line.words["type"] { notices.answered(type: type) }
        switch line.words["response"] {
        case "opened":
            opened += 1
            lastOpened = clock
        case "ignored":
            ignored += 1
            if let type = line.words["type"], !switchedOff.contains(type) { ignoredByType[type, default: 0] += 1 }
            if let type = line.words["type"], let place = dayPlaceByType[type] { ignoredByPlace[place] += 1 }
        default: acted += 1
        }
    }

    /// A delivery or a withheld one: counted, placed in the day, and waiting for its routine.
    mutating func decisionPoint(_ line: TelemetryLine, at clock: Int) {
        guard let type = line.words["type"] else { return }
        let delivered = line.kind == "delivery"
        if delivered {
            deliveries += 1
            dayDelivered += 1
            let place = Swift.min(dayDelivered, 4) - 1
            deliveredByPlace[place] += 1
            dayPlaceByType[type] = place
            notices.delivered(place: dayDelivered, type: type)
        } else {
            withheld += 1
        }
        expire(before: clock)
        // Once the device shows nothing, a delivery can neither be seen nor acted on: the
        // trial's points stop there.
        guard !noticesOff else { return }
        if delivered { seenByType[type, default: 0] += 1 }
        let point = OpenPoint(
            type: type, routine: line.words["routine"], until: clock + Self.window, delivered: delivered,
            bin: UserCounts.bin(deliveredSoFar[type] ?? 0))
        open.append(point)
        if delivered { deliveredSoFar[type, default: 0] += 1 }
    }

    /// A log or tick in the minute after a notice was opened: the opening was the act.
    mutating func actedOnOpening(at clock: Int) {
        guard let at = lastOpened, clock - at <= 1 else { return }
        opened -= 1
        acted += 1
        lastOpened = nil
    }

    /// Whether a log or tick at `clock` follows a notice opened or answered within a minute.
    func answered(at clock: Int) -> Bool { lastAnswer.map { clock - $0 <= 1 } ?? false }

    /// A settings line: before the first delivery, what the user set; after it, a type
    /// switched off is an opt-out.
    mutating func setting(_ line: TelemetryLine) {
        if deliveries + withheld > 0 {
            if let type = line.words["type"], line.numbers["on"] == 0 { switchedOff.insert(type) }
            return
        }
        guard let key = line.words["type"] ?? line.words["key"] else { return }
        let name = line.words["routine"].map { "\(key).\($0)" } ?? key
        if let on = line.numbers["on"] { setOn[name] = on != 0 }
        if let choice = line.words["choice"] { setChoice[name] = choice }
        if let at = line.numbers["at"], at.isFinite, at >= 0, at < 1_440 { setAt[name] = Int(at) + 15 }
        if line.numbers["set"] == 0, line.words["routine"] == nil { setAt = setAt.filter { $0.key != key && !$0.key.hasPrefix(key + ".") } }
    }

    mutating func health(_ line: TelemetryLine, dayStart: Int) {
        if stepsGranted == nil { stepsGranted = line.words["steps_permission"] == "granted" }
        if sleepGranted == nil { sleepGranted = line.words["sleep_permission"] == "granted" }
        let first = daySteps == nil
        if let sleep = line.numbers["sleep"], first { self.sleep.add(sleep + 15) }
        if let wake = line.numbers["wake"], first { self.wake.add(wake + 15) }
        if let steps = line.numbers["steps"] { daySteps = (line.minute, Int(steps)) } else if first { daySteps = (line.minute, -1) }
    }

    /// The day's last sync of steps read as the day's total: walked evenly from 07:00 to
    /// 23:00, so a sync at 15:00 saw half; syncs before noon say too little and are left out.
    mutating func closeDay(dayStart: Int) {
        expire(before: Int.max)
        if let (minute, steps) = daySteps, steps >= 0 {
            let wall = (minute + dayStart / 60) % 1_440
            if wall >= 23 * 60 {
                self.steps.add(Double(steps) + 250)
            } else if wall >= 12 * 60 {
                self.steps.add((Double(steps) + 250) * 960 / Double(wall - 420))
            }
        }
        daySteps = nil
        dayRoute = nil
        dayDelivered = 0
        dayPlaceByType.removeAll(keepingCapacity: true)
    }

    /// Lets go of what only reading needed (the day's places by type keep their capacity from
    /// day to day); the counts stay as they are.
    mutating func settle() { dayPlaceByType = [:] }

    /// Decision points whose window holds `done` of `routine`: done — a point about one
    /// routine (a per-routine notice) only by that routine, any other by any; those past: not.
    mutating func resolve(done clock: Int, routine: String) {
        expire(before: clock)
        var left: [OpenPoint] = []
        for point in open {
            if point.routine == nil || point.routine == routine { record(point, done: true) } else { left.append(point) }
        }
        open = left
    }

    mutating func expire(before clock: Int) {
        guard !open.isEmpty else { return }
        var left: [OpenPoint] = []
        for point in open { if point.until < clock { record(point, done: false) } else { left.append(point) } }
        open = left
    }

    mutating func record(_ point: OpenPoint, done: Bool) {
        var cell = trial[point.type, default: UserTrial()].bins[point.bin] ?? [0, 0, 0, 0]
        cell[point.delivered ? 0 : 2] += 1
        if done { cell[point.delivered ? 1 : 3] += 1 }
        trial[point.type, default: UserTrial()].bins[point.bin] = cell
    }

    static func bin(_ k: Int) -> Int { [0, 7, 14, 28].last { k >= $0 } ?? 0 }

}
