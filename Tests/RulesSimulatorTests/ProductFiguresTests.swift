import Foundation
import Testing

@testable import RulesPopulation

/// The product numbers a report opens with: their intervals from the sums equal the ones
/// worked out from the users themselves, and a result file carries the sums through a merge.
@Suite struct ProductFiguresTests {
    static func user(days: Int, failed: Int, deliveries: Int, offAll: Bool) -> PopulationTally {
        var tally = PopulationTally()
        tally.users = 1
        tally.userDays = days
        tally.dayResults = ["failed": failed, "success": days - failed]
        tally.delivered = ["a": deliveries]
        var answers = AnswersTally()
        answers.optedOutAll = offAll ? 1 : 0
        tally.answers = answers
        return tally
    }

    @Test func intervalsFromSumsAreTheUsersOwn() throws {
        let users = (0..<25).map { n in Self.user(days: 5 + n % 3, failed: n % 4, deliveries: 2 * n % 7, offAll: n % 10 == 0) }
        var product = ProductFigures()
        for user in users { product.add(user: user) }
        // Failed days a user-day: a ratio over user-days, linearised per user, t(24).
        let x = users.map { Double($0.dayResults["failed"] ?? 0) }
        let d = users.map { Double($0.userDays) }
        let r = x.reduce(0, +) / d.reduce(0, +)
        let m = d.reduce(0, +) / 25
        let z = zip(x, d).map { ($0 - r * $1) / m }
        let se = (z.reduce(0) { $0 + $1 * $1 } / (25 * 24)).squareRoot()
        let failed = try #require(product.estimate(.failed))
        #expect(abs(failed.value - r) < 1e-12)
        #expect(abs(failed.high - (r + 2.0639 * se)) < 1e-4)
        // Users who switched every notice off: a share of users (3 of 25).
        let off = try #require(product.estimate(.allOff))
        let p = 3.0 / 25
        let sp = ((3 * (1 - p) * (1 - p) + 22 * p * p) / 24 / 25).squareRoot()
        #expect(abs(off.value - p) < 1e-12 && abs(off.high - (p + 2.0639 * sp)) < 1e-4)
        // Sums read back from a result and merged are the whole run's.
        var first = ProductFigures()
        var second = ProductFigures()
        for (index, user) in users.enumerated() {
            if index < 10 { first.add(user: user) } else { second.add(user: user) }
        }
        var merged = try #require(ProductFigures(sums: first.sums))
        merged.merge(second)
        #expect(merged == product)
        #expect(ProductFigures(sums: [1, 2]) == nil)
        #expect(ProductFigures(sums: Array(repeating: -1, count: product.sums.count)) == nil)
    }
}
