import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression
import Ruleset

/// HealthKit permissions as last known (before any sync today: from the last sync of any day).
public struct KnownPermissions: Sendable, Hashable, Codable {
    /// Steps permission.
    public var steps: HealthReading.Permission = .notDetermined
    /// Sleep permission.
    public var sleep: HealthReading.Permission = .notDetermined
}

/// Everything of one user that must survive between app runs: iOS ends the app after each
/// run, so the app saves this value and hands it back to the next run.
///
/// It holds today's logs, ticks and route state, the plan the last run scheduled, the
/// requests delivered today, settings and enabled routines, streak, XP, ignore counts, the
/// permissions last seen, and the SHA-256 of the ruleset that wrote it. It encodes as JSON
/// (`encoded()`), `{"format": "operator-engine-state", "version": 2, …}`, keys sorted, so the
/// same state always gives the same bytes. `decode(_:)` migrates older versions and refuses
/// newer, foreign or corrupt ones with a diagnostic (the app then starts a fresh state).
public struct EngineState: Sendable, Equatable {
    /// The `format` field of every saved state.
    public static let format = "operator-engine-state"
    /// The version `encoded()` writes. Version 2: the profile's `settings` hold only what
    /// the user set (version 1 held every setting, defaults included).
    public static let version = 2

    /// SHA-256 of the ruleset that last ran on this state (empty for a ruleset built in code).
    public internal(set) var rulesetSHA256: String
    /// The IANA time zone of the user's clock.
    public internal(set) var timeZone: String
    /// Settings, enabled routines, streak, XP and notification history.
    public internal(set) var profile: OperatorProfile
    var day: DayState?
    var permissions = KnownPermissions()
    /// Requests pending with iOS after the last app run, soonest first.
    public internal(set) var pending: [ScheduledNotification] = []
    /// Candidates the last plan refused, reported when their fire time passes.
    var refused: [SuppressedNotification] = []
    /// Requests delivered on the current day, by id.
    var delivered: [ScheduledNotification] = []

    /// A fresh state: nothing logged, the ruleset's defaults (or `profile`), in `clock`'s zone.
    public init(ruleset: Ruleset, clock: LocalClock, profile: OperatorProfile? = nil) {
        rulesetSHA256 = ruleset.sha256
        timeZone = clock.timeZone.identifier
        self.profile = profile ?? OperatorProfile(ruleset: ruleset)
    }

    /// The clock of the saved time zone (nil for a zone this system does not know).
    public var clock: LocalClock? { LocalClock(identifier: timeZone) }

    /// The current logical day (days since 1970-01-01), nil before the first event.
    public var currentDay: Int? { day?.day }
    /// The snapshot saved at the last app run.
    public var snapshot: DailySnapshot? { day?.lastSnapshot }
}

/// What `EngineState.decode` gives back: the state, or the diagnostic that refused it.
public struct EngineStateLoad: Sendable {
    /// The state, nil when refused.
    public var state: EngineState?
    /// Why it was refused (empty when read).
    public var diagnostics: [Diagnostic]
}

/// One step of the state's migration chain: turns the JSON object of `from` into that of
/// `from + 1`. Steps work on the plain JSON object so that they never need old Swift types.
public struct EngineStateMigration: Sendable {
    /// The version this step reads.
    public var from: Int
    /// Turns the object of version `from` into that of `from + 1`.
    public var migrate: @Sendable (inout [String: Any]) throws -> Void

    /// A step from version `from`.
    public init(from: Int, migrate: @escaping @Sendable (inout [String: Any]) throws -> Void) {
        self.from = from
        self.migrate = migrate
    }
}

extension EngineState: Codable {
    private enum Keys: String, CodingKey {
        case format, version
        case rulesetSHA256 = "ruleset_sha256"
        case timeZone = "time_zone"
        case profile, day, permissions, pending,
            refused, delivered
    }

    /// Writes the state's JSON form (see `encoded()`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Self.format, forKey: .format)
        try container.encode(Self.version, forKey: .version)
        try container.encode(rulesetSHA256, forKey: .rulesetSHA256)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(profile, forKey: .profile)
        try container.encodeIfPresent(day, forKey: .day)
        try container.encode(permissions, forKey: .permissions)
        try container.encode(pending, forKey: .pending)
        try container.encode(refused, forKey: .refused)
        try container.encode(delivered, forKey: .delivered)
    }

    /// Reads the JSON form (see `decode(_:)`, which checks it first).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        rulesetSHA256 = try container.decode(String.self, forKey: .rulesetSHA256)
        timeZone = try container.decode(String.self, forKey: .timeZone)
        profile = try container.decode(OperatorProfile.self, forKey: .profile)
        day = try container.decodeIfPresent(DayState.self, forKey: .day)
        permissions = try container.decode(KnownPermissions.self, forKey: .permissions)
        pending = try container.decode([ScheduledNotification].self, forKey: .pending)
        refused = try container.decode([SuppressedNotification].self, forKey: .refused)
        delivered = try container.decode([ScheduledNotification].self, forKey: .delivered)
    }
}

