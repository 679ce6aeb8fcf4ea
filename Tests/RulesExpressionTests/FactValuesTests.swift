import RulesExpression
import Testing

/// Facts as cells: every value comes back as it went in, whether it fits a cell or is boxed,
/// and the fast comparisons never call different values the same.
@Suite struct FactValuesTests {
    static let values: [Value] = [
        .unknown, .bool(true), .bool(false), .int(0), .int(-7), .int(Int.max), .int(Int.min), .number(0.5), .number(-0.0),
        .number(1e300), .number(.infinity), .duration(5400), .time(86_400), .time(0), .date(20_633), .date(-1),
        .string(""), .string("high"), .string("calm_directive"), .string("cold_persistent"), .string("양치"),
        .string("물 마시기 300ml"), .string("물 300ml, 양치, 300보"), .string("12345678901234"), .string("123456789012345"),
        .list([.string("a"), .int(1)]), .map(["water": .time(3600)]),
    ]

    @Test(arguments: values)
    func aValueComesBackAsItWentIn(value: Value) {
        var facts = FactValues(count: 4)
        facts[2] = value
        #expect(facts[2] == value)
        #expect(facts[1] == .unknown)
        #expect(facts[9] == .unknown)
        // Built in place, then read back through a copy.
        let built = FactValues(count: 4) { builder in builder.put(3, value) }
        let copy = built
        #expect(copy[3] == value)
    }

    @Test func stringsUpToFourteenBytesAreInlineAndLongerOnesBoxed() {
        #expect(FactCell.string("12345678901234") != nil)
        #expect(FactCell.string("123456789012345") == nil)
        // Korean: three bytes a syllable.
        #expect(FactCell.string("물 마시기 ") != nil)  // 14 bytes
        #expect(FactCell.string("물 마시기 3") == nil)  // 15 bytes
        #expect(FactCell(.list([])) == nil)
    }

    @Test func rewritingASlotNeverGrowsItsBoxedValues() {
        var facts = FactValues(count: 3)
        for round in 0..<1000 {
            facts[1] = round % 2 == 0 ? .string("a long text of many bytes \(round)") : .int(round)
            facts[2] = .list([.int(round)])
        }
        #expect(facts[1] == .int(999))
        #expect(facts[2] == .list([.int(999)]))
        // Two boxed slots at most ever: a sample of both holds two boxed values.
        let sample = FactSample(facts, slots: [1, 2])
        #expect(sample.matches(facts, slots: [1, 2]))
    }

    @Test func patchesOverrideWithoutTouchingTheSharedCells() {
        var facts = FactValues(count: 6)
        facts[0] = .int(1)
        let shared = facts
        facts.patch(0, .int(2))
        facts.patch(1, .string("event"))
        facts.patch(2, .time(60))
        facts.patch(3, .bool(true))  // a fourth: written into the cells
        facts.patch(4, .string("a text longer than fourteen bytes"))  // boxed: written too
        #expect(facts[0] == .int(2) && facts[1] == .string("event") && facts[2] == .time(60))
        #expect(facts[3] == .bool(true) && facts[4] == .string("a text longer than fourteen bytes"))
        #expect(shared[0] == .int(1) && shared[1] == .unknown && shared[3] == .unknown && shared[4] == .unknown)
        facts[0] = .int(3)  // a write drops the slot's patch
        #expect(facts[0] == .int(3))
        facts.removePatches()
        #expect(facts[1] == .unknown && facts[0] == .int(3) && facts[3] == .bool(true))
    }

    @Test func updateWritesPatchesThroughFirst() {
        var facts = FactValues(count: 4)
        facts.patch(0, .int(5))
        facts.update { builder in builder.put(1, .string("a text longer than fourteen bytes")) }
        #expect(facts[0] == .int(5))
        #expect(facts[1] == .string("a text longer than fourteen bytes"))
    }

    @Test func aSampleMissesEveryChangeAndMatchesNoChange() {
        var facts = FactValues(count: 5)
        facts[0] = .int(1)
        facts[1] = .string("물 300ml, 양치, 300보")
        facts[2] = .map(["water": .time(3600)])
        let slots = [0, 1, 2, 3]
        let sample = FactSample(facts, slots: slots)
        #expect(sample.matches(facts, slots: slots))
        #expect(sample == FactSample(facts, slots: slots))
        var changed = facts
        changed[1] = .string("물 300ml, 양치")
        #expect(!sample.matches(changed, slots: slots))
        changed = facts
        changed[2] = .map(["water": .time(3660)])
        #expect(!sample.matches(changed, slots: slots))
        changed = facts
        changed.patch(3, .unknown)
        #expect(sample.matches(changed, slots: slots))
        changed.patch(3, .int(0))
        #expect(!sample.matches(changed, slots: slots))
        #expect(!sample.matches(facts, slots: [0, 1]))
    }

    @Test func equalityWithAConstantKeepsSwiftsStringEquality() throws {
        // The same Korean text in two normal forms is equal (canonical equivalence), as it
        // is for `EqualityNode`; different ASCII is not.
        let composed = "양치"
        let decomposed = composed.decomposedForTest
        #expect(composed.utf8.count != decomposed.utf8.count)
        #expect(TestSchema.evaluate("settings.tone == \"calm_directive\"") == .success(.bool(true)))
        #expect(TestSchema.evaluate("settings.tone != \"calm_directive\"") == .success(.bool(false)))
        #expect(TestSchema.evaluate("\"calm_directive\" == settings.tone") == .success(.bool(true)))
        #expect(TestSchema.evaluate("routines.water.name == \"\(decomposed)\"", ["routines.water.name": .string(composed)]) == .success(.bool(true)))
        #expect(TestSchema.evaluate("routines.water.name == \"양치질\"", ["routines.water.name": .string(composed)]) == .success(.bool(false)))
        #expect(TestSchema.evaluate("risk == \"high\"") == .success(.bool(false)))
        // A long text against a long constant (both boxed or not inline).
        let long = "물 300ml, 양치, 300보"
        #expect(TestSchema.evaluate("routines.water.name == \"\(long)\"", ["routines.water.name": .string(long)]) == .success(.bool(true)))
        #expect(TestSchema.evaluate("routines.water.name != \"\(long)\"", ["routines.water.name": .string(long)]) == .success(.bool(false)))
        // Numbers widen as before.
        #expect(TestSchema.evaluate("completed == 4.0") == .success(.bool(true)))
        // A fact that must be known and is not: the same error as before.
        var facts = TestSchema.facts()
        facts.set("risk", .unknown, in: TestSchema.schema)
        let compiled = try #require(TestSchema.compile("risk == \"high\"").0)
        var context = EvaluationContext(facts: facts)
        #expect(throws: EvaluationError.missingFact("risk")) { try compiled.isTrue(&context) }
    }
}

extension String {
    /// The canonical decomposition (NFD) of Hangul syllables, done by hand (no Foundation).
    var decomposedForTest: String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            let index = Int(scalar.value) - 0xAC00
            guard index >= 0, index < 11_172 else {
                scalars.append(scalar)
                continue
            }
            let lead = 0x1100 + index / 588
            let vowel = 0x1161 + (index % 588) / 28
            let tail = index % 28
            for value in [lead, vowel] + (tail == 0 ? [] : [0x11A7 + tail]) {
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
        }
        return String(scalars)
    }
}
