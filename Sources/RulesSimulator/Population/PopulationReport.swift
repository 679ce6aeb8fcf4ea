import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// What a population result is about: the same header in every shard, checked by merge.
public struct PopulationHeader: Sendable, Equatable {
    public var name: String
    /// The population file as given on the command line (for replay hints).
    public var file: String
    public var users: Int
    public var days: Int
    public var seed: UInt64
    public var start: Int
    public var rulesetSHA256: String
    /// The population file's content hash (`Population.sha256`).
    public var populationSHA256: String
    /// The ruleset directory as given (`.` by default), for replay hints.
    public var ruleset: String

    public init(
        name: String, file: String, users: Int, days: Int, seed: UInt64, start: Int, rulesetSHA256: String, populationSHA256: String,
        ruleset: String = "."
    ) {
        self.ruleset = ruleset
        self.populationSHA256 = populationSHA256
        self.name = name
        self.file = file
        self.users = users
        self.days = days
        self.seed = seed
        self.start = start
        self.rulesetSHA256 = rulesetSHA256
    }
}

/// A population result as JSON (one object), text and HTML; partial results of shards
/// carry `shard` and `users_lived` and are read back by `merge`.
public enum PopulationReport {
    static let invariantKinds = Invariants.Kind.allCases.map(\.rawValue)

    /// Adds the keys every report shows even at zero: each notification type, route, day
    /// result and invariant (so shards and whole runs list the same keys).
    public static func complete(_ tally: inout PopulationTally, ruleset: Ruleset) {
        for rule in ruleset.notifications { tally.delivered[rule.id, default: 0] += 0 }
        for route in RouteKind.allCases.map(\.rawValue) + ["none"] { tally.routes[route, default: 0] += 0 }
        for result in DayResult.allCases { tally.dayResults[result.rawValue, default: 0] += 0 }
        for kind in invariantKinds { tally.invariants[kind, default: 0] += 0 }
    }

    static func counts(_ values: [String: Int]) -> JSONValue {
        .object(values.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
    }

    static func share(_ count: Int, of total: Int) -> Double {
        total == 0 ? 0 : (Double(count) / Double(total) * 10_000).rounded() / 10_000
    }

    public static func json(_ tally: PopulationTally, header: PopulationHeader, shard: Shard? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("population", .string(header.name)), ("file", .string(header.file)), ("users", .int(header.users)), ("days", .int(header.days)),
            ("user_days", .int(tally.userDays)), ("seed", .int(Int(clamping: header.seed))), ("start", .string(DateFormat.string(header.start))),
            ("ruleset", .string(header.ruleset)), ("ruleset_sha256", .string(header.rulesetSHA256)),
            ("population_sha256", .string(header.populationSHA256)),
        ]
        if let shard, shard != .whole {
            fields.append(("shard", .string(shard.text)))
            fields.append(("users_lived", .int(tally.users)))
        }
        let types = tally.types
        let byType: [(String, JSONValue)] = types.map { type in
            (type, .object([("delivered", .int(tally.delivered[type] ?? 0)), ("suppressed", counts(tally.suppressed[type] ?? [:]))]))
        }
        fields.append(("notifications", .object([("by_type", .object(byType)), ("per_user_day", tally.deliveriesPerUserDay.json())])))
        fields.append(
            (
                "routes",
                .object(
                    tally.routes.sorted { $0.key < $1.key }.map {
                        ($0.key, .object([("user_days", .int($0.value)), ("share", .number(share($0.value, of: tally.userDays)))]))
                    })
            ))
        fields.append(("route_changes", counts(tally.routeChanges)))
        fields.append(("day_results", counts(tally.dayResults)))
        fields.append(("streak", tally.streak.json(p99: false)))
        fields.append(("xp", tally.xp.json(p99: false)))
        fields.append(("busiest_day", tally.busiestDay.json(p99: false)))
        fields.append(
            (
                "groups",
                .object(
                    tally.groups.sorted { $0.key < $1.key }.map { name, group in
                        (
                            name,
                            .object([
                                ("users", .int(group.users)), ("user_days", .int(group.userDays)), ("deliveries", .int(group.deliveries)),
                                ("busiest_day", group.busiestDay.json(p99: false)),
                            ])
                        )
                    })
            ))
        fields.append(("invariants", counts(tally.invariants)))
        let examples: [(String, JSONValue)] = tally.examples.sorted { $0.key < $1.key }.map { kind, example in
            (
                kind,
                .object([
                    ("user", .int(example.user)), ("day", .string(DateFormat.string(example.day))), ("what", .string(example.what)),
                    ("replay", .string(replay(header, user: example.user))),
                ])
            )
        }
        fields.append(("examples", .object(examples)))
        return .object(fields)
    }

