import Foundation
import RulesDiagnostics
import RulesDocument
import RulesPopulation

/// One user's features as a row of a features file (JSON lines): every per-user quantity the
/// fit reads once the user's lines are read, and nothing else. A warehouse query computes the
/// same rows from the telemetry (`fit --features`); `fit --features-out` writes them from the
/// lines, the reference the queries are checked against. Counts are whole numbers; sums of
/// minutes and values are numbers written so they read back exactly.
///
/// Keys (every one present, no other): `features` (the format's version, 1), `user`,
/// `ruleset`, `first_day`, `last_day` (days since 1970-01-01 of the user's first and last line),
/// `days` (days with a line), `opens` and `open_minutes` (by 10-minute bin of the logical day,
/// `"0"`…`"144"`: app opens and the sum of their minutes), `logs` and `ticks` (by routine:
/// `[days, count, value, minutes, minutes²]`), `deliveries`, `withheld`, `opened`, `ignored`,
/// `acted`, `skips`, `steps_granted`, `sleep_granted` (true, false or null: no health line),
/// `sleep`, `wake`, `steps` (`[n, sum, sum of squares]`), `ignored_by_type`, `switched_off`,
/// `route_days`, `result_days`, `trial` (by type, by bin of deliveries so far:
/// `[delivered, done, withheld, done]`), `ran`, `enabled` (null: no `routine` line), `set_on`,
/// `set_choice`, `set_at`, `notices_off`, `notices_off_after` (null: never off),
/// `exposures` (deliveries seen while notices were on, by place in the day, 1st…5th+),
/// `delivered_by_place`, `ignored_by_place` (1st…4th+), `seen_by_type`, `unknown_kinds`.
package enum FeaturesRow {
    /// The version of the features format this build reads and writes.
    package static let version = 1

    package static let keys = [
        "features", "user", "ruleset", "first_day", "last_day", "days", "opens", "open_minutes", "logs", "ticks", "deliveries", "withheld",
        "opened", "ignored", "acted", "skips", "steps_granted", "sleep_granted", "sleep", "wake", "steps", "ignored_by_type", "switched_off",
        "route_days", "result_days", "trial", "ran", "enabled", "set_on", "set_choice", "set_at", "notices_off", "notices_off_after",
        "exposures", "delivered_by_place", "ignored_by_place", "seen_by_type", "unknown_kinds",
    ]

    /// Each key's place in `keys`.
    static let position = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($0.element, $0.offset) })

    /// A row's values by column (a place in `keys`).
    struct Columns {
        var values: [RowJSON?]
        subscript(key: String) -> RowJSON? { position[key].flatMap { values[$0] } }
    }

    /// What a row says of one user besides the features themselves.
    package struct Identity: Sendable, Equatable {
        package var user: String
        package var ruleset: String
        package var firstDay: Int
        package var lastDay: Int
        package var unknownKinds: [String: Int]
    }

    /// The row of `user`, one line of compact JSON.
    package static func line(_ identity: Identity, _ user: UserFeatures) -> String {
        func counts(_ values: [String: Int]) -> JSONValue { .object(values.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }) }
        func numbers(_ values: [Double]) -> JSONValue { .array(values.map(JSONValue.number)) }
        func uses(_ values: [String: RoutineUse]) -> JSONValue {
            .object(
                values.sorted { $0.key < $1.key }.map {
                    ($0.key, numbers([Double($0.value.days), Double($0.value.count), $0.value.value, $0.value.minutes, $0.value.minutesSquared]))
                })
        }
        func optional(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }
        let trial: JSONValue = .object(
            user.trial.sorted { $0.key < $1.key }.map { type, cells in
                (type, .object(cells.bins.sorted { $0.key < $1.key }.map { (String($0.key), .array($0.value.map(JSONValue.int))) }))
            })
        let opens = JSONValue.object(user.openBins.map { (String($0.bin), .int($0.count)) })
        let openMinutes = JSONValue.object(user.openBins.map { (String($0.bin), .number($0.minutes)) })
        let fields: [(String, JSONValue)] = [
            ("features", .int(version)), ("user", .string(identity.user)), ("ruleset", .string(identity.ruleset)),
            ("first_day", .int(identity.firstDay)), ("last_day", .int(identity.lastDay)), ("days", .int(user.days)),
            ("opens", opens), ("open_minutes", openMinutes), ("logs", uses(user.logs)), ("ticks", uses(user.ticks)),
            ("deliveries", .int(user.deliveries)), ("withheld", .int(user.withheld)), ("opened", .int(user.opened)),
            ("ignored", .int(user.ignored)), ("acted", .int(user.acted)), ("skips", .int(user.skips)),
            ("steps_granted", optional(user.stepsGranted)), ("sleep_granted", optional(user.sleepGranted)),
            ("sleep", numbers(user.sleep.values)), ("wake", numbers(user.wake.values)), ("steps", numbers(user.steps.values)),
            ("ignored_by_type", counts(user.ignoredByType)), ("switched_off", .array(user.switchedOff.sorted().map(JSONValue.string))),
            ("route_days", counts(user.routeDays)), ("result_days", counts(user.resultDays)), ("trial", trial), ("ran", .bool(user.ran)),
            ("enabled", user.enabled.map { .array($0.sorted().map(JSONValue.string)) } ?? .null),
            ("set_on", .object(user.setOn.sorted { $0.key < $1.key }.map { ($0.key, .bool($0.value)) })),
            ("set_choice", .object(user.setChoice.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("set_at", counts(user.setAt)), ("notices_off", .bool(user.noticesOff)),
            ("notices_off_after", user.notices.offAfter.map(JSONValue.int) ?? .null),
            ("exposures", .array(user.notices.exposures.map(JSONValue.int))),
            ("delivered_by_place", .array(user.deliveredByPlace.map(JSONValue.int))),
            ("ignored_by_place", .array(user.ignoredByPlace.map(JSONValue.int))), ("seen_by_type", counts(user.seenByType)),
            ("unknown_kinds", counts(identity.unknownKinds)),
        ]
        return JSONValue.object(fields).rendered()
    }

    /// A row read back; the failure says what is wrong (the caller adds file and line).
    package static func read(_ bytes: ArraySlice<UInt8>) -> Result<(Identity, UserFeatures), FeaturesFailure> {
        guard let row = RowJSON.parse(bytes), let pairs = row.pairs else {
            return .failure(FeaturesFailure("not a JSON object (a features file holds one object a line)"))
        }
        // Columns by their place in `keys`: a row as this build writes it has them in that order.
        var fields = Columns(values: Array(repeating: nil, count: keys.count))
        var extra: [String] = []
        for (index, pair) in pairs.enumerated() {
            if index < keys.count, keys[index] == pair.key {
                fields.values[index] = pair.value
            } else if let place = position[pair.key] {
                fields.values[place] = pair.value
            } else {
                extra.append(pair.key)
            }
        }
        let missing = keys.indices.filter { fields.values[$0] == nil }.map { keys[$0] }
        if !missing.isEmpty { return .failure(FeaturesFailure("missing columns: \(missing.joined(separator: ", "))")) }
        if !extra.isEmpty { return .failure(FeaturesFailure("columns the features format does not have: \(extra.sorted().joined(separator: ", "))")) }
        var reader = FieldReader(fields: fields)
        do {
            return .success(try reader.row())
        } catch {
            return .failure(error)
        }
    }
}

