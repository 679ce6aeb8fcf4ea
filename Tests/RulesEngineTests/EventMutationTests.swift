import Foundation
import RulesExpression
import Ruleset
import TestSupport
import Testing

@testable import RulesEngine

/// Events are input too: the app passes whatever its user, widget, HealthKit or model gave
/// it. Each event below carries hostile values (non-finite, negative or huge numbers,
/// unknown ids, values of the wrong type for every setting); after it the day goes on — an
/// evening run, the next morning — without trapping, and the state the engine then saves is
/// one its own decoder accepts (else the app would lose it at the next launch).
@Suite struct EventMutationTests {
    static let numbers: [Double] = [.nan, .infinity, -.infinity, -1, 0, 1e300, 1_000_001, .leastNonzeroMagnitude, -0.0, 9.3e18]
    static let ints = [Int.max, Int.min, -1, 0, 86_400, 1_000_000_001]
    static let settingValues: [Value] = [
        .bool(true), .int(.max), .int(.min), .number(.nan), .number(.infinity), .duration(.max), .duration(.min), .time(.max), .time(-1),
        .time(86_400), .date(.max), .string(""), .string(String(repeating: "가", count: 10_000)), .list(Array(repeating: .int(1), count: 10_000)),
        .map(["water": .time(.max), "nope": .bool(true)]), .map(["water": .string("x")]), .unknown,
    ]

    static var hostileEvents: [EngineEvent] {
        var events: [EngineEvent] = []
        for routine in ["water", "study", "skincare", "steps", "", "nope"] {
            for value in numbers {
                for unit in [RoutineUnit?.none] + RoutineUnit.allCases.map(Optional.init) {
                    events.append(.log(routine: routine, value: value, unit: unit, source: .manual))
                }
            }
            for item in ["양치", "", "nope", String(repeating: "x", count: 10_000)] {
                events.append(.check(routine: routine, item: item))
                events.append(.uncheck(routine: routine, item: item))
            }
        }
        for id in ["log_20260720_001", "log_20260720_999999999999999999999", "", "nope"] {
            for value in numbers { events.append(.editLog(id: id, value: value)) }
            events.append(.deleteLog(id: id))
        }
        for name in ["morning_checkin", "bedtime", "tone", "reminders", "day_starts_at", "routine_reminder", "nope"] {
            for value in settingValues { events.append(.settings([name: value])) }
        }
        for int in ints {
            events.append(
                .appOpened(
                    health: HealthReading(
                        stepsPermission: .granted, sleepPermission: .granted, stepsToday: int, stepsYesterday: int,
                        stepsAverage7: int, sleepMinutes: int, sleepStart: int, sleepEnd: int)))
        }
        for id in ["", "nope", "morning_checkin.20260720", "evening_underachievement.20260720"] {
            for response in [NotificationResponse.opened, .ignored] + NotificationAction.allCases.map(NotificationResponse.action) {
                events.append(.notificationResponse(id: id, response: response, health: nil))
            }
            events.append(.notificationDelivered(id: id, staleCondition: true))
        }
        for text in [
            "", "{", "null", #"{"name":"log_habit","arguments":{"routine":"water","value":1e308}}"#,
            #"{"name":"log_habit","arguments":{"routine":"water","value":-1e308}}"#, String(repeating: "[", count: 10_000),
        ] {
            events.append(.toolCall(text))
        }
        events += WidgetIntent.allCases.map(EngineEvent.widget) + RouteAction.allCases.map(EngineEvent.action)
        return events
    }

    @Test func everyHostileEventLeavesADayThatGoesOnAndAStateThatReadsBack() throws {
        let events = Self.hostileEvents
        #expect(events.count > 500)
        for event in events {
            var engine = EngineStateTests().morning()
            engine.handle(event, at: EngineStateTests.at(12))
            engine.handle(event, at: EngineStateTests.at(12, 1))
            engine.handle(.appOpened(health: EngineStateTests.health(steps: 3000, sleep: 330)), at: EngineStateTests.at(21, 10))
            let tomorrow = EngineStateTests.seoul.instant(day: EngineStateTests.day + 1, seconds: 8 * 3600)
            engine.handle(.appOpened(health: nil), at: tomorrow)
            let saved = try engine.state.encoded()
            let load = EngineState.decode(saved)
            #expect(load.state != nil, "after \(event): \(load.diagnostics.map(\.message))")
        }
    }

