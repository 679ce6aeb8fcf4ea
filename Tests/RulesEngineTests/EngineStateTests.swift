import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset
import TestSupport
import Testing

@testable import RulesEngine

/// The engine's saved state: JSON round trips, refusal of damaged or newer states,
/// migration, one run as a function, and reconciliation with a changed ruleset.
@Suite struct EngineStateTests {
    static let seoul = LocalClock(identifier: "Asia/Seoul")!
    static let day = DateFormat.days("2026-07-20")!
    static func at(_ hour: Int, _ minute: Int = 0) -> Date { seoul.instant(day: day, seconds: hour * 3600 + minute * 60) }
    static func health(steps: Int, sleep: Int = 420) -> HealthReading {
        HealthReading(stepsPermission: .granted, sleepPermission: .granted, stepsToday: steps, stepsAverage7: 5000, sleepMinutes: sleep)
    }

    /// A morning: the app opened with 5 h 30 m of sleep (light route), water and a tick.
    func morning(_ ruleset: Ruleset = Shipped.ruleset) -> OperatorEngine {
        var profile = OperatorProfile(ruleset: ruleset)
        profile.enabledRoutines.insert("reading")
        var engine = OperatorEngine(ruleset: ruleset, clock: Self.seoul, profile: profile)
        engine.explains = true
        engine.adopt(settings: ["routine_reminder": .bool(true), "reminders": .map(["study": .time(15 * 3600), "reading": .time(16 * 3600)])])
        engine.handle(.appOpened(health: Self.health(steps: 800, sleep: 330)), at: Self.at(8, 10))
        engine.handle(.log(routine: "water", value: 500, unit: nil, source: .manual), at: Self.at(8, 20))
        engine.handle(.log(routine: "reading", value: 20, unit: nil, source: .manual), at: Self.at(8, 30))
        engine.handle(.check(routine: "skincare", item: "양치"), at: Self.at(8, 40))
        return engine
    }