/// What is wrong with a row of a features file.
package struct FeaturesFailure: Error, Sendable, Equatable {
    package var message: String
    init(_ message: String) { self.message = message }
}

/// Reads the fields of one row, refusing anything not of its column's shape.
private struct FieldReader {
    let fields: FeaturesRow.Columns

    func fail(_ key: String, _ expected: String) -> FeaturesFailure { FeaturesFailure("'\(key)' is not \(expected)") }

    func int(_ key: String, in node: RowJSON? = nil) throws(FeaturesFailure) -> Int {
        // A whole number, or text holding one (engines may quote 64-bit integers).
        let value: Int?
        switch node ?? fields[key] {
        case .number(_, let whole)?: value = whole
        case .text(let text)?: value = Int(text)
        default: value = nil
        }
        guard let value, value >= 0, value <= InputLimits.maxNumber else {
            throw fail(key, "a whole number from 0")
        }
        return value
    }

    func day(_ key: String) throws(FeaturesFailure) -> Int {
        let value = try int(key)
        guard InputLimits.simulatedDays.contains(value) else { throw fail(key, "a day the engine lives") }
        return value
    }

    func number(_ key: String, _ node: RowJSON) throws(FeaturesFailure) -> Double {
        guard case .number(let value, _) = node, value.isFinite, abs(value) <= 1e300 else { throw fail(key, "made of finite numbers") }
        return value
    }

