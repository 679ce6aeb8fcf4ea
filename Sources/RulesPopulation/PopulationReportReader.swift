import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import Ruleset

/// Reading results back: a shard's or a whole run's JSON, every field checked.
extension PopulationReport {
    package struct ReadFailure: Error, CustomStringConvertible {
        package var description: String
    }

    /// A result written by `json` (a shard's or a whole run's).
    /// The largest number a result file may hold, and any sum of them (10^12: far past a
    /// population's users × days × deliveries, far below where Int arithmetic overflows).
    package static let maxCount = 1_000_000_000_000

    /// Reads a result file, field by field: every number a whole number from 0 to
    /// `maxCount`, histograms without repeated values, and the tallies consistent (each
    /// counts `user_days`, streak and XP count the users) — a crafted file is refused with its
    /// reason before any arithmetic.
    package static func read(_ node: YAMLNode) throws(ReadFailure) -> (header: PopulationHeader, shard: Shard?, tally: PopulationTally) {
        let header = try readHeader(node)
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
        if let groups = node["groups"] { try readGroups(groups, into: &tally) }
        tally.invariants = try countMap(node["invariants"], "invariants")
        try checkConsistent(tally, shard: shard, header: header, busiestDayRead: node["busiest_day"] != nil)
        tally.answers = try AnswersTally.read(answers: node["answers"], effects: node["effects"])
        // (Results written before the product numbers had intervals have no sums: none then.)
        if let sums = node["product"]?["sums"] {
            let numbers = try (sums.items ?? []).map { item throws(ReadFailure) in try int(item, "product.sums") }
            guard let product = ProductFigures(sums: numbers), product.sums[0] == tally.users else {
                throw fail("'product.sums' are not the sums of this result's users")
            }
            tally.product = product
        }
        for pair in node["examples"]?.pairs ?? [] {
            guard let day = DateFormat.days(try string(pair.value["day"], "examples.day")) else { throw fail("an example's day is not a date") }
            tally.examples[pair.key.scalar ?? ""] = InvariantExample(
                user: try int(pair.value["user"], "examples.user"), day: day, what: try string(pair.value["what"], "examples.what"))
        }
        return (header, shard, tally)
    }

    /// The header: what population, size, seed, start and ruleset the result is of.
    private static func readHeader(_ node: YAMLNode) throws(ReadFailure) -> PopulationHeader {
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
        return PopulationHeader(
            name: try string(node["population"], "population"), file: try string(node["file"], "file"), users: users,
            days: days, seed: runSeed, start: startDay,
            rulesetSHA256: try string(node["ruleset_sha256"], "ruleset_sha256"),
            populationSHA256: try string(node["population_sha256"], "population_sha256"), ruleset: try string(node["ruleset"], "ruleset"))
    }

    /// Each group's users, user-days, deliveries and busiest day; every user and user-day in
    /// exactly one group.
    private static func readGroups(_ groups: YAMLNode, into tally: inout PopulationTally) throws(ReadFailure) {
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

    /// Consistent before any arithmetic: every user-day counted once in each of its
    /// tallies, every user once in streak and XP, and the users and user-days the run (or its
    /// shard) lives.
    private static func checkConsistent(
        _ tally: PopulationTally, shard: Shard?, header: PopulationHeader, busiestDayRead: Bool
    ) throws(ReadFailure) {
        let dayTotals: [(String, [Int])] = [
            ("notifications.per_user_day", Array(tally.deliveriesPerUserDay.counts.values)), ("routes", Array(tally.routes.values)),
            ("day_results", Array(tally.dayResults.values)),
        ]
        for (key, counts) in dayTotals where try sum(counts, key) != tally.userDays {
            throw fail("'\(key)' counts \(try sum(counts, key)) user-days, not the \(tally.userDays) of 'user_days'")
        }
        let perUser = [("streak", tally.streak), ("xp", tally.xp)] + (busiestDayRead ? [("busiest_day", tally.busiestDay)] : [])
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
    }

    private static func fail(_ message: String) -> ReadFailure { ReadFailure(description: message) }
    private static func int(_ node: YAMLNode?, _ key: String) throws(ReadFailure) -> Int {
        guard let text = node?.scalar, let value = Int(text) else { throw fail("'\(key)' is not a whole number") }
        // Every number of a result is a count or a value counted (deliveries, a streak,
        // XP): from 0 to `maxCount`, so no sum of them overflows.
        guard (0...maxCount).contains(value) else { throw fail("'\(key)' is \(value), not a whole number from 0 to \(maxCount)") }
        return value
    }
    private static func seed(_ node: YAMLNode?) throws(ReadFailure) -> UInt64 {
        guard let text = node?.scalar, let value = UInt64(text) else { throw fail("'seed' is not a whole number from 0 to 2^64 − 1") }
        return value
    }
    /// `a + b` of two checked numbers; a sum past `maxCount` is refused, never a trap.
    private static func sum(_ values: [Int], _ key: String) throws(ReadFailure) -> Int {
        var total = 0
        for value in values {
            let (next, overflow) = total.addingReportingOverflow(value)
            guard !overflow, next <= maxCount else { throw fail("'\(key)' adds up past \(maxCount)") }
            total = next
        }
        return total
    }
    private static func string(_ node: YAMLNode?, _ key: String) throws(ReadFailure) -> String {
        guard let text = node?.scalar else { throw fail("'\(key)' is missing") }
        return text
    }
    private static func countMap(_ node: YAMLNode?, _ key: String) throws(ReadFailure) -> [String: Int] {
        guard let pairs = node?.pairs else { throw fail("'\(key)' is not an object") }
        var out: [String: Int] = [:]
        for pair in pairs { out[pair.key.scalar ?? ""] = try int(pair.value, key) }
        return out
    }
    private static func histogram(_ node: YAMLNode?, _ key: String) throws(ReadFailure) -> Histogram {
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
}