    /// A kept plan explains its candidates as a fresh plan would, with the facts of the run
    /// that kept it: each step is taken once by the engine that lived the day (keeping its
    /// plan while `completion_rate` moves between the constants the plan compares it with)
    /// and once by an engine restored from the state before it (planning afresh).
    @Test func aKeptPlanExplainsItsCandidatesAsAFreshPlan() throws {
        func described(_ engine: OperatorEngine) -> [String] {
            engine.explainer.planExplanations(engine.decisions).keys.sorted().map { key in
                let explanation = engine.explainer.planExplanations(engine.decisions)[key]
                let entries = explanation?.entries.map { "\($0.label) \($0.condition ?? "") \($0.result)" } ?? []
                let facts = explanation?.facts.map { "\($0.name)=\($0.value)" } ?? []
                return "\(key): \(explanation?.outcome ?? "") \(explanation?.note ?? "") \(entries) \(facts)"
            }
        }
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: Self.seoul)
        let steps: [(EngineEvent, Date)] = [
            (.appOpened(health: Self.health(steps: 800, sleep: 420)), Self.at(8, 10)),
            (.log(routine: "water", value: 250, unit: nil, source: .manual), Self.at(9, 0)),
            (.log(routine: "water", value: 1250, unit: nil, source: .manual), Self.at(10, 0)),
            (.check(routine: "skincare", item: "양치"), Self.at(11, 0)),
            (.appOpened(health: Self.health(steps: 3000, sleep: 420)), Self.at(13, 0)),
            (.log(routine: "study", value: 5, unit: nil, source: .manual), Self.at(15, 0)),
            (.appOpened(health: Self.health(steps: 4000, sleep: 420)), Self.at(19, 0)),
        ]
        var rates: [Value] = []
        for (event, time) in steps {
            var fresh = try #require(OperatorEngine(ruleset: Shipped.ruleset, state: engine.state))
            engine.handle(event, at: time)
            fresh.handle(event, at: time)
            #expect(described(engine) == described(fresh), "at \(TimeFormat.clock(Self.seoul.local(time).seconds))")
            if let slot = Shipped.ruleset.schema.fact(named: "completion_rate")?.slot, let facts = engine.currentFacts() { rates.append(facts[slot]) }
        }
        // The rate moved while staying on one side of 0.5 and 0.6 (the plan's constants).
        #expect(Set(rates).count >= 2)
        #expect(rates.allSatisfy { ($0.numeric ?? 1) < 0.5 }, "\(rates)")
    }

    /// An explanation is a function of the saved state, the run and the ruleset: explaining
    /// each run of a morning from the state saved before it gives what the engine that lived
    /// the morning explains — risk, route (the table, then the user's request), the plan's
    /// candidates and the lines.
    @Test func aRunIsExplainedFromTheStateBeforeIt() throws {
        let prepared = PreparedRuleset(Shipped.ruleset)
        var engine = OperatorEngine(prepared: prepared, clock: Self.seoul)
        engine.explains = true
        let steps: [(EngineEvent, Date)] = [
            (.appOpened(health: Self.health(steps: 800, sleep: 330)), Self.at(8, 10)),
            (.log(routine: "water", value: 500, unit: nil, source: .manual), Self.at(9, 0)),
            (.action(.startRecovery), Self.at(10, 0)),
            (.appOpened(health: Self.health(steps: 3000, sleep: 330)), Self.at(13, 0)),
        ]
        var asked = 0
        for (event, time) in steps {
            let before = engine.state
            _ = engine.run([event], now: time)
            for decision in [DecisionID.risk, .route, .notification("evening_underachievement"), .template("home"), .template("widget")] {
                let lived = engine.explanation(of: decision)?.transcript
                let fromState = OperatorEngine.explain(decision, state: before, events: [event], prepared: prepared, now: time)?.transcript
                #expect(lived == fromState, "\(decision.name) at \(TimeFormat.clock(Self.seoul.local(time).seconds))")
                if fromState != nil { asked += 1 }
            }
        }
        #expect(asked >= 15)
        let route = try #require(engine.explanation(of: .route))
        #expect(route.note?.contains("the user asked for it (start_recovery)") == true, "\(route.transcript)")
    }

    /// A run of ignores reaching `after_ignored` (3, passive) weakens the type: tomorrow's
    /// kept plan and today's are made again and its request turns passive, while a shorter
    /// run keeps them. Each step is checked against an engine restored before it (planning
    /// afresh), which fails if a kept plan missed the weakening.
    @Test(arguments: [(1, "active 1.0"), (2, "passive 0.2")])
    func weakeningByIgnoresReplansWhatWasKept(ignoredBefore: Int, tomorrow: String) throws {
        var profile = OperatorProfile(ruleset: Shipped.ruleset)
        profile.ignoredStreaks["morning_checkin"] = ignoredBefore
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: Self.seoul, profile: profile)
        func requests(_ engine: OperatorEngine) -> [String] {
            engine.pending.map { "\($0.id) \($0.interruptionLevel.rawValue) \($0.relevance)" }
        }
        let steps: [(EngineEvent, Date)] = [
            (.appOpened(health: Self.health(steps: 800, sleep: 420)), Self.at(8, 10)),
            (.notificationDelivered(id: "morning_checkin.20260720", staleCondition: false), Self.at(9)),
            (.notificationResponse(id: "morning_checkin.20260720", response: .ignored, health: nil), Self.at(9, 30)),
            (.appOpened(health: Self.health(steps: 1200, sleep: 420)), Self.at(10)),
            (.log(routine: "water", value: 250, unit: nil, source: .manual), Self.at(10, 30)),
        ]
        for (event, time) in steps {
            var fresh = try #require(OperatorEngine(ruleset: Shipped.ruleset, state: engine.state))
            engine.handle(event, at: time)
            fresh.handle(event, at: time)
            #expect(requests(engine) == requests(fresh), "at \(TimeFormat.clock(Self.seoul.local(time).seconds))")
        }
        #expect(engine.profile.ignoredStreaks["morning_checkin"] == ignoredBefore + 1)
        #expect(requests(engine).contains("morning_checkin.20260721 \(tomorrow)"), "\(requests(engine))")
    }

    func encoded(_ state: EngineState) throws -> String { String(decoding: try state.encoded(), as: UTF8.self) }

    @Test func aStateRoundTripsThroughJSONToTheSameValueAndBytes() throws {
        let state = morning().state
        let data = try state.encoded()
        let load = EngineState.decode(data)
        let back = try #require(load.state, "\(load.diagnostics)")
        #expect(back == state)
        #expect(try back.encoded() == data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""format":"operator-engine-state""#))
        #expect(text.contains(#""version":2"#))
        #expect(text.contains(#""ruleset_sha256":"\#(Shipped.ruleset.sha256)""#))
        #expect(!Shipped.ruleset.sha256.isEmpty)
    }

    /// Ticks are counted by the ruleset's own spelling of an item (bytes, not Unicode
    /// equivalence, for speed): a tick sent or saved in another normal form (NFD) is stored
    /// in the ruleset's spelling, so it still counts — and counts once.
    @Test func aTickInAnotherUnicodeFormCountsAsTheItem() throws {
        let slot = try #require(Shipped.ruleset.perRoutineSchema.fact(named: "routines.skincare.value")?.slot)
        func ticked(_ engine: OperatorEngine) -> Value? { engine.currentFacts()?[slot] }
        let decomposed = "세수".decomposedStringWithCanonicalMapping
        #expect(decomposed.utf8.count != "세수".utf8.count)
        var engine = morning()  // 양치 ticked
        #expect(ticked(engine) == .number(1))
        engine.handle(.check(routine: "skincare", item: decomposed), at: Self.at(8, 50))
        #expect(ticked(engine) == .number(2))
        engine.handle(.check(routine: "skincare", item: "세수"), at: Self.at(8, 55))
        #expect(ticked(engine) == .number(2))
        // A saved state holding the item in NFD (another app version wrote it so).
        let text = try encoded(morning().state).replacingOccurrences(of: "양치", with: "양치".decomposedStringWithCanonicalMapping)
        #expect(text.utf8.count > (try encoded(morning().state)).utf8.count)
        let state = try #require(EngineState.decode(Data(text.utf8)).state)
        var restored = try #require(OperatorEngine(ruleset: Shipped.ruleset, state: state))
        restored.handle(.check(routine: "skincare", item: "세수"), at: Self.at(8, 50))
        #expect(ticked(restored) == .number(2))
    }

    /// A routine with two spellings of one item (NFC and NFD, canonically equivalent): a tick
    /// finds the first, as `==` does, whatever bytes the app sent — the byte comparison that
    /// finds an item first is used only where no two items are equivalent.
    /// Whatever the engine does to a state it loaded, its save loads again: a day whose log
    /// numbers reach the loader's bound refuses a new log instead of passing it, and logs merged
    /// past the day's 64 keep a sum of values each at most the bound of one log.
    @Test func everyStateTheEngineSavesLoadsAgain() throws {
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: Self.seoul)
        engine.handle(.appOpened(health: nil), at: Self.at(8))
        for minute in 0..<(InputLimits.maxLogsPerDay + 8) {
            engine.handle(
                .log(routine: "water", value: InputLimits.maxLogValue, unit: nil, source: .manual), at: Self.at(9 + minute / 60, minute % 60))
        }
        let merged = try engine.state.encoded()
        #expect(try #require(String(data: merged, encoding: .utf8)).contains("\"nextLogNumber\":\(InputLimits.maxLogsPerDay + 9)"))
        #expect(EngineState.decode(merged).state != nil, "\(EngineState.decode(merged).diagnostics.map(\.message))")

        // Past 10^9 of one routine in a day, merged logs hold at most 10^9 each and the
        // total stays exact.
        var heavy = OperatorEngine(ruleset: Shipped.ruleset, clock: Self.seoul)
        heavy.handle(.appOpened(health: nil), at: Self.at(8))
        let count = 1_100
        for index in 0..<count {
            heavy.handle(
                .log(routine: "water", value: InputLimits.maxLogValue, unit: nil, source: .manual), at: Self.at(9).addingTimeInterval(Double(index)))
        }
        let saved = try heavy.state.encoded()
        #expect(EngineState.decode(saved).state != nil, "\(EngineState.decode(saved).diagnostics.map(\.message))")
        let object = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        let logs = try #require((object["day"] as? [String: Any])?["logs"] as? [[String: Any]])
        let values = logs.compactMap { $0["value"] as? Double }
        #expect(logs.count <= InputLimits.maxLogsPerDay && values.count == logs.count)
        #expect(values.allSatisfy { $0 <= 1e9 } && values.contains { $0 > InputLimits.maxLogValue })
        #expect(values.reduce(0, +) == Double(count) * InputLimits.maxLogValue)

        // A loaded state whose next log number is the bound.
        let text = try #require(String(data: merged, encoding: .utf8))
        let next = try #require(text.range(of: #""nextLogNumber":\d+"#, options: .regularExpression))
        let atBound = text.replacingCharacters(in: next, with: "\"nextLogNumber\":\(OperatorProfile.maxCount)")
        let state = try #require(EngineState.decode(Data(atBound.utf8)).state)
        var restored = try #require(OperatorEngine(ruleset: Shipped.ruleset, state: state))
        let records = restored.handle(.log(routine: "water", value: 250, unit: nil, source: .manual), at: Self.at(12))
        #expect(records.contains { if case .problem(.outOfRange, _) = $0.kind { true } else { false } })
        let afterBound = try restored.state.encoded()
        #expect(EngineState.decode(afterBound).state != nil, "\(EngineState.decode(afterBound).diagnostics.map(\.message))")
    }

    @Test func aTickFindsTheFirstOfTwoEquivalentItemsWhateverItsBytes() throws {
        var ruleset = Shipped.ruleset
        let index = try #require(ruleset.routines.firstIndex { $0.id == "skincare" })
        let decomposed = "세수".decomposedStringWithCanonicalMapping
        ruleset.routines[index].items = ["세수", decomposed]
        for sent in ["세수", decomposed] {
            var engine = OperatorEngine(ruleset: ruleset, clock: Self.seoul)
            engine.handle(.appOpened(health: nil), at: Self.at(8))
            engine.handle(.check(routine: "skincare", item: sent), at: Self.at(8, 10))
            // Bytes searched (`String.contains` would match either spelling).
            let state = try engine.state.encoded()
            #expect(state.range(of: Data("\"세수\"".utf8)) != nil, "sent \(sent.utf8.count) bytes")
            #expect(state.range(of: Data("\"\(decomposed)\"".utf8)) == nil, "sent \(sent.utf8.count) bytes")
        }
    }

    /// An engine that keeps only decisions (a population's) keeps no snapshot, and still
    /// chooses the lines: a home line that fails to render is the same problem record as on
    /// an engine that keeps everything (which keeps the snapshot).
    @Test func anEngineOfDecisionsKeepsNoSnapshotButReportsItsLines() throws {
        let failing = try Shipped.variant([
            (
                "templates/character.yaml", "when: route != \"recovery\" && risk == \"low\"",
                "when: route != \"recovery\" && risk == \"low\" && 1 / (completed - completed) == 1"
            )
        ])
        func problems(_ kept: RecordsKept) -> ([String], DailySnapshot?) {
            var engine = OperatorEngine(ruleset: failing, clock: Self.seoul)
            engine.recordsKept = kept
            // No sync: nothing completes, so the run's line is the day's default.
            let records = engine.handle(.appOpened(health: nil), at: Self.at(9))
            let messages = records.compactMap { record -> String? in
                if case .problem(.evaluation, let message) = record.kind { return message }
                return nil
            }
            return (messages, engine.snapshot)
        }
        let (all, snapshot) = problems(.all)
        let (decisions, none) = problems(.decisions)
        #expect(all.contains { $0.hasPrefix("templates/character.yaml:") && $0.contains("could not be evaluated") }, "\(all)")
        #expect(decisions == all)
        #expect(snapshot != nil)
        #expect(none == nil)
    }

    @Test func aRestoredEngineGoesOnExactlyAsTheOneThatKeptRunning() throws {
        var kept = morning()
        let restoredState = try #require(EngineState.decode(try kept.state.encoded()).state)
        var restored = try #require(OperatorEngine(ruleset: Shipped.ruleset, state: restoredState))
        for (event, time) in [
            (EngineEvent.log(routine: "study", value: 25, unit: .minutes, source: .timer), Self.at(12)),
            (.appOpened(health: Self.health(steps: 3000, sleep: 330)), Self.at(21, 10)),
            (.log(routine: "water", value: 300, unit: nil, source: .widget), Self.at(21, 20)),
        ] {
            let a = kept.handle(event, at: time).map { "\($0)" }
            let b = restored.handle(event, at: time).map { "\($0)" }
            #expect(a == b)
            #expect(!a.isEmpty)
        }
        #expect(kept.state == restored.state)
    }

    /// A v1 state as the embedding example wrote it (2026-06-29: opened at 08:30, 250 ml
    /// from the widget at 09:10), committed: a change of the format that breaks reading it
    /// must come with a migration.
    @Test func theCommittedVersionOneFixtureStillDecodes() throws {
        let path = Fixtures.directory() + "/state-v1.json"
        let data = try #require(FileManager.default.contents(atPath: path))
        let load = EngineState.decode(data)
        let state = try #require(load.state, "\(load.diagnostics.map(\.message))")
        let day = try #require(DateFormat.days("2026-06-29"))
        #expect(state.currentDay == day)
        #expect(state.snapshot?.waterML == 250)
        #expect(state.pending.count >= 3)
        var engine = try #require(OperatorEngine(ruleset: Shipped.ruleset, state: state))
        let records = engine.handle(.appOpened(health: Self.health(steps: 2000, sleep: 330)), at: Self.seoul.instant(day: day, seconds: 12 * 3600))
        #expect(records.contains { if case .snapshot = $0.kind { true } else { false } })
    }

    @Test func anOlderVersionMigratesStepByStep() throws {
        // Version 2 as written today, read by an engine whose format is version 4: the
        // steps 2→3 and 3→4 run in order on the JSON object.
        var text = try encoded(morning().state)
        text = text.replacingOccurrences(of: #""time_zone""#, with: #""zone""#)
        let migrations = [
            EngineStateMigration(from: 2) { object in
                object["time_zone"] = object.removeValue(forKey: "zone")
            },
            EngineStateMigration(from: 3) { object in
                guard var profile = object["profile"] as? [String: Any] else { return }
                profile["xp"] = 7
                object["profile"] = profile
            },
        ]
        let load = EngineState.decode(Data(text.utf8), migrations: migrations, version: 4)
        let state = try #require(load.state, "\(load.diagnostics.map(\.message))")
        #expect(state.timeZone == "Asia/Seoul")
        #expect(state.profile.xp == 7)
        // Without a step for a version, the state is refused, not guessed at.
        let missing = EngineState.decode(Data(text.utf8), migrations: [], version: 3)
        #expect(missing.state == nil)
        #expect(missing.diagnostics.first?.code == "state.corrupt")
    }

    /// Version 1 saved every setting, defaults included: restored, a value equal to the
    /// ruleset's default counts as never set, so a default changed later reaches the user;
    /// a value the user set away from the default stays theirs.
    @Test func aVersionOneStateKeepsOnlyTheSettingsThatDifferFromTheDefaults() throws {
        let path = Fixtures.directory() + "/state-v1.json"
        var text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        #expect(text.contains(#""version": 1"#) && text.contains(#""calm_directive""#))
        text = text.replacingOccurrences(of: #""calm_directive""#, with: #""cold_persistent""#)
        let state = try #require(EngineState.decode(Data(text.utf8)).state)
        let engine = try #require(OperatorEngine(ruleset: Shipped.ruleset, state: state))
        #expect(engine.state.profile.settings == ["tone": .string("cold_persistent")])
        let flipped = try Shipped.variant([
            (
                "rules/settings.yaml", "morning_checkin:          { type: bool, default: true }",
                "morning_checkin:          { type: bool, default: false }"
            )
        ])
        // The app saves the state its first run under the new engine gives; a later ruleset
        // whose default differs reaches the user.
        let saved = try #require(EngineState.decode(try engine.state.encoded()).state)
        let restored = try #require(OperatorEngine(ruleset: flipped, state: saved))
        #expect(restored.state.profile.value("morning_checkin", in: flipped) == .bool(false))
        #expect(restored.state.profile.value("tone", in: flipped) == .string("cold_persistent"))
    }

    @Test(arguments: [
        ("not json", "state.malformed"),
        (#"[1, 2]"#, "state.malformed"),
        (#"{"format":"operator-rules-bundle","version":1}"#, "state.wrong_format"),
        (#"{"format":"operator-engine-state","version":3}"#, "state.newer_version"),
        (#"{"format":"operator-engine-state","version":"1"}"#, "state.malformed"),
        (#"{"format":"operator-engine-state","version":0}"#, "state.malformed"),
        (#"{"format":"operator-engine-state","version":1}"#, "state.corrupt"),
        (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "state.malformed"),
    ])
    func aDamagedForeignOrNewerStateIsRefused(text: String, code: String) {
        let load = EngineState.decode(Data(text.utf8), file: "state.json")
        #expect(load.state == nil)
        #expect(load.diagnostics.map(\.code.rawValue) == [code])
        #expect(load.diagnostics.first?.file == "state.json")
        #expect(load.diagnostics.first?.hint?.contains("fresh state") == true)
    }

    @Test(arguments: [
        (#""time_zone":"Asia/Seoul""#, #""time_zone":"Mars/Olympus""#),
        (#""value":500"#, #""value":-500"#),
        (#""xp":0"#, #""xp":-3"#),
        (#""nextLogNumber":3"#, #""nextLogNumber":0"#),
        (#""streak_days":0"#, #""streak_days":"many""#),
    ])
    func impossibleValuesAreRefusedNotTrappedOn(old: String, new: String) throws {
        let text = try encoded(morning().state)
        #expect(text.contains(old), "the state lacks \(old)")
        let load = EngineState.decode(Data(text.replacingOccurrences(of: old, with: new).utf8))
        #expect(load.state == nil, "accepted \(new)")
        #expect(load.diagnostics.first?.code == "state.corrupt")
    }

    @Test func aStateOverTheSizeLimitIsRefused() {
        let load = EngineState.decode(Data(repeating: UInt8(ascii: " "), count: InputLimits.maxStateBytes + 1))
        #expect(load.diagnostics.first?.code == "state.malformed")
    }

    @Test func oneRunIsAFunctionOfStateEventRulesetAndTime() throws {
        let fresh = EngineState(ruleset: Shipped.ruleset, clock: Self.seoul)
        let first = OperatorEngine.run(state: fresh, event: .appOpened(health: Self.health(steps: 800)), ruleset: Shipped.ruleset, at: Self.at(8))
        #expect(first.effects.schedule.map(\.id).contains("morning_checkin.20260720"))
        #expect(first.effects.cancel.isEmpty)
        #expect(first.effects.snapshot?.lastUpdatedAt == Self.at(8))
        #expect(first.effects.widget?.route == .regular)
        // The same inputs give the same outputs.
        let again = OperatorEngine.run(state: fresh, event: .appOpened(health: Self.health(steps: 800)), ruleset: Shipped.ruleset, at: Self.at(8))
        #expect(again.state == first.state)
        // Disabling the morning check-in cancels its pending request.
        let second = OperatorEngine.run(
            state: first.state, event: .settings(["morning_checkin": .bool(false)]), ruleset: Shipped.ruleset, at: Self.at(8, 30))
        #expect(second.effects.cancel.map(\.id).contains("morning_checkin.20260720"))
        #expect(second.effects.cancel.first { $0.id == "morning_checkin.20260720" }?.reason == .refused(.disabled))
        #expect(!second.state.pending.contains { $0.type == "morning_checkin" })
        // Only the clock: the evening notice is presumed delivered when nobody reports it.
        let evening = OperatorEngine.run(state: second.state, event: nil, ruleset: Shipped.ruleset, at: Self.at(20, 40))
        #expect(
            evening.effects.records.contains {
                if case .notificationDelivered(let n, _) = $0.kind { n.type == "evening_underachievement" } else { false }
            })
        #expect(!evening.state.pending.contains { $0.type == "evening_underachievement" && $0.day == Self.day })
    }

    @Test func aReportedDeliveryCountsOnceAndAnUnknownOneIsAProblem() throws {
        var engine = OperatorEngine(ruleset: Shipped.ruleset, clock: Self.seoul)
        engine.handle(.appOpened(health: Self.health(steps: 800)), at: Self.at(8))
        let delivered = engine.handle(.notificationDelivered(id: "morning_checkin.20260720", staleCondition: false), at: Self.at(9))
        #expect(delivered.contains { if case .notificationDelivered(let n, false) = $0.kind { n.id == "morning_checkin.20260720" } else { false } })
        #expect(!engine.pending.contains { $0.id == "morning_checkin.20260720" })
        let unknown = engine.handle(.notificationDelivered(id: "nothing.20260720", staleCondition: false), at: Self.at(9, 5))
        #expect(unknown.contains { if case .problem(.unknownRequest, _) = $0.kind { true } else { false } })
        // A response by type names the latest delivery of that type.
        let response = engine.handle(.notificationResponse(id: "morning_checkin", response: .opened, health: nil), at: Self.at(9, 10))
        #expect(
            response.contains { if case .notificationResponse(let id, _, "opened") = $0.kind { id == "morning_checkin.20260720" } else { false } })
    }

    // MARK: reconciliation

    func reconciliations(_ records: [EngineRecord]) -> [String] {
        records.compactMap { record in
            if case .stateReconciled(let change) = record.kind { return "\(change.subject.rawValue) \(change.id) \(change.action.rawValue)" }
            return nil
        }
    }

    /// Restores the morning's state under `ruleset` and runs one app open at 12:00.
    func continueUnder(_ ruleset: Ruleset) throws -> (records: [EngineRecord], state: EngineState) {
        let state = try #require(EngineState.decode(try morning().state.encoded()).state)
        let result = OperatorEngine.run(
            state: state, event: .appOpened(health: Self.health(steps: 2000, sleep: 330)), ruleset: ruleset, at: Self.at(12))
        return (result.effects.records, result.state)
    }

    @Test func theSameRulesetReconcilesNothing() throws {
        let (records, state) = try continueUnder(Shipped.ruleset)
        #expect(reconciliations(records).isEmpty)
        #expect(state.rulesetSHA256 == Shipped.ruleset.sha256)
    }

    @Test func aRenamedRoutineDropsTheOldOnesLogsAndReminders() throws {
        let renamed = try Shipped.variant([("routines/reading.yaml", "id: reading", "id: books")])
        let (records, state) = try continueUnder(renamed)
        let changes = reconciliations(records)
        #expect(changes.contains("ruleset \(renamed.sha256.prefix(12)) adopted"))
        #expect(changes.contains("routine reading dropped"))
        #expect(changes.contains { $0.hasPrefix("log log_20260720_") && $0.hasSuffix("dropped") })
        #expect(!state.profile.enabledRoutines.contains("reading"))
        #expect(state.rulesetSHA256 == renamed.sha256)
        #expect(!state.pending.contains { $0.routine == "reading" })
        // The reading reminder goes; the study reminder stays.
        #expect(state.profile.settings["reminders"] == .map(["study": .time(15 * 3600)]))
        #expect(changes.contains("setting reminders entries_dropped"), "\(changes)")
    }

    /// A value the user set that the new ruleset can no longer hold is dropped with a
    /// record, and the new default applies.
    @Test func aSettingWhoseTypeChangedIsDroppedAndTheDefaultApplies() throws {
        let retyped = try Shipped.variant([
            (
                "rules/settings.yaml", "routine_reminder:         { type: bool, default: false }",
                "routine_reminder:         { type: time, default: \"09:00\" }"
            )
        ])
        let (records, state) = try continueUnder(retyped)
        #expect(reconciliations(records).contains("setting routine_reminder dropped"), "\(reconciliations(records))")
        #expect(state.profile.settings["routine_reminder"] == nil)
        #expect(state.profile.value("routine_reminder", in: retyped) == .time(9 * 3600))
    }

    @Test func aRemovedNotificationTypeCancelsItsPendingRequests() throws {
        let renamed = try Shipped.variant([("rules/notifications.yaml", "id: morning_checkin", "id: morning_hello")])
        let (records, state) = try continueUnder(renamed)
        #expect(reconciliations(records).contains("notification morning_checkin.20260721 cancelled"))
        #expect(
            records.contains {
                if case .notificationCancelled(let n, .removedFromRuleset) = $0.kind { n.id == "morning_checkin.20260721" } else { false }
            })
        #expect(!state.pending.contains { $0.type == "morning_checkin" })
        #expect(state.pending.contains { $0.id == "morning_hello.20260721" })
    }

    @Test func aRenamedTemplateCancelsAndReplansItsRequests() throws {
        let renamed = try Shipped.variant([
            ("templates/notifications.yaml", "id: evening_salvage", "id: evening_salvage_02"),
            ("rules/notifications.yaml", "template: evening_salvage", "template: evening_salvage_02"),
        ])
        let (records, state) = try continueUnder(renamed)
        #expect(reconciliations(records).contains("template evening_underachievement.20260721 cancelled"))
        #expect(state.pending.first { $0.id == "evening_underachievement.20260721" }?.templateID == "evening_salvage_02")
        let effects = Effects(records: records)
        #expect(effects.schedule.contains { $0.id == "evening_underachievement.20260721" })
        #expect(!effects.cancel.contains { $0.id == "evening_underachievement.20260721" })
    }

    @Test func aRouteTheTableNoLongerUsesIsDecidedAfresh() throws {
        let noLight = try Shipped.variant([
            (
                "rules/route.yaml", "  - use: light\n    when: (sleep.minutes ?? 420) < 360\n    reason: short_sleep\n", ""
            )
        ])
        let (records, state) = try continueUnder(noLight)
        #expect(reconciliations(records).contains("route light decided_afresh"))
        #expect(records.contains { if case .routeChanged(nil, .regular, "default") = $0.kind { true } else { false } })
        #expect(state.snapshot?.route == .regular)
    }

    @Test func aRemovedChecklistItemIsDropped() throws {
        let changed = try Shipped.variant([
            ("routines/skincare.yaml", "양치, ", ""),
            ("rules/route.yaml", "    - { routine: skincare, item: 양치 }\n", ""),
        ])
        let (records, _) = try continueUnder(changed)
        #expect(reconciliations(records).contains("item skincare.양치 dropped"))
    }
}
