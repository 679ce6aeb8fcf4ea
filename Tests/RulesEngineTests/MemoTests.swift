import Foundation
import RulesExpression
import Ruleset
import Testing

@testable import RulesEngine

/// The one memo shape: a value given back only while its inputs are equal and what it read of
/// the facts reads the same — exact slots by value, banded facts by their side of each constant.
@Suite struct MemoTests {
    static let prepared = PartsTests.prepared
    static let dayStart = PartsTests.dayStart

    static func slot(_ name: String) throws -> Int { try #require(prepared.fullSchema.fact(named: name)?.slot, "\(name)") }

    /// A memo of the risk table's reads (`completion_rate` exact, `now` against 18:00 and 21:00).
    static func riskMemo(at hour: Int) -> Memo<Int, String> {
        Memo(.risk, inputs: 1, facts: PartsTests.facts(at: hour), reads: prepared.factReaders().risk, dayStart: dayStart, value: "made")
    }

    @Test func aBandedFactKeepsTheValueUntilItCrossesAConstant() throws {
        let reads = Self.prepared.factReaders().risk
        let now = try Self.slot("now")
        let memo = Self.riskMemo(at: 19)
        var later = PartsTests.facts(at: 19)
        // 19:00 → 20:30: the same side of 18:00 and of 21:00.
        later.put(now, cell: .time(20 * 3600 + 1800))
        #expect(memo.value(for: 1, facts: later, reads: reads, dayStart: Self.dayStart) == "made")
        // 21:30: past 21:00.
        later.put(now, cell: .time(21 * 3600 + 1800))
        #expect(memo.value(for: 1, facts: later, reads: reads, dayStart: Self.dayStart) == nil)
    }

    /// A band whose fact holds the cell it was read from is not checked again — unless the
    /// day start changed: times are compared on the logical day, so 02:00 is before 21:00 on a
    /// day that starts at midnight and after it on one that starts at 04:00.
    @Test func aBandOnItsOwnCellIsCheckedAgainUnderAnotherDayStart() throws {
        let reads = Self.prepared.factReaders().risk
        let now = try Self.slot("now")
        var night = PartsTests.facts(at: 19)
        night.put(now, cell: .time(2 * 3600))
        let memo = Memo(.risk, inputs: 1, facts: night, reads: reads, dayStart: 0, value: "made")
        #expect(memo.value(for: 1, facts: night, reads: reads, dayStart: 0) == "made")
        #expect(memo.value(for: 1, facts: night, reads: reads, dayStart: Self.dayStart) == nil)
        // The cells it was read from are kept, one a band.
        #expect(memo.sides.cells.count == reads.bands.count && memo.sides.cells.contains { $0.sameBits(as: .time(2 * 3600)) })
    }

    /// A band's kept cell gives its old sides: an unboxed cell is its own value, so a fact
    /// that moved is checked against the side the old value was on; a boxed cell's index
    /// means something only in its own facts, so its sides are kept. Two long texts are both
    /// the first boxed value of their facts (the same bits) and still on different sides.
    @Test func aMovedBandComparesTheSidesOfItsOldAndNewValue() throws {
        let long = "완료까지 남은 항목이 아주 많습니다"
        let threshold = Threshold(fact: "note", op: .equal, constant: .string(long), fallback: nil, range: TextRange(0, 0))
        let reads = FactReads(slots: [], bands: [PlanBand(slot: 0, thresholds: [threshold])])
        func facts(_ text: String) -> FactValues { FactValues(count: 1) { $0.put(0, .string(text)) } }
        let memo = Memo(.risk, inputs: 1, facts: facts(long), reads: reads, dayStart: Self.dayStart, value: "made")
        let other = "완료까지 남은 항목이 아직 많습니다"
        #expect(facts(long).cell(0).isBoxed && facts(other).cell(0).sameBits(as: facts(long).cell(0)))
        #expect(memo.sides.boxedSides == [1])
        #expect(memo.value(for: 1, facts: facts(long), reads: reads, dayStart: Self.dayStart) == "made")
        #expect(memo.value(for: 1, facts: facts(other), reads: reads, dayStart: Self.dayStart) == nil)
        // Unboxed: moved to another short text on the same side (not equal) stands; to the
        // long text, it crosses.
        let short = Memo(.risk, inputs: 1, facts: facts("walk"), reads: reads, dayStart: Self.dayStart, value: "short")
        #expect(short.sides.boxedSides.isEmpty)
        #expect(short.value(for: 1, facts: facts("stretch"), reads: reads, dayStart: Self.dayStart) == "short")
        #expect(short.value(for: 1, facts: facts(long), reads: reads, dayStart: Self.dayStart) == nil)
    }

    @Test func anExactFactOrAnInputThatChangedMakesItAgain() throws {
        let reads = Self.prepared.factReaders().risk
        let memo = Self.riskMemo(at: 19)
        var changed = PartsTests.facts(at: 19)
        changed.put(try Self.slot("completion_rate"), cell: .number(0.75))
        #expect(memo.value(for: 1, facts: changed, reads: reads, dayStart: Self.dayStart) == nil)
        #expect(memo.value(for: 2, facts: PartsTests.facts(at: 19), reads: reads, dayStart: Self.dayStart) == nil)
        #expect(memo.value(for: 1, facts: PartsTests.facts(at: 19), reads: reads, dayStart: Self.dayStart) == "made")
        // A memo that read facts is never given back on its inputs alone.
        #expect(memo.value(for: 1) == nil)
        #expect(Memo<Int, String>(inputs: 1, value: "alone").value(for: 1) == "alone")
    }

    @Test func aKeptValueWithOtherInputsKeepsWhatItRead() throws {
        let reads = Self.prepared.factReaders().risk
        let moved = Self.riskMemo(at: 19).replacing(inputs: 2, value: "moved")
        #expect(moved.value(for: 2, facts: PartsTests.facts(at: 19), reads: reads, dayStart: Self.dayStart) == "moved")
        #expect(moved.value(for: 2, facts: PartsTests.facts(at: 22), reads: reads, dayStart: Self.dayStart) == nil)
    }

    /// The close's reading is kept by what a reading reads of the profile: another setting
    /// or day start makes it again; a change a reading does not read (XP) keeps it.
    @Test func theClosingReadingIsKeyedByWhatAReadingReadsOfTheProfile() throws {
        let ruleset = Self.prepared.ruleset
        let base = OperatorProfile(ruleset: ruleset)
        func inputs(_ change: (inout OperatorProfile) -> Void) -> ReadingInputs {
            var profile = base
            change(&profile)
            return ReadingInputs(day: 3, profile: ReadingProfile(ProfileBox(profile, Self.prepared).value), permissions: KnownPermissions())
        }
        let same = inputs { _ in }
        #expect(inputs { $0.xp += 50 } == same)
        #expect(inputs { $0.settings["day_starts_at"] = .time(5 * 3600) } != same)
        let routine = try #require(base.enabledRoutines.sorted().first)
        #expect(inputs { $0.enabledRoutines.remove(routine) } != same)
        var otherDay = same
        otherDay.day = 4
        #expect(otherDay != same)
    }

    /// The reminders read each routine through `routine.progress < 1.0` and the completed gate
    /// through `status == "completed"`: a tick that leaves a routine unfinished keeps the plan,
    /// the tick that finishes it makes the plan again.
    @Test func aPlanStandsUntilARoutineItRemindsOfIsDone() throws {
        let reads = Self.prepared.derived.planReadsWithRoutines
        let value = try Self.slot("routines.skincare.value")
        let progress = try Self.slot("routines.skincare.progress")
        let status = try Self.slot("routines.skincare.status")
        #expect(!reads.slots.contains(value) && !reads.bands.contains { $0.slot == value })
        #expect(reads.bands.contains { $0.slot == progress } && reads.bands.contains { $0.slot == status })
        let skincare = try PartsTests.box("skincare")
        var current = DayState(day: PartsTests.day)
        let memo = Memo(.plan, inputs: 1, facts: PartsTests.facts(current, at: 19), reads: reads, dayStart: Self.dayStart, value: "plan")
        current.ticks = [ChecklistTick(routine: "skincare", item: try #require(skincare.value.items.first), at: PartsTests.at(19))]
        let ticked = PartsTests.facts(current, at: 19)
        #expect(ticked.cell(value).numberValue == 1)
        #expect(memo.value(for: 1, facts: ticked, reads: reads, dayStart: Self.dayStart) == "plan")
        current.ticks = skincare.value.items.map { ChecklistTick(routine: "skincare", item: $0, at: PartsTests.at(19)) }
        #expect(memo.value(for: 1, facts: PartsTests.facts(current, at: 19), reads: reads, dayStart: Self.dayStart) == nil)
    }

    /// The completed gate's band reads a status off its cell, and a status held as a value
    /// (boxed) the same way.
    @Test func aStatusBandTellsCompletedFromTheRest() throws {
        let status = try Self.slot("routines.skincare.status")
        let band = try #require(Self.prepared.derived.planReadsWithRoutines.bands.first { $0.slot == status })
        let check = try #require(band.checks.firstIndex { $0.isText })
        var facts = PartsTests.facts(at: 19)
        func side(_ value: Value) -> UInt8 {
            facts.put(status, value)
            return band.side(check, of: facts.cell(status), facts: facts, dayStart: Self.dayStart)
        }
        #expect(side(.string("completed")) == 1)
        #expect(side(.string("in_progress")) == 0)
        #expect(side(.string("a status longer than a cell holds")) == 0)
        #expect(side(.int(2)) == 0)
        facts.put(status, cell: RoutineStatus.completed.cell)
        #expect(band.side(check, of: facts.cell(status), facts: facts, dayStart: Self.dayStart) == 1)
    }
}