    static func replay(_ header: PopulationHeader, user: Int) -> String {
        "rules population \(line(header.file))\(header.ruleset == "." ? "" : " --ruleset " + line(header.ruleset)) --users \(header.users) --days \(header.days) --seed \(header.seed) --user \(user) --format json"
    }

    // MARK: reading partial results back

    public struct ReadFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A result written by `json` (a shard's or a whole run's).
    /// The largest number a result file may hold, and any sum of them (10^12: far past a
    /// population's users × days × deliveries, far below where Int arithmetic overflows).
    public static let maxCount = 1_000_000_000_000

    /// Reads a result file, field by field: every number a whole number from 0 to
    /// `maxCount`, histograms without repeated values, and the tallies consistent (each
    /// counts `user_days`, streak and XP count the users) — a crafted file is refused with its
    /// reason before any arithmetic.
    public static func read(_ node: YAMLNode) throws(ReadFailure) -> (header: PopulationHeader, shard: Shard?, tally: PopulationTally) {
        func fail(_ message: String) -> ReadFailure { ReadFailure(description: message) }
        func int(_ node: YAMLNode?, _ key: String) throws(ReadFailure) -> Int {
            guard let text = node?.scalar, let value = Int(text) else { throw fail("'\(key)' is not a whole number") }
            // Every number of a result is a count or a value counted (deliveries, a streak,
            // XP): from 0 to `maxCount`, so no sum of them overflows.
            guard (0...maxCount).contains(value) else { throw fail("'\(key)' is \(value), not a whole number from 0 to \(maxCount)") }
            return value
        }
        func seed(_ node: YAMLNode?) throws(ReadFailure) -> UInt64 {
            guard let text = node?.scalar, let value = UInt64(text) else { throw fail("'seed' is not a whole number from 0 to 2^64 − 1") }
            return value
        }
        /// `a + b` of two checked numbers; a sum past `maxCount` is refused, never a trap.
        func sum(_ values: [Int], _ key: String) throws(ReadFailure) -> Int {
            var total = 0
            for value in values {
                let (next, overflow) = total.addingReportingOverflow(value)
                guard !overflow, next <= maxCount else { throw fail("'\(key)' adds up past \(maxCount)") }
                total = next
            }
            return total
        }
        func string(_ node: YAMLNode?, _ key: String) throws(ReadFailure) -> String {
            guard let text = node?.scalar else { throw fail("'\(key)' is missing") }
            return text
        }
        func countMap(_ node: YAMLNode?, _ key: String) throws(ReadFailure) -> [String: Int] {
            guard let pairs = node?.pairs else { throw fail("'\(key)' is not an object") }
            var out: [String: Int] = [:]
            for pair in pairs { out[pair.key.scalar ?? ""] = try int(pair.value, key) }
            return out
        }
        func histogram(_ node: YAMLNode?, _ key: String) throws(ReadFailure) -> Histogram {
            guard let items = node?["histogram"]?.items else { throw fail("'\(key).histogram' is missing") }
            var histogram = Histogram()
            var seen: Set<Int> = []
            var total = 0
            for item in items {
                guard let pair = item.items, pair.count == 2 else { throw fail("'\(key).histogram' holds something other than [value, count]") }
                let value = try int(pair[0], key)
                let count = try int(pair[1], key)
                guard seen.insert(value).inserted else { throw fail("'\(key).histogram' lists the value \(value) twice") }
                // A running total (summing every count so far at each entry was quadratic).
                total = try sum([total, count], key + ".histogram")
                histogram.add(value, count: count)
            }
            return histogram
        }
        guard node.pairs != nil else { throw fail("not a population result (a JSON object)") }
        guard let startDay = DateFormat.days(try string(node["start"], "start")), InputLimits.engineDays.contains(startDay) else {
            throw fail("'start' is not a date the engine lives (2000-01-01 to 2199-12-31)")
        }
        // The size and seed a run may have (as a population file and the command's options allow).
        let users = try int(node["users"], "users")
        let days = try int(node["days"], "days")
        let runSeed = try seed(node["seed"])
        guard (1...Population.maxUsers).contains(users) else { throw fail("'users' is \(users), not from 1 to \(Population.maxUsers)") }
        guard (1...Population.maxDays).contains(days) else { throw fail("'days' is \(days), not from 1 to \(Population.maxDays)") }
        guard runSeed <= UInt64(InputLimits.maxNumber) else { throw fail("'seed' is \(runSeed), not from 0 to \(InputLimits.maxNumber)") }
        let header = PopulationHeader(
            name: try string(node["population"], "population"), file: try string(node["file"], "file"), users: users,
            days: days, seed: runSeed, start: startDay,
            rulesetSHA256: try string(node["ruleset_sha256"], "ruleset_sha256"),
            populationSHA256: try string(node["population_sha256"], "population_sha256"), ruleset: try string(node["ruleset"], "ruleset"))
        var shard: Shard?
        var tally = PopulationTally()
        tally.userDays = try int(node["user_days"], "user_days")
        if let text = node["shard"]?.scalar {
            guard let parsed = Shard(text) else { throw fail("'shard' is not K/N") }
            shard = parsed
            tally.users = try int(node["users_lived"], "users_lived")
        } else {
            tally.users = header.users
        }
        guard let byType = node["notifications"]?["by_type"]?.pairs else { throw fail("'notifications.by_type' is missing") }
        for pair in byType {
            let type = pair.key.scalar ?? ""
            tally.delivered[type] = try int(pair.value["delivered"], "delivered")
            let suppressed = try countMap(pair.value["suppressed"], "suppressed")
            if !suppressed.isEmpty { tally.suppressed[type] = suppressed }
        }
        tally.deliveriesPerUserDay = try histogram(node["notifications"]?["per_user_day"], "notifications.per_user_day")
        guard let routes = node["routes"]?.pairs else { throw fail("'routes' is missing") }
        for pair in routes { tally.routes[pair.key.scalar ?? ""] = try int(pair.value["user_days"], "routes") }
        tally.routeChanges = try countMap(node["route_changes"], "route_changes")
        tally.dayResults = try countMap(node["day_results"], "day_results")
        tally.streak = try histogram(node["streak"], "streak")
        tally.xp = try histogram(node["xp"], "xp")
        // (Results written before it was counted have none: then it is left empty.)
        if node["busiest_day"] != nil { tally.busiestDay = try histogram(node["busiest_day"], "busiest_day") }
        if let groups = node["groups"] {
            guard let pairs = groups.pairs else { throw fail("'groups' is not an object") }
            for pair in pairs {
                var group = GroupTally()
                group.users = try int(pair.value["users"], "groups.users")
                group.userDays = try int(pair.value["user_days"], "groups.user_days")
                group.deliveries = try int(pair.value["deliveries"], "groups.deliveries")
                group.busiestDay = try histogram(pair.value["busiest_day"], "groups.busiest_day")
                guard try sum(Array(group.busiestDay.counts.values), "groups.busiest_day") == group.users else {
                    throw fail("group '\(pair.key.scalar ?? "")' counts its users twice over")
                }
                tally.groups[pair.key.scalar ?? ""] = group
            }
            // Every user and user-day in exactly one group.
            guard try sum(tally.groups.values.map(\.users), "groups.users") == tally.users,
                try sum(tally.groups.values.map(\.userDays), "groups.user_days") == tally.userDays
            else { throw fail("'groups' count other users or user-days than the whole") }
        }
        tally.invariants = try countMap(node["invariants"], "invariants")
        // Consistent before any arithmetic: every user-day counted once in each of its
        // tallies, every user once in streak and XP.
        let dayTotals: [(String, [Int])] = [
            ("notifications.per_user_day", Array(tally.deliveriesPerUserDay.counts.values)), ("routes", Array(tally.routes.values)),
            ("day_results", Array(tally.dayResults.values)),
        ]
        for (key, counts) in dayTotals where try sum(counts, key) != tally.userDays {
            throw fail("'\(key)' counts \(try sum(counts, key)) user-days, not the \(tally.userDays) of 'user_days'")
        }
        let perUser = [("streak", tally.streak), ("xp", tally.xp)] + (node["busiest_day"] == nil ? [] : [("busiest_day", tally.busiestDay)])
        for (key, histogram) in perUser where try sum(Array(histogram.counts.values), key) != tally.users {
            throw fail("'\(key)' counts \(try sum(Array(histogram.counts.values), key)) users, not the \(tally.users) lived")
        }
        // Every user of the run (or of its shard: every N-th from the K-th) lived every day:
        // a shard relabelled (1/2 copied as 1/3) counts other users than its label says.
        let expectedUsers = (shard ?? .whole).size(of: header.users)
        guard tally.users == expectedUsers else {
            throw fail(
                "'\(shard == nil ? "users" : "users_lived")' is \(tally.users), but \(shard.map { "shard \($0.text) of" } ?? "a run of") \(header.users) users lives \(expectedUsers)"
            )
        }
        guard tally.userDays == tally.users * header.days else {
            throw fail("'user_days' is \(tally.userDays), not the \(tally.users) users × \(header.days) days lived")
        }
        for (key, counts) in [("delivered", Array(tally.delivered.values)), ("route_changes", Array(tally.routeChanges.values))] {
            _ = try sum(counts, key)
        }
        for pair in node["examples"]?.pairs ?? [] {
            guard let day = DateFormat.days(try string(pair.value["day"], "examples.day")) else { throw fail("an example's day is not a date") }
            tally.examples[pair.key.scalar ?? ""] = InvariantExample(
                user: try int(pair.value["user"], "examples.user"), day: day, what: try string(pair.value["what"], "examples.what"))
        }
        return (header, shard, tally)
    }

