import Foundation
import RulesDiagnostics
import RulesEngine
import TestSupport
import Testing

@testable import RulesSimulator

/// One vocabulary of telemetry (`Telemetry.Kind`, `Telemetry.fields`): the schema and the
/// features query spell the same kinds and fields as the app's writer and the fit's reader.
@Suite struct TelemetryVocabularyTests {
    static let kinds = Telemetry.Kind.allCases.map(\.rawValue)

    /// The query's `kinds` table lists every kind the reader knows, no more.
    @Test func theFeaturesQueryKnowsEveryKind() throws {
        let sql = try String(contentsOfFile: Fixtures.repositoryRoot() + "/scripts/sql/features.sql", encoding: .utf8)
        let start = try #require(sql.range(of: "-- @table kinds\n"))
        let end = try #require(sql[start.upperBound...].range(of: ";"))
        let table = sql[start.upperBound..<end.lowerBound]
        let listed = table.matches(of: #/'([a-z_]+)'/#).map { String($0.output.1) }
        #expect(listed.count >= 12 && listed == Self.kinds, "the query's kinds: \(listed)")
    }

    /// The schema allows exactly the fields and kinds of the vocabulary and requires its head.
    @Test func theSchemaSpellsTheVocabulary() throws {
        guard case .object(let top) = TelemetrySchema.schema else {
            Issue.record("the schema is not an object")
            return
        }
        let members = Dictionary(top, uniquingKeysWith: { first, _ in first })
        guard case .object(let properties)? = members["properties"], case .array(let required)? = members["required"] else {
            Issue.record("the schema has no properties or required list")
            return
        }
        #expect(Set(properties.map(\.0)) == Set(Telemetry.fields) && properties.count == Telemetry.fields.count)
        #expect(required == Telemetry.requiredHead.map(JSONValue.string))
        let kind = Dictionary(properties, uniquingKeysWith: { first, _ in first })["kind"]
        guard case .object(let kindMembers)? = kind, case .array(let words)? = Dictionary(kindMembers, uniquingKeysWith: { a, _ in a })["enum"] else {
            Issue.record("the schema's kind is not a list of words")
            return
        }
        #expect(words == Self.kinds.map(JSONValue.string))
    }
}