extension EngineState {
    /// Migration steps, oldest first.
    public static let migrations: [EngineStateMigration] = [
        // Version 1 saved every setting, defaults included, and did not say which the user
        // set: the profile is marked, and the engine it is restored into takes a value equal
        // to its ruleset's default as never set (`OperatorProfile.settingsIncludeDefaults`).
        EngineStateMigration(from: 1) { object in
            guard var profile = object["profile"] as? [String: Any] else { return }
            profile[OperatorProfile.settingsIncludeDefaultsKey] = true
            object["profile"] = profile
        }
    ]

    /// The diagnostic codes of saved states.
    public static let descriptions: [CodeDescription] = [
        CodeDescription(
            code: "state.malformed", severity: .error, summary: "the saved engine state is not readable JSON",
            rationale: "It is not JSON, too large or too deep. The app starts a fresh state."),
        CodeDescription(
            code: "state.wrong_format", severity: .error, summary: "the file is not a saved engine state",
            rationale: "Its `format` is not \(format)."),
        CodeDescription(
            code: "state.newer_version", severity: .error, summary: "a state written by a newer engine",
            rationale: "This engine reads versions up to \(version); a newer state is refused, never guessed at."),
        CodeDescription(
            code: "state.corrupt", severity: .error, summary: "the saved engine state has missing or impossible values",
            rationale: "A field is missing, of the wrong type or out of range, or the time zone is unknown."),
    ]

    /// The state as JSON: keys sorted, dates as seconds since 1970, the same bytes for the
    /// same state in any process. Throws only if a number is not finite (the engine never
    /// stores one).
    /// (`SortedJSONEncoder`: `JSONEncoder`'s bytes with these options in half its time, at
    /// every app run.)
    public func encoded() throws -> Data {
        try SortedJSONEncoder().encode(self)
    }

    /// Reads a saved state: checks size, JSON, format and version, migrates an older
    /// version, decodes and checks every value. Never traps.
    public static func decode(
        _ data: Data, file: String = "state", migrations: [EngineStateMigration] = Self.migrations, version current: Int = Self.version
    )
        -> EngineStateLoad
    {
        func refuse(_ code: DiagnosticCode, _ message: String, hint: String? = nil) -> EngineStateLoad {
            EngineStateLoad(
                state: nil, diagnostics: [Diagnostic(code: code, severity: .error, file: file, location: .fileStart, message: message, hint: hint)])
        }
        let fresh = "the app starts a fresh state"
        guard data.count <= InputLimits.maxStateBytes else {
            return refuse("state.malformed", "the saved state is \(data.count) bytes, over \(InputLimits.maxStateBytes)", hint: fresh)
        }
        let parsed = JSONReader.parse([UInt8](data), file: file, maxBytes: InputLimits.maxStateBytes, maxDepth: InputLimits.maxStateDepth)
        if let problem = parsed.diagnostics.first {
            return refuse("state.malformed", "the saved state is not readable JSON: \(problem.message)", hint: fresh)
        }
        guard let root = parsed.documents.first, root.pairs != nil else {
            return refuse("state.malformed", "the saved state is not a JSON object", hint: fresh)
        }
        guard root["format"]?.scalar == format else {
            return refuse("state.wrong_format", "this is not a saved engine state (format '\(root["format"]?.scalar ?? "missing")')", hint: fresh)
        }
        guard let text = root["version"]?.scalar, root["version"]?.scalarStyle == .plain, let version = Int(text), version >= 1 else {
            return refuse(
                "state.malformed", "the saved state's version '\(root["version"]?.scalar ?? "missing")' is not a positive whole number", hint: fresh)
        }
        guard version <= current else {
            return refuse(
                "state.newer_version", "the saved state has version \(version); this engine reads up to \(current)", hint: "update the app; \(fresh)")
        }
        var tree = root
        if version < current {
            do {
                let migrated = try migrate(data, from: version, to: current, migrations: migrations)
                let reparsed = JSONReader.parse([UInt8](migrated), file: file, maxBytes: .max, maxDepth: InputLimits.maxStateDepth)
                guard reparsed.diagnostics.isEmpty, let node = reparsed.documents.first else { throw MigrationError.notAnObject }
                tree = node
            } catch {
                return refuse("state.corrupt", "the saved state of version \(version) could not be migrated: \(error)", hint: fresh)
            }
        }
        // Decoded from the tree already parsed and checked (never parsed twice).
        let state: EngineState
        do {
            state = try boundedDecoder.decode(EngineState.self, from: tree)
        } catch let error as DecodingError {
            return refuse("state.corrupt", "the saved state is damaged: \(describe(error))", hint: fresh)
        } catch {
            return refuse("state.corrupt", "the saved state is damaged", hint: fresh)
        }
        if let problem = state.problem {
            return refuse("state.corrupt", "the saved state is damaged: \(problem)", hint: fresh)
        }
        return EngineStateLoad(state: state, diagnostics: [])
    }

