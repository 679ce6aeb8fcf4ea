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

    /// The side of each band's constants the facts are on, band after band, with the cells
    /// they were read from.
    /// (Bands and checks by index: each one copied out of its array retained its threshold's
    /// constant and fallback, at every plan.)
    func sides(of facts: FactValues, dayStart: Int) -> BandSides {
        var sides: [UInt8] = []
        var cells: [FactCell] = []
        sides.reserveCapacity(bands.count * 2)
        cells.reserveCapacity(bands.count)
        for band in bands.indices {
            let cell = facts.cell(bands[band].slot)
            cells.append(cell)
            for check in bands[band].checks.indices {
                sides.append(bands[band].side(check, of: cell, facts: facts, dayStart: dayStart))
            }
        }
        return BandSides(sides: sides, cells: cells, dayStart: dayStart)
    }

    /// Whether the facts are on the sides `kept` records. A band whose fact holds the value
    /// it was read from (same bits, not boxed; same day start) is on the same sides: its
    /// checks are not made again. Most facts a plan bands do not move between app runs.
    func sidesMatch(_ kept: BandSides, _ facts: FactValues, dayStart: Int) -> Bool {
        let byCells = kept.dayStart == dayStart && kept.cells.count == bands.count
        var position = 0
        for band in bands.indices {
            let cell = facts.cell(bands[band].slot)
            let checks = bands[band].checks.count
            if byCells, cell.sameValueByBits(as: kept.cells[band]) {
                position += checks
                continue
            }
            for check in 0..<checks {
                guard position < kept.sides.count, kept.sides[position] == bands[band].side(check, of: cell, facts: facts, dayStart: dayStart)
                else { return false }
                position += 1
            }
        }
        return position == kept.sides.count
    }
}

/// The sides of the constants a memo's banded facts were on when it was made, the cells they
/// were read from (one a band) and the day start they were read with.
struct BandSides: Sendable {
    var sides: [UInt8]
    var cells: [FactCell]
    var dayStart: Int

    /// Nothing banded.
    static let none = BandSides(sides: [], cells: [], dayStart: 0)
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
