import Foundation
import RulesExpression

/// What a part of an app run reads of its facts (a plan, a line, a table): slots whose value
/// matters, and bands — facts read only against constants, whose side of each matters.
struct FactReads: Sendable {
    var slots: [Int]
    var bands: [PlanBand]

    /// Nothing read.
    static let nothing = FactReads(slots: [], bands: [])

    /// Every slot read, either way (as the facts graph lists them).
    var allSlots: [Int] { slots + bands.map(\.slot) }

    /// The cells the bands were read from, and the sides of the bands whose cell is boxed
    /// (its index means something only in these facts; every other cell is its own value,
    /// and its sides are worked out again when they are needed).
    /// (Bands and checks by index: each one copied out of its array retained its threshold's
    /// constant and fallback, at every plan.)
    func sides(of facts: FactValues, dayStart: Int) -> BandSides {
        var cells: [FactCell] = []
        var boxedSides: [UInt8] = []
        cells.reserveCapacity(bands.count)
        for band in bands.indices {
            let cell = facts.cell(bands[band].slot)
            cells.append(cell)
            guard cell.isBoxed else { continue }
            for check in bands[band].checks.indices {
                boxedSides.append(bands[band].side(check, of: cell, facts: facts, dayStart: dayStart))
            }
        }
        return BandSides(cells: cells, boxedSides: boxedSides, dayStart: dayStart)
    }

    /// Whether the facts are on the sides of the constants `kept` was on. A band whose fact
    /// holds the value it was read from (same bits, not boxed) under the same day start is
    /// on the same sides: its checks are not made. Most facts a plan bands do not move
    /// between app runs. A band whose fact moved compares each check's side for the new cell
    /// with the side for the kept one, under the day start it was read with.
    func sidesMatch(_ kept: BandSides, _ facts: FactValues, dayStart: Int) -> Bool {
        guard kept.cells.count == bands.count else { return false }
        let sameDayStart = kept.dayStart == dayStart
        var boxed = 0
        for band in bands.indices {
            let cell = facts.cell(bands[band].slot)
            let old = kept.cells[band]
            if sameDayStart, cell.sameValueByBits(as: old) { continue }
            for check in bands[band].checks.indices {
                let side = bands[band].side(check, of: cell, facts: facts, dayStart: dayStart)
                let oldSide: UInt8
                if old.isBoxed {
                    guard boxed < kept.boxedSides.count else { return false }
                    oldSide = kept.boxedSides[boxed]
                    boxed += 1
                } else {
                    // An unboxed cell reads the same in any facts (see `PlanBand.side`).
                    oldSide = bands[band].side(check, of: old, facts: facts, dayStart: kept.dayStart)
                }
                if side != oldSide { return false }
            }
        }
        return true
    }
}

/// The cells a memo's banded facts held when it was made (one a band), the sides of the
/// bands whose cell was boxed (check after check, band after band), and the day start they
/// were read with.
struct BandSides: Sendable {
    var cells: [FactCell]
    var boxedSides: [UInt8]
    var dayStart: Int

    /// Nothing banded.
    static let none = BandSides(cells: [], boxedSides: [], dayStart: 0)
}

/// A fact a plan reads only through comparisons with constants, and those comparisons.
/// What a check reads at every app run (`checks`) is plain values, copied without a retain;
/// the thresholds themselves are read only on the rare paths (an unknown value whose
/// fallback is not a cell, text that is not ASCII).
struct PlanBand: Sendable {
    let slot: Int
    let thresholds: [Threshold]
    let checks: [BandCheck]

    init(slot: Int, thresholds: [Threshold]) {
        self.slot = slot
        self.thresholds = thresholds
        checks = thresholds.map(BandCheck.init)
    }

    /// The side of check `index`'s constant a value is on (its cell `cell` of `facts`): 1
    /// holds, 0 does not, 2 neither (see `Threshold.side`).
    func side(_ index: Int, of cell: FactCell, facts: FactValues, dayStart: Int) -> UInt8 {
        let check = checks[index]
        var cell = cell
        if cell.isUnknown {
            guard let fallback = check.fallback else {
                return check.hasFallback ? thresholds[index].side(of: .unknown, dayStart: dayStart) : 2
            }
            cell = fallback
        }
        if check.isText {
            // ASCII text inline is the same text exactly when the bits are (no `Value` made).
            if let text = check.textCell, cell.isASCIIInlineString { return cell.sameBits(as: text) ? 1 : 0 }
            guard case .string(let value) = facts.value(of: cell), case .string(let text) = thresholds[index].constant else { return 0 }
            return value == text ? 1 : 0
        }
        // Read off the cell (no `Value` made).
        if let time = check.time {
            guard let value = cell.timeValue else { return 2 }
            let (a, b) = (EvaluationContext.logical(value, dayStart: dayStart), EvaluationContext.logical(time, dayStart: dayStart))
            return Threshold.compare(check.op, a, b) ? 1 : 0
        }
        guard let number = check.number, let value = cell.numberValue else { return 2 }
        return Threshold.compare(check.op, value, number) ? 1 : 0
    }
}

/// One comparison of a banded fact, as plain values (see `PlanBand.side`): the constant as a
/// number, a time of day, or a string compared for equality (the completed gate's status;
/// its inline cell when it is all ASCII), and the fallback's cell.
struct BandCheck: Sendable {
    let op: BinaryOperator
    let number: Double?
    let time: Int?
    let isText: Bool
    let textCell: FactCell?
    let fallback: FactCell?
    /// Whether the threshold has a fallback (`fallback` is nil when it is not a cell).
    let hasFallback: Bool

    init(_ threshold: Threshold) {
        op = threshold.op
        switch threshold.constant {
        case .time(let seconds): (time, number, isText, textCell) = (seconds, nil, false, nil)
        case .string(let text):
            (time, number, isText) = (nil, nil, true)
            textCell = FactCell.string(text).flatMap { $0.isASCIIInlineString ? $0 : nil }
        default: (time, number, isText, textCell) = (nil, threshold.constant.numeric, false, nil)
        }
        fallback = threshold.fallback.flatMap(FactCell.init)
        hasFallback = threshold.fallback != nil
    }
}
