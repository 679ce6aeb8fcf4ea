import RulesExpression
import Testing

/// One vocabulary of built-in facts: the schema's first slots, the catalogue behind the
/// reference and `rules facts`, all in `BuiltInFact`'s order with its names and types.
@Suite struct BuiltInFactTests {
    @Test func theSchemaStartsWithEveryBuiltInFactInOrder() throws {
        let schema = FactSchema.standard(routineIDs: ["water"], settings: [("bedtime", .optional(.time))])
        for fact in BuiltInFact.allCases {
            let found = try #require(schema.fact(named: fact.name), "\(fact.name)")
            #expect(found.slot == fact.rawValue && found.type == fact.type && found.suggestedDefault == fact.suggestedDefault)
        }
        #expect(schema.facts.prefix(BuiltInFact.allCases.count).map(\.name) == BuiltInFact.allCases.map(\.name))
    }

    @Test func theCatalogueDescribesEachFactOnceInOrder() {
        #expect(FactCatalogue.builtIn.map(\.name) == BuiltInFact.allCases.map(\.name))
    }

    @Test func everyOptionalFactSuggestsADefault() {
        for fact in BuiltInFact.allCases {
            #expect(fact.type.isOptional == (fact.suggestedDefault != nil), "\(fact.name)")
        }
    }
}