    /// A setting value past what a rule file may say is refused with a problem and not
    /// stored; from the host's profile it reads as the default.
    @Test func settingValuesOutOfBoundsAreRefusedAndNeverStored() {
        let refused: [(String, Value)] = [
            ("day_starts_at", .time(.max)), ("day_starts_at", .time(-1)), ("bedtime", .time(90_000)),
            ("reminders", .map(["water": .time(.max)])), ("reminders", .map(["nope": .time(3600)])), ("reminders", .map(["water": .string("x")])),
            ("tone", .string("shouting")),
        ]
        for (key, value) in refused {
            var engine = EngineStateTests().morning()
            let before = engine.state.profile.settings
            let records = engine.handle(.settings([key: value]), at: EngineStateTests.at(12))
            let codes = records.compactMap { record -> String? in if case .problem(let code, _) = record.kind { code.rawValue } else { nil } }
            #expect(codes == ["event.invalid_setting"], "\(key): \(value)")
            #expect(engine.state.profile.settings == before)
            engine.adopt(settings: [key: value])
            #expect(engine.state.profile.settings == before)
        }
        let ruleset = Shipped.ruleset
        var profile = OperatorProfile(ruleset: ruleset)
        profile.settings["day_starts_at"] = .time(.max)
        profile.settings["reminders"] = .map(["water": .time(-5)])
        let engine = OperatorEngine(ruleset: ruleset, clock: EngineStateTests.seoul, profile: profile)
        // The value out of bounds is dropped (the default applies); the map keeps what fits.
        #expect(engine.state.profile.settings == ["reminders": .map([:])])
        #expect(engine.state.profile.value("day_starts_at", in: ruleset) == .time(4 * 3600))
        // In bounds, the same kinds of values are taken.
        var taking = EngineStateTests().morning()
        let records = taking.handle(
            .settings(["day_starts_at": .time(5 * 3600), "reminders": .map(["water": .time(86_400)])]), at: EngineStateTests.at(12))
        #expect(records.allSatisfy { if case .problem = $0.kind { false } else { true } })
        #expect(taking.state.profile.settings["day_starts_at"] == .time(5 * 3600))
    }

    /// The host's profile at its extremes (counts and days of any size) lives a day, closes
    /// it and saves a state that reads back.
    @Test(arguments: [Int.max, Int.min, -1, 1_000_000_000_001])
    func aHostProfileAtItsExtremesLivesOn(extreme: Int) throws {
        let ruleset = Shipped.ruleset
        var profile = OperatorProfile(ruleset: ruleset)
        profile.streakDays = extreme
        profile.xp = extreme
        for rule in ruleset.notifications {
            profile.ignoredStreaks[rule.id] = extreme
            profile.weakenedSince[rule.id] = extreme
        }
        var engine = OperatorEngine(ruleset: ruleset, clock: EngineStateTests.seoul, profile: profile)
        engine.handle(.appOpened(health: EngineStateTests.health(steps: 9000)), at: EngineStateTests.at(8))
        engine.handle(.notificationResponse(id: "morning_checkin.20260720", response: .ignored, health: nil), at: EngineStateTests.at(9))
        engine.handle(.appOpened(health: EngineStateTests.health(steps: 9000)), at: EngineStateTests.at(21))
        for day in 1...3 {
            engine.handle(.appOpened(health: nil), at: EngineStateTests.seoul.instant(day: EngineStateTests.day + day, seconds: 9 * 3600))
        }
        let load = EngineState.decode(try engine.state.encoded())
        #expect(load.state != nil, "\(load.diagnostics.map(\.message))")
    }
}
