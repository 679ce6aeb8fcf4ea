import Foundation
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import Ruleset

/// What a population result is about: the same header in every shard, checked by merge.
package struct PopulationHeader: Sendable, Equatable {
    package var name: String
    /// The population file as given on the command line (for replay hints).
    package var file: String
    package var users: Int
    package var days: Int
    package var seed: UInt64
    package var start: Int
    package var rulesetSHA256: String
    /// The population file's content hash (`Population.sha256`).
    package var populationSHA256: String
    /// The ruleset directory as given (`.` by default), for replay hints.
    package var ruleset: String

    package init(
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
/// carry `shard` and `users_lived` and are read back by `merge`. One job a file: this one
/// writes the JSON; `PopulationReportReader` reads it back, `PopulationMerge` merges shards,
/// `PopulationReportText` and `PopulationReportHTML` are the views (`PopulationSummary` is
/// the tally as a `Report`).
package enum PopulationReport {
    /// What the route `none` means in a report.
    package static let noRoute = "user-days on which the app never ran, so no route was chosen"

    static let invariantKinds = Invariants.Kind.allCases.map(\.rawValue)

    /// Adds the keys every report shows even at zero: each notification type, route, day
    /// result and invariant (so shards and whole runs list the same keys).
    package static func complete(_ tally: inout PopulationTally, ruleset: Ruleset) {
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

    package static func json(_ tally: PopulationTally, header: PopulationHeader, shard: Shard? = nil) -> JSONValue {
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
        // The product numbers first, each with its interval (and the sums a merge adds).
        fields.append(("product", tally.product.json(answers: tally.answers != nil)))
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
        if let answers = tally.answers { fields += answers.json() }
        return .object(fields)
    }

    static func replay(_ header: PopulationHeader, user: Int) -> String {
        "rules population \(line(header.file))\(header.ruleset == "." ? "" : " --ruleset " + line(header.ruleset)) --users \(header.users) --days \(header.days) --seed \(header.seed) --user \(user) --format json"
    }
}