    func text(_ key: String, _ node: RowJSON?) throws(FeaturesFailure) -> String {
        guard let node, node.isQuoted, let value = node.scalar, !value.isEmpty, value.count <= 200 else {
            throw fail(key, "text")
        }
        return value
    }

    /// A key of an object in a column: text, as a value would be.
    func text(_ key: String, _ name: String) throws(FeaturesFailure) -> String {
        guard !name.isEmpty, name.count <= 200 else { throw fail(key, "text") }
        return name
    }

    func bool(_ key: String) throws(FeaturesFailure) -> Bool? {
        guard let node = fields[key], !node.isNull else { return nil }
        guard case .bool(let value) = node else { throw fail(key, "true, false or null") }
        return value
    }

    func pairs(_ key: String) throws(FeaturesFailure) -> [RowJSON.Pair] {
        guard let pairs = fields[key]?.pairs else { throw fail(key, "an object") }
        return pairs
    }

    func counts(_ key: String) throws(FeaturesFailure) -> [String: Int] {
        let pairs = try pairs(key)
        var out: [String: Int] = .init(minimumCapacity: pairs.count)
        for pair in pairs { out[try text(key, pair.key)] = try int(key, in: pair.value) }
        return out
    }

    func numbers(_ key: String, _ node: RowJSON?, count: Int) throws(FeaturesFailure) -> [Double] {
        guard let items = node?.items, items.count == count else { throw fail(key, "a list of \(count) numbers") }
        var out: [Double] = []
        for item in items { out.append(try number(key, item)) }
        return out
    }

    /// `[n, sum, sum of squares]` of n values: n a whole number, squares not below 0, and
    /// nothing summed of no values.
    func moments(_ key: String) throws(FeaturesFailure) -> Moments {
        let values = try numbers(key, fields[key], count: 3)
        guard let n = Int(exactly: values[0]), n >= 0, values[2] >= 0, n > 0 || (values[1] == 0 && values[2] == 0) else {
            throw fail(key, "[n, sum, sum of squares] of n values")
        }
        return Moments(values)
    }

    func ints(_ key: String, count: Int) throws(FeaturesFailure) -> [Int] {
        guard let items = fields[key]?.items, items.count == count else { throw fail(key, "a list of \(count) whole numbers") }
        var out: [Int] = []
        for item in items { out.append(try int(key, in: item)) }
        return out
    }

    func texts(_ key: String) throws(FeaturesFailure) -> [String]? {
        guard let node = fields[key], !node.isNull else { return nil }
        guard let items = node.items else { throw fail(key, "a list of text") }
        var out: [String] = []
        for item in items { out.append(try text(key, item)) }
        return out
    }

    func bins(_ key: String, _ values: inout [Double]) throws(FeaturesFailure) {
        for pair in try pairs(key) {
            guard let bin = Int(pair.key), values.indices.contains(bin) else { throw fail(key, "keyed by 10-minute bins 0…144") }
            values[bin] = try number(key, pair.value)
        }
    }

    func uses(_ key: String) throws(FeaturesFailure) -> [String: RoutineUse] {
        let pairs = try pairs(key)
        var out: [String: RoutineUse] = .init(minimumCapacity: pairs.count)
        for pair in pairs {
            let values = try numbers(key, pair.value, count: 5)
            guard let days = Int(exactly: values[0]), let count = Int(exactly: values[1]) else { throw fail(key, "counts of days and lines") }
            var use = RoutineUse()
            (use.days, use.count, use.value, use.minutes, use.minutesSquared) = (days, count, values[2], values[3], values[4])
            out[try text(key, pair.key)] = use
        }
        return out
    }

    func trial() throws(FeaturesFailure) -> [String: UserTrial] {
        let pairs = try pairs("trial")
        var out: [String: UserTrial] = .init(minimumCapacity: pairs.count)
        for pair in pairs {
            var trial = UserTrial()
            for cell in pair.value.pairs ?? [] {
                guard let bin = Int(cell.key), AnswersTally.bins.contains(bin), let items = cell.value.items, items.count == 4
                else { throw fail("trial", "by type and bin (0, 7, 14, 28) four counts") }
                var counts: [Int] = []
                for item in items { counts.append(try int("trial", in: item)) }
                trial.bins[bin] = counts
            }
            out[try text("trial", pair.key)] = trial
        }
        return out
    }