    /// Combines shard results: every shard of one split exactly once, all of one population,
    /// seed and ruleset. The result is what one run of the whole population gives.
    public static func merge(
        _ parts: [(header: PopulationHeader, shard: Shard?, tally: PopulationTally)]
    ) -> Result<
        (header: PopulationHeader, tally: PopulationTally), ReadFailure
    > {
        guard let first = parts.first else { return .failure(ReadFailure(description: "no results to merge")) }
        // One run: the same population (name and content), size, seed, start and ruleset (the paths it was run
        // with may differ from machine to machine; the first part's are kept).
        func identity(_ header: PopulationHeader) -> [String] {
            [
                header.name, String(header.users), String(header.days), String(header.seed), String(header.start), header.rulesetSHA256,
                header.populationSHA256,
            ]
        }
        func described(_ header: PopulationHeader) -> String {
            let hashes = "ruleset \(header.rulesetSHA256.prefix(12)), population file \(header.populationSHA256.prefix(12))"
            return "\(line(header.name)) (\(header.users) users, \(header.days) days, seed \(header.seed), \(hashes))"
        }
        for part in parts where identity(part.header) != identity(first.header) {
            return .failure(ReadFailure(description: "the results are not of one run: \(described(first.header)) and \(described(part.header))"))
        }
        let count = first.shard?.count ?? 1
        var seen = Set<Int>()
        for part in parts {
            let shard = part.shard ?? .whole
            guard shard.count == count else { return .failure(ReadFailure(description: "shards of different splits (\(count) and \(shard.count))")) }
            guard seen.insert(shard.index).inserted else { return .failure(ReadFailure(description: "shard \(shard.text) is given twice")) }
        }
        let missing = (1...count).filter { !seen.contains($0) }
        guard missing.isEmpty else {
            return .failure(
                ReadFailure(description: "missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", "))"))
        }
        var tally = PopulationTally()
        for part in parts { tally.merge(part.tally) }
        return .success((first.header, tally))
    }

