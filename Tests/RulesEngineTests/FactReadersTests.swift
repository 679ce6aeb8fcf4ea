import Foundation
import RulesExpression
import Ruleset
import Testing

@testable import RulesEngine

/// The facts graph: which parts read each fact, and which parts a change reaches.
@Suite struct FactReadersTests {
    static let prepared = PartsTests.prepared

    static func slot(_ name: String) throws -> Int { try #require(prepared.fullSchema.fact(named: name)?.slot, "\(name)") }

    @Test func theShippedGraphKnowsWhoReadsWhat() throws {
        let readers = Self.prepared.factReaders()
        // `completion_rate` decides risk, route and the evening plan; `now` is read by the
        // tables against 18:00 and 21:00 only (banded), so it is not among their exact slots.
        let rate = try Self.slot("completion_rate")
        #expect(readers.readers[rate].contains(.risk) && readers.readers[rate].contains(.route) && readers.readers[rate].contains(.plan))
        let now = try Self.slot("now")
        #expect(readers.risk.bands.contains { $0.slot == now } && !readers.risk.slots.contains(now))
        #expect(readers.route.bands.contains { $0.slot == now })
        // `sleep.minutes` decides the route (with its fallback), not risk.
        let sleep = try Self.slot("sleep.minutes")
        #expect(readers.readers[sleep].contains(.route) && !readers.readers[sleep].contains(.risk))
        // A fact no part reads has no readers.
        let unread = readers.readers.indices.filter { readers.readers[$0].isEmpty }
        #expect(!unread.isEmpty)
    }

    @Test func aChangeReachesOnlyItsReaders() throws {
        let morning = PartsTests.facts(at: 8)
        var later = morning
        // Only the time moves: the tables read it; the plan does not (its memo is kept until
        // a candidate's fire time comes), nor does the day table.
        later.put(try Self.slot("now"), cell: .time(8 * 3600 + 1800))
        let changed = Self.prepared.factReaders().readersOfChanges(from: morning, to: later)
        #expect(changed.contains(.risk) && changed.contains(.route))
        #expect(!changed.contains(.day) && !changed.contains(.plan))
        // Nothing changed, nothing to evaluate.
        #expect(Self.prepared.factReaders().readersOfChanges(from: morning, to: morning).isEmpty)
    }
}