    mutating func row() throws(FeaturesFailure) -> (FeaturesRow.Identity, UserFeatures) {
        guard case .number(_, whole: .some(FeaturesRow.version))? = fields["features"] else {
            throw FeaturesFailure(
                "features version '\(fields["features"]?.scalar ?? "")' is not one this build reads (\(FeaturesRow.version)): run the query of this version"
            )
        }
        let identity = FeaturesRow.Identity(
            user: try text("user", fields["user"]), ruleset: try text("ruleset", fields["ruleset"]), firstDay: try day("first_day"),
            lastDay: try day("last_day"), unknownKinds: try counts("unknown_kinds"))
        guard identity.firstDay <= identity.lastDay else { throw fail("last_day", "on or after first_day") }
        var user = UserCounts()
        user.days = try int("days")
        var opens = [Double](repeating: 0, count: OpenBin.count)
        var minutes = [Double](repeating: 0, count: OpenBin.count)
        try bins("opens", &opens)
        try bins("open_minutes", &minutes)
        for bin in 0..<OpenBin.count where opens[bin] != 0 || minutes[bin] != 0 {
            guard let count = Int(exactly: opens[bin]), count > 0 else { throw fail("opens", "a count above 0 for every bin of open_minutes") }
            user.addOpen(bin: bin, count: count, minutes: minutes[bin])
        }
        (user.logs, user.ticks) = (try uses("logs"), try uses("ticks"))
        (user.deliveries, user.withheld, user.opened) = (try int("deliveries"), try int("withheld"), try int("opened"))
        (user.ignored, user.acted, user.skips) = (try int("ignored"), try int("acted"), try int("skips"))
        (user.stepsGranted, user.sleepGranted) = (try bool("steps_granted"), try bool("sleep_granted"))
        (user.sleep, user.wake, user.steps) = (try moments("sleep"), try moments("wake"), try moments("steps"))
        user.ignoredByType = try counts("ignored_by_type")
        user.switchedOff = Set(try texts("switched_off") ?? [])
        (user.routeDays, user.resultDays) = (try counts("route_days"), try counts("result_days"))
        user.trial = try trial()
        user.ran = try bool("ran") ?? false
        user.enabled = try texts("enabled").map(Set.init)
        for pair in try pairs("set_on") {
            guard let on = pair.value.scalar, on == "true" || on == "false" else { throw fail("set_on", "true or false by setting") }
            user.setOn[try text("set_on", pair.key)] = on == "true"
        }
        for pair in try pairs("set_choice") { user.setChoice[try text("set_choice", pair.key)] = try text("set_choice", pair.value) }
        user.setAt = try counts("set_at")
        user.noticesOff = try bool("notices_off") ?? false
        let offAfter = fields["notices_off_after"].flatMap { $0.isNull ? nil : $0 }
        let after: Int? = try offAfter.map { node throws(FeaturesFailure) in try int("notices_off_after", in: node) }
        let exposures = try ints("exposures", count: NoticesWatch.places)
        guard let notices = NoticesWatch(exposures: exposures, offAfter: after) else {
            throw fail("notices_off_after", "a place (1…5) where a delivery was seen, 0 or null")
        }
        user.notices = notices
        user.deliveredByPlace = PlaceCounts(try ints("delivered_by_place", count: 4))
        user.ignoredByPlace = PlaceCounts(try ints("ignored_by_place", count: 4))
        user.seenByType = try counts("seen_by_type")
        // Deliveries so far count what `seen_by_type` counts: deliveries before notices went off.
        user.deliveredSoFar = user.seenByType
        return (identity, UserFeatures(user))
    }
}

extension NoticesWatch {
    /// The watch as a finished user left it: `exposures` by place and where notices went off.
    init?(exposures: [Int], offAfter: Int?) {
        self.init()
        guard exposures.count == Self.places else { return nil }
        exposed = PlaceCounts(exposures)
        guard let place = offAfter else { return }
        off = true
        guard place > 0 else { return }
        // The trigger is kept as the stretch's one answered delivery; it is among the exposures.
        guard place <= Self.places, exposed[place - 1] > 0 else { return nil }
        exposed[place - 1] -= 1
        stretch = [Delivery(place: place, type: "", answered: true)]
    }
}
