import Foundation
import ShippedRuleset
import Testing

@testable import RulesFit
@testable import RulesPopulation

/// The fit's sums: exact whatever order users come in, the estimates from sums equal to
/// those worked out over the users themselves, and a features file read twice refused when
/// its rows changed between the reads.
@Suite struct GroupSumsTests {
    /// Terms whose running sum loses digits: a left-to-right sum depends on their order.
    static let awkward: [Double] = (0..<2_000).map { index in
        let scale = [1e16, 1, 1e-3, 7.25, 3e8][index % 5]
        return (index % 3 == 0 ? -1 : 1) * scale * (1 + Double(index % 17) / 10)
    }

    @Test func anExactSumIsTheSameInEveryOrder() {
        var random = SplitMix64(mixing: 11, 3)
        var first: Double?
        for _ in 0..<20 {
            var terms = Self.awkward
            for index in terms.indices.reversed() { terms.swapAt(index, Int(random.next() % UInt64(index + 1))) }
            var sum = ExactSum()
            for term in terms { sum.add(term) }
            if let first { #expect(sum.value == first) } else { first = sum.value }
        }
        // The check itself can fail: a left-to-right sum of the same terms differs by order.
        let forwards = Self.awkward.reduce(0, +)
        let backwards = Self.awkward.reversed().reduce(0, +)
        #expect(forwards != backwards)
    }

    @Test func anExactSumIsTheRoundedExactSum() {
        func sum(_ terms: [Double]) -> Double {
            var sum = ExactSum()
            for term in terms { sum.add(term) }
            return sum.value
        }
        #expect(sum([1e16, 1, -1e16]) == 1)
        #expect(sum(Array(repeating: 0.1, count: 10)) == 1)
        #expect(sum([1, 1e100, 1, -1e100]) == 2)
        // A tie between two numbers rounds by the partials below it (fsum's last step).
        #expect(sum([1, 0x1p-53, 0x1p-106]) == 1 + 0x1p-52)
        #expect([1, 0x1p-53, 0x1p-106].reduce(0, +) == 1)
        #expect(sum([]) == 0)
        #expect(sum([.infinity, 1]) == .infinity)
        #expect(sum([.greatestFiniteMagnitude, .greatestFiniteMagnitude, 1, -.greatestFiniteMagnitude]) == .infinity)
        #expect(sum([.infinity, -.infinity]).isNaN)
    }

    /// The clustered share from sums is the one worked out over the users' own pairs.
    @Test func aClusteredShareFromSumsIsTheDirectOne() {
        var random = SplitMix64(mixing: 5, 9)
        var pairs: [(y: Double, n: Double)] = []
        var sums = ClusteredSums()
        for _ in 0..<500 {
            let n = Double(random.next() % 30)
            let y = Double(random.next() % UInt64(n + 1))
            pairs.append((y, n))
            sums.add(y, of: n)
        }
        let used = pairs.filter { $0.n > 0 }
        let total = used.reduce(0) { $0 + $1.n }
        let p = used.reduce(0) { $0 + $1.y } / total
        let g = Double(used.count)
        let se = (g / (g - 1) * used.reduce(0) { $0 + pow($1.y - p * $1.n, 2) }).squareRoot() / total
        let estimate = sums.estimate()
        #expect(abs(estimate.value - p) < 1e-12)
        #expect(abs((estimate.se ?? 0) - se) < 1e-9 * se)
        #expect(sums.users == used.count)
    }

    /// A stream's second pass refuses a row the first did not see, a row seen twice, and
    /// ends refused when a row of the first is missing.
    @Test func aStreamRefusesRowsThatChangedBetweenReads() throws {
        func user(_ days: Int) -> UserFeatures {
            var counts = UserCounts()
            counts.days = days
            return UserFeatures(counts)
        }
        var stream = FeaturesStream()
        for index in 0..<30 { stream.first("u\(index)", FitPoints.UserPoint(user(index % 7 + 1)), name: "f.jsonl", number: index + 1) }
        stream.first("u3", FitPoints.UserPoint(user(2)), name: "g.jsonl", number: 9)
        let twice = stream.sorted()
        #expect(twice == ["g.jsonl:9: user u3 has a row already (at f.jsonl:4): one row a user"])

        var clean = FeaturesStream()
        for index in 0..<30 { clean.first("u\(index)", FitPoints.UserPoint(user(index % 7 + 1)), name: "f.jsonl", number: index + 1) }
        #expect(clean.sorted().isEmpty)
        clean.group(k: 1, ruleset: ShippedRuleset.ruleset, seed: 7)
        var again = clean
        #expect(again.second("stranger", user(3))?.contains("was not there when the files were first read") == true)
        for index in 0..<29 { #expect(again.second("u\(index)", user(index % 7 + 1)) == nil) }
        #expect(again.second("u0", user(1))?.contains("was not there") == true)
        guard case .failure(let failure) = again.finished() else {
            Issue.record("a stream missing u29 finished")
            return
        }
        #expect(failure.message.contains("user u29's row was gone"))
        #expect(again.second("u29", user(2)) == nil)
        guard case .success(let grouping) = again.finished() else {
            Issue.record("a stream with every row did not finish")
            return
        }
        #expect(grouping.sums.reduce(0) { $0 + $1.users } == 30)
    }
}