    /// The decoder of saved states: every date within the days the engine lives (it never
    /// leaves them), every other number within the bounds a rule file's numbers have
    /// (magnitude 10^9), so no sum or product the engine makes of them can overflow.
    static let boundedDecoder = NodeDecoder(
        dateCheck: { seconds in
            InputLimits.engineSeconds.contains(seconds) ? nil : "the date \(seconds) is outside the days the engine lives"
        },
        numberCheck: { number in
            abs(number) <= Double(InputLimits.maxNumber) ? nil : "the number \(Value.formatNumber(number)) is past the bound of 10^9"
        })

    /// Runs the migration steps from `version` up to `current` on the JSON object.
    static func migrate(_ data: Data, from version: Int, to current: Int, migrations: [EngineStateMigration]) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw MigrationError.notAnObject
        }
        var at = version
        while at < current {
            guard let step = migrations.first(where: { $0.from == at }) else { throw MigrationError.noStep(from: at) }
            try step.migrate(&object)
            at += 1
            object["version"] = at
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    enum MigrationError: Error, CustomStringConvertible {
        case notAnObject
        case noStep(from: Int)
        var description: String {
            switch self {
            case .notAnObject: "not a JSON object"
            case .noStep(let from): "no migration from version \(from)"
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return names.isEmpty ? "the top level" : String(names.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context): return "'\(key.stringValue)' is missing at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "unreadable"
        }
    }

    /// The days a state's days lie in: the engine's, with tomorrow's requests planned on the
    /// last one (and a logical day that began the evening before the first).
    static var days: ClosedRange<Int> { (InputLimits.engineDays.lowerBound - 1)...(InputLimits.engineDays.upperBound + 1) }

    /// The first impossible value, if any: values the engine would trap or loop on.
    var problem: String? {
        guard clock != nil else { return "unknown time zone '\(timeZone)'" }
        let dayRange = Self.days
        let bound = OperatorProfile.maxCount
        guard (0...bound).contains(profile.streakDays), (0...bound).contains(profile.xp) else { return "streak or XP out of range" }
        guard profile.ignoredStreaks.values.allSatisfy({ (0...bound).contains($0) }) else { return "an ignore count is out of range" }
        guard profile.weakenedSince.values.allSatisfy(dayRange.contains) else { return "a weakening day is out of range" }
        let requests = pending + delivered
        guard requests.allSatisfy({ $0.scheduledAt.timeIntervalSince1970.isFinite && dayRange.contains($0.day) && $0.relevance.isFinite }),
            refused.allSatisfy({ dayRange.contains($0.day) })
        else { return "a notification request is out of range" }
        if let day {
            guard dayRange.contains(day.day) else { return "day \(day.day) is out of range" }
            // A kept log may be the sum of several merged ones (a day keeps 64 one by one),
            // up to the bound of every number of a state.
            guard day.logs.allSatisfy({ $0.value.isFinite && $0.value >= 0 && $0.value <= DayState.maxMergedLogValue }) else {
                return "a log value is not a number from 0 to 10^9"
            }
            guard day.nextLogNumber >= 1, day.nextLogNumber <= bound else { return "the next log number is out of range" }
            guard day.goalOverrides.values.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return "a goal override is out of range" }
            // HealthKit's values as a sync keeps them (steps 0…10^9, sleep 0…1,440 minutes, times of day).
            if let health = day.health, health != health.bounded { return "a HealthKit value is out of range" }
            if let seconds = day.syncedAt, !(0...86_400).contains(seconds) { return "the sync time is not a time of day" }
            for quest in [day.quest, day.lastSnapshot?.quest].compactMap(\.self) where quest.startSteps < 0 || quest.currentSteps < 0 {
                return "the walking quest's steps are negative"
            }
        }
        return nil
    }
}

extension OperatorProfile: Codable {
    private enum Keys: String, CodingKey {
        case settings
        case enabledRoutines = "enabled_routines"
        case streakDays = "streak_days"
        case xp
        case ignoredStreaks = "ignored_streaks"
        case
            weakenedSince = "weakened_since"
        case settingsIncludeDefaults = "settings_include_defaults"
    }

    /// Writes the profile: the settings the user set, routines sorted, counts.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(settings, forKey: .settings)
        // A set's order changes from process to process: saved sorted.
        try container.encode(enabledRoutines.sorted(), forKey: .enabledRoutines)
        try container.encode(streakDays, forKey: .streakDays)
        try container.encode(xp, forKey: .xp)
        try container.encode(ignoredStreaks, forKey: .ignoredStreaks)
        try container.encode(weakenedSince, forKey: .weakenedSince)
    }

    /// Reads the profile's JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        settings = try container.decode([String: Value].self, forKey: .settings)
        settingsIncludeDefaults = try container.decodeIfPresent(Bool.self, forKey: .settingsIncludeDefaults) ?? false
        enabledRoutines = Set(try container.decode([String].self, forKey: .enabledRoutines))
        streakDays = try container.decode(Int.self, forKey: .streakDays)
        xp = try container.decode(Int.self, forKey: .xp)
        ignoredStreaks = try container.decode([String: Int].self, forKey: .ignoredStreaks)
        weakenedSince = try container.decode([String: Int].self, forKey: .weakenedSince)
    }
}