    // MARK: text

    static func grouped(_ value: Int) -> String { HTMLReport.grouped(value) }

    static func percent(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "0 %" }
        let tenths = Int((Double(count) / Double(total) * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }

    static func summary(_ histogram: Histogram, p99: Bool = true) -> String {
        let mean = String(format: "%.2f", histogram.mean)
        return "mean \(mean), p50 \(histogram.quantile(0.5)), p90 \(histogram.quantile(0.9))"
            + (p99 ? ", p99 \(histogram.quantile(0.99))" : "") + ", max \(histogram.max)"
    }

    public static func text(_ tally: PopulationTally, header: PopulationHeader, shard: Shard? = nil) -> String {
        var out =
            "\(line(header.name)): \(grouped(tally.users)) users × \(header.days) days = \(grouped(tally.userDays)) user-days"
            + " (seed \(header.seed), from \(DateFormat.string(header.start)), ruleset \(header.rulesetSHA256.prefix(12)))"
            + (shard.map { $0 == .whole ? "" : ", shard \($0.text)" } ?? "") + "\n\n"
        out += "notifications delivered (suppressed: user-days on which a gate refused the type)\n"
        let types = tally.types.map(line)
        let width = types.map(\.count).max() ?? 0
        for (type, shown) in zip(tally.types, types) {
            let suppressed = (tally.suppressed[type] ?? [:]).sorted { $0.key < $1.key }.map { "\(line($0.key)) \(grouped($0.value))" }
            out += "  \(shown.padding(toLength: width, withPad: " ", startingAt: 0))  \(grouped(tally.delivered[type] ?? 0))"
            out += suppressed.isEmpty ? "\n" : "  (suppressed: \(suppressed.joined(separator: ", ")))\n"
        }
        out += "\ndeliveries per user-day: \(summary(tally.deliveriesPerUserDay))\n"
        out += bars(tally.deliveriesPerUserDay, total: tally.userDays)
        if let line = busiestDayLine(tally) { out += line + "\n" }
        if !tally.groups.isEmpty {
            out += "by group:\n"
            for row in groupRows(tally) { out += "  " + row.joined(separator: ", ") + "\n" }
        }
        out += "\nroute at the day's end: "
        out +=
            tally.routes.sorted { $0.key < $1.key }.map { "\(line($0.key)) \(percent($0.value, of: tally.userDays))" }.joined(separator: ", ") + "\n"
        let changes = tally.routeChanges.sorted { $0.key < $1.key }.map { "\(line($0.key)) \(grouped($0.value))" }
        out += "route changes: \(changes.isEmpty ? "none" : changes.joined(separator: ", "))\n"
        out += "day results: "
        out +=
            tally.dayResults.sorted { $0.key < $1.key }.map { "\(line($0.key)) \(percent($0.value, of: tally.userDays))" }.joined(separator: ", ")
            + "\n"
        out += "streak at the end: \(summary(tally.streak, p99: false))\n"
        out += "XP at the end: \(summary(tally.xp, p99: false))\n"
        out += "\ninvariants: "
        out += tally.invariants.sorted { $0.key < $1.key }.map { "\(line($0.key)) \(grouped($0.value))" }.joined(separator: ", ") + "\n"
        for (kind, example) in tally.examples.sorted(by: { $0.key < $1.key }) {
            out += "  \(line(kind)): first at user \(example.user) on \(DateFormat.string(example.day)): \(line(example.what))\n"
            out += "    replay: \(replay(header, user: example.user))\n"
        }
        return out
    }

    /// A name from a population file or a result file (the population, a group, a type) as
    /// one line of terminal text: controls, line breaks and bidi controls escaped, so no name
    /// can start a line of its own (a forged `::error` in a CI log) or turn the rest around.
    static func line(_ name: String) -> String { TextRenderer.oneLine(name) }

    /// A text histogram, one bar per value (at most 40 columns).
    static func bars(_ histogram: Histogram, total: Int) -> String {
        let rows = histogram.sorted
        let largest = rows.map(\.count).max() ?? 0
        var out = ""
        for row in rows {
            let length = largest == 0 ? 0 : Int((Double(row.count) / Double(largest) * 40).rounded(.up))
            out += "  \(String(row.value).leftPadded(to: 3)) \(String(repeating: "█", count: length)) \(grouped(row.count))\n"
        }
        return out
    }

    // MARK: HTML

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// "users with a day of ≥ 1 notice: 940 (94 %), ≥ 2: …" — users, not user-days.
    static func busiestDayLine(_ tally: PopulationTally) -> String? {
        let rows = tally.usersWithADayOfAtLeast
        guard !rows.isEmpty, tally.busiestDay.total == tally.users else { return nil }
        return "users with at least one day of ≥ N notices: "
            + rows.map { "≥ \($0.deliveries): \(grouped($0.users)) (\(percent($0.users, of: tally.users)))" }.joined(separator: ", ")
    }

    /// Each group's users, user-days, mean deliveries per user-day and users who ever got the
    /// busiest day's count of notices (as text cells).
    static func groupRows(_ tally: PopulationTally) -> [[String]] {
        let most = tally.busiestDay.counts.keys.max() ?? 0
        return tally.groups.sorted { $0.key < $1.key }.map { name, group in
            let mean = group.userDays == 0 ? 0 : Double(group.deliveries) / Double(group.userDays)
            return [
                line(name), "\(grouped(group.users)) users", "\(grouped(group.userDays)) user-days",
                "mean \(String(format: "%.2f", mean)) deliveries a day",
                "\(grouped(group.usersWithADayOfAtLeast(most))) with a day of \(most)",
            ]
        }
    }

    /// An SVG bar chart of a histogram, labelled by value and count.
    static func chart(_ histogram: Histogram, title: String) -> String {
        let rows = histogram.sorted
        guard !rows.isEmpty else { return "<p>\(escape(title)): no data</p>" }
        // Wide histograms (XP) are drawn in at most 40 bins of equal width.
        let low = rows.first?.value ?? 0
        let high = rows.last?.value ?? 0
        let binCount = Swift.min(40, high - low + 1)
        let width = Swift.max(1, (high - low + 1 + binCount - 1) / binCount)
        var bins = Array(repeating: 0, count: binCount)
        for row in rows { bins[Swift.min(binCount - 1, (row.value - low) / width)] += row.count }
        let largest = bins.max() ?? 1
        let barWidth = 300 / binCount
        // Drawn to its box: 320 units shown at the grid cell's width (300 px and up), so its
        // 13-unit labels stay above 12 px; nothing scrolls or is cut.
        var svg =
            "<figure><figcaption>\(escape(title))</figcaption><svg viewBox=\"0 0 320 165\" role=\"img\" aria-label=\"\(escape(title))\">"
        for (index, count) in bins.enumerated() {
            let height = largest == 0 ? 0 : Int(Double(count) / Double(largest) * 110)
            let x = 10 + index * barWidth
            let label = width == 1 ? "\(low + index)" : "\(low + index * width)–\(low + (index + 1) * width - 1)"
            svg +=
                "<rect x=\"\(x)\" y=\"\(120 - height)\" width=\"\(Swift.max(1, barWidth - 2))\" height=\"\(height)\"><title>\(label): \(count)</title></rect>"
            // At most about 7 labels, each the bin's first value: they never overlap.
            if binCount <= 8 || index % Swift.max(1, (binCount + 5) / 6) == 0 {
                svg +=
                    "<text x=\"\(x + barWidth / 2)\" y=\"150\" text-anchor=\"middle\">\(escape(width == 1 ? label : "\(low + index * width)"))</text>"
            }
        }
        return svg + "</svg></figure>"
    }

    public static func html(_ tally: PopulationTally, header: PopulationHeader, shard: Shard? = nil) -> String {
        var rows = ""
        for type in tally.types {
            let suppressed = (tally.suppressed[type] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \(grouped($0.value))" }
            rows +=
                "<tr><td>\(escape(type))</td><td class=n>\(grouped(tally.delivered[type] ?? 0))</td><td>\(escape(suppressed.joined(separator: ", ")))</td></tr>"
        }
        func shares(_ values: [String: Int]) -> String {
            values.sorted { $0.key < $1.key }.map {
                "<tr><td>\(escape($0.key))</td><td class=n>\(grouped($0.value))</td><td class=n>\(percent($0.value, of: tally.userDays))</td></tr>"
            }.joined()
        }
        let invariants = tally.invariants.sorted { $0.key < $1.key }.map { kind, count in
            let example = tally.examples[kind].map {
                " — first at user \($0.user) on \(DateFormat.string($0.day)): \(escape($0.what))<br/><code>\(escape(replay(header, user: $0.user)))</code>"
            }
            return "<li class=\"\(count == 0 ? "ok" : "bad")\">\(escape(kind)): \(grouped(count))\(example ?? "")</li>"
        }.joined()
        return """
            <!doctype html>
            <html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(header.name)) — population</title>
            <style>
            body{font:15px/1.5 system-ui,-apple-system,"Apple SD Gothic Neo","Noto Sans KR",sans-serif;margin:0 auto;padding:16px;max-width:1100px;color:#1d1d1f}
            h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}table{border-collapse:collapse;width:100%}td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left}
            .n{text-align:right;font-variant-numeric:tabular-nums}.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(300px,100%),1fr));gap:16px}
            figure{margin:0;min-width:0}svg{width:100%;height:auto;display:block}rect{fill:#0a84ff}svg text{font-size:13px;fill:#555}.ok{color:#1a7f37}.bad{color:#c62828;font-weight:600}
            code{font-size:.85em;overflow-wrap:anywhere}.table{overflow-x:auto}*{box-sizing:border-box}body{overflow-wrap:break-word}
            </style></head><body>
            <h1>\(escape(header.name))</h1>
            <p>\(grouped(tally.users)) users × \(header.days) days = \(grouped(tally.userDays)) user-days · seed \(header.seed) · from \(DateFormat.string(header.start)) · ruleset <code>\(header.rulesetSHA256.prefix(12))</code>\(shard.map { $0 == .whole ? "" : " · shard \($0.text)" } ?? "")</p>
            <h2>Invariants</h2><ul>\(invariants)</ul>
            <h2>Notifications</h2>
            <div class="table"><table><thead><tr><th>type</th><th class=n>delivered</th><th>suppressed (user-days, by gate)</th></tr></thead><tbody>\(rows)</tbody></table></div>
            \(busiestDayLine(tally).map { "<p>" + escape($0) + "</p>" } ?? "")
            \(tally.groups.isEmpty ? "" : "<h2>By group</h2><div class=\"table\"><table><tbody>" + groupRows(tally).map { "<tr>" + $0.map { "<td>" + escape($0) + "</td>" }.joined() + "</tr>" }.joined() + "</tbody></table></div>")
            <div class="grid">
            \(chart(tally.deliveriesPerUserDay, title: "deliveries per user-day (\(summary(tally.deliveriesPerUserDay)))"))
            \(chart(tally.streak, title: "streak at the end (\(summary(tally.streak, p99: false)))"))
            \(chart(tally.xp, title: "XP at the end (\(summary(tally.xp, p99: false)))"))
            </div>
            <div class="grid">
            <div class="table"><h2>Route at the day's end</h2><table>\(shares(tally.routes))</table></div>
            <div class="table"><h2>Day results</h2><table>\(shares(tally.dayResults))</table></div>
            <div class="table"><h2>Route changes</h2><table>\(tally.routeChanges.sorted { $0.key < $1.key }.map { "<tr><td>\(escape($0.key))</td><td class=n>\(grouped($0.value))</td></tr>" }.joined())</table></div>
            </div>
            </body></html>

            """
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// `rules diff OLD NEW --population POP`: every metric of the two results that differs, and
/// the user-days whose deliveries changed most.
public struct PopulationDiff: Sendable {
    public struct Change: Sendable, Equatable {
        public var metric: String
        public var old: Double
        public var new: Double
    }

    public var changes: [Change]
    public var days: [ChangedUserDay]
    public var header: PopulationHeader
    public var newRuleset: String

    public init(old: PopulationTally, new: PopulationTally, header: PopulationHeader, days: [ChangedUserDay], newRuleset: String) {
        let a = PopulationDiff.numbers(PopulationReport.json(old, header: header))
        let b = PopulationDiff.numbers(PopulationReport.json(new, header: header))
        var changes: [Change] = []
        for key in Set(a.keys).union(b.keys).sorted() where a[key] != b[key] {
            changes.append(Change(metric: key, old: a[key] ?? 0, new: b[key] ?? 0))
        }
        self.changes = changes
        self.days = days
        self.header = header
        self.newRuleset = newRuleset
    }

    public var isEmpty: Bool { changes.isEmpty && days.isEmpty }

    /// Every number of a report by its dotted path (histogram arrays left out: their
    /// quantiles and means are compared).
    static func numbers(_ value: JSONValue, path: String = "") -> [String: Double] {
        switch value {
        case .int(let number): return path.isEmpty ? [:] : [path: Double(number)]
        case .number(let number): return path.isEmpty ? [:] : [path: number]
        case .object(let fields):
            var out: [String: Double] = [:]
            for (key, field) in fields where !["seed", "users", "days"].contains(key) || !path.isEmpty {
                out.merge(numbers(field, path: path.isEmpty ? key : path + "." + key)) { a, _ in a }
            }
            return out
        default: return [:]
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? PopulationReport.grouped(Int(value)) : String(format: "%.4g", value)
    }

    /// Headline metrics: route shares, deliveries per user-day, day results, the mean
    /// streak, and each group's.
    public static func isHeadline(_ metric: String) -> Bool {
        (metric.hasPrefix("routes.") && metric.hasSuffix(".share")) || metric.hasPrefix("notifications.per_user_day.")
            || metric.hasPrefix("day_results.") || metric == "streak.mean" || metric.hasPrefix("groups.")
    }

    /// `routes.light.share: 0.0606 → 0.1206 (+0.06)` for each changed metric (or headline metric).
    public func lines(headlineOnly: Bool = false) -> [String] {
        changes.filter { !headlineOnly || Self.isHeadline($0.metric) }.map { change in
            let delta = change.new - change.old
            return "\(change.metric): \(Self.format(change.old)) → \(Self.format(change.new)) (\(delta > 0 ? "+" : "")\(Self.format(delta)))"
        }
    }

    /// `population sample populations/x.yaml: 1,000 users × 14 days, seed 7`.
    public func title(sample: Bool) -> String {
        "population \(sample ? "sample " : "")\(header.file): \(PopulationReport.grouped(header.users)) users × \(header.days) days, seed \(header.seed)"
    }

    public func text() -> String {
        var out =
            "\(PopulationReport.line(header.name)): \(PopulationReport.grouped(header.users)) users × \(header.days) days under both rulesets — \(changes.count) metric\(changes.count == 1 ? "" : "s") changed\n"
        for line in lines() { out += "  \(line)\n" }
        if !days.isEmpty {
            out += "\nuser-days whose deliveries changed most:\n"
            for day in days {
                out += "  user \(day.user) on \(DateFormat.string(day.day)): \(day.old) → \(day.new) deliveries\n"
                if let reason = day.reason { out += "    why: \(reason)\n" }
                var replay = header
                replay.ruleset = newRuleset
                out += "    replay: \(PopulationReport.replay(replay, user: day.user))\n"
            }
        }
        return out
    }

    public func json() -> JSONValue {
        .object([
            ("population", .string(header.name)), ("users", .int(header.users)), ("days", .int(header.days)),
            (
                "changes",
                .array(
                    changes.map {
                        .object([
                            ("metric", .string($0.metric)), ("old", .number($0.old)), ("new", .number($0.new)), ("delta", .number($0.new - $0.old)),
                        ])
                    })
            ),
            (
                "user_days",
                .array(
                    days.map {
                        .object(
                            [("user", .int($0.user)), ("day", .string(DateFormat.string($0.day))), ("old", .int($0.old)), ("new", .int($0.new))]
                                + ($0.reason.map { [("why", JSONValue.string($0))] } ?? []))
                    })
            ),
        ])
    }
}
