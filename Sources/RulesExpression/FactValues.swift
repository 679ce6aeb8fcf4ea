/// `FactCell`s with the few values that do not fit a cell boxed beside them. Slots the
/// engine does not fill are `unknown`. Up to three slots can be patched without copying
/// the (possibly shared) cells: an app run sets `risk` and `event` on its reading, the
/// planner moves `now` and `risk` to each candidate's fire time.
public struct FactValues: Sendable {
    @usableFromInline var cells: [FactCell]
    /// Values a cell cannot hold, each referred to by the one slot whose cell is `boxed`.
    @usableFromInline var boxed: [Value]

    /// One overridden slot (slot -1: none); only values that fit a cell are patched.
    @usableFromInline
    struct Patch: Sendable {
        @usableFromInline var slot: Int
        @usableFromInline var cell: FactCell
        @usableFromInline static let none = Patch(slot: -1, cell: .unknown)
        @inlinable
        init(slot: Int, cell: FactCell) {
            self.slot = slot
            self.cell = cell
        }
    }
    @usableFromInline var firstPatch = Patch.none
    @usableFromInline var secondPatch = Patch.none
    @usableFromInline var thirdPatch = Patch.none

    public init(schema: FactSchema) {
        self.init(count: schema.slotCount)
    }

    public init(count: Int) {
        cells = Array(repeating: .unknown, count: Swift.max(0, count))
        boxed = []
    }

    /// Facts written straight into fresh cells (every slot starts `unknown`): one
    /// allocation, no uniqueness check or patch lookup per fact.
    /// `shared`: boxed values the builder's `put(_:boxed:)` refers to (values every reading
    /// holds, such as a map setting: shared, not boxed again at each reading).
    @inlinable
    public init(count: Int, sharing shared: [Value] = [], filling fill: (inout FactBuilder) -> Void) {
        var boxed = shared
        cells = [FactCell](unsafeUninitializedCapacity: Swift.max(0, count)) { buffer, initialized in
            buffer.initialize(repeating: .unknown)
            initialized = buffer.count
            var builder = FactBuilder(buffer: buffer, boxed: boxed)
            boxed = []
            fill(&builder)
            boxed = builder.boxed
        }
        self.boxed = boxed
    }

    /// Facts that start as `base` (cells every reading shares, such as settings) and are
    /// then written in place: one copy of the cells, no uniqueness check per fact.
    @inlinable
    public init(base: [FactCell], sharing shared: [Value], filling fill: (inout FactBuilder) -> Void) {
        var cells = base
        var boxed = shared
        cells.withUnsafeMutableBufferPointer { buffer in
            var builder = FactBuilder(buffer: buffer, boxed: boxed)
            boxed = []
            fill(&builder)
            boxed = builder.boxed
        }
        self.cells = cells
        self.boxed = boxed
    }

    /// Number of slots.
    @inlinable public var count: Int { cells.count }

    /// The cell of a slot (patches first); `unknown` outside the slots.
    @inlinable @inline(__always)
    public func cell(_ slot: Int) -> FactCell {
        if firstPatch.slot == slot, slot >= 0 { return firstPatch.cell }
        if secondPatch.slot == slot, slot >= 0 { return secondPatch.cell }
        if thirdPatch.slot == slot, slot >= 0 { return thirdPatch.cell }
        return slot >= 0 && slot < cells.count ? cells[slot] : .unknown
    }

    /// The value a cell of these facts stands for.
    @inlinable
    public func value(of cell: FactCell) -> Value {
        switch cell.kind {
        case .unknown: return .unknown
        case .bool: return .bool(cell.tail != 0)
        case .int: return .int(cell.integer)
        case .number: return .number(Double(bitPattern: cell.tail))
        case .duration: return .duration(cell.integer)
        case .time: return .time(cell.integer)
        case .date: return .date(cell.integer)
        case .string: return .string(cell.stringValue)
        case .boxed:
            let index = Int(truncatingIfNeeded: cell.tail)
            return index >= 0 && index < boxed.count ? boxed[index] : .unknown
        }
    }

    @inlinable
    public subscript(slot: Int) -> Value {
        get { value(of: cell(slot)) }
        set {
            unpatch(slot)
            guard slot >= 0, slot < cells.count else { return }
            if let cell = FactCell(newValue) {
                if cells[slot].isBoxed { release(slot) }
                cells[slot] = cell
            } else {
                box(newValue, at: slot)
            }
        }
    }

    /// Sets a slot to a ready cell (never a boxed one: use the subscript for those).
    @inlinable @inline(__always)
    public mutating func put(_ slot: Int, cell: FactCell) {
        unpatch(slot)
        guard slot >= 0, slot < cells.count, !cell.isBoxed else { return }
        if cells[slot].isBoxed { release(slot) }
        cells[slot] = cell
    }

    /// Overrides one slot without touching the (possibly shared) cells; a fourth patch, or
    /// a value that does not fit a cell, is written into them.
    @inlinable
    public mutating func patch(_ slot: Int, _ value: Value) {
        guard slot >= 0 else { return }
        guard let cell = FactCell(value) else {
            self[slot] = value
            return
        }
        patch(slot, cell: cell)
    }

    /// `patch` with a ready cell.
    @inlinable @inline(__always)
    public mutating func patch(_ slot: Int, cell: FactCell) {
        guard slot >= 0, !cell.isBoxed else { return }
        if firstPatch.slot < 0 || firstPatch.slot == slot {
            firstPatch = Patch(slot: slot, cell: cell)
        } else if secondPatch.slot < 0 || secondPatch.slot == slot {
            secondPatch = Patch(slot: slot, cell: cell)
        } else if thirdPatch.slot < 0 || thirdPatch.slot == slot {
            thirdPatch = Patch(slot: slot, cell: cell)
        } else {
            put(slot, cell: cell)
        }
    }

    /// Drops every patch (what the slots hold underneath shows again).
    @inlinable
    public mutating func removePatches() {
        firstPatch = .none
        secondPatch = .none
        thirdPatch = .none
    }

    /// Writes many slots at once: patches are written into the cells first, then `body`
    /// writes straight into them (one uniqueness check for all its writes).
    @inlinable
    public mutating func update(_ body: (inout FactBuilder) -> Void) {
        if firstPatch.slot >= 0 || secondPatch.slot >= 0 || thirdPatch.slot >= 0 {
            let patches = (firstPatch, secondPatch, thirdPatch)
            removePatches()
            put(patches.0.slot, cell: patches.0.cell)
            put(patches.1.slot, cell: patches.1.cell)
            put(patches.2.slot, cell: patches.2.cell)
        }
        var values = boxed
        boxed = []
        cells.withUnsafeMutableBufferPointer { buffer in
            var builder = FactBuilder(buffer: buffer, boxed: values)
            values = []
            body(&builder)
            values = builder.boxed
        }
        boxed = values
    }

    /// Sets a fact by name; names the schema does not know are ignored.
    public mutating func set(_ name: String, _ value: Value, in schema: FactSchema) {
        if let fact = schema.fact(named: name) { self[fact.slot] = value }
    }

    /// Whether a slot holds the same value in `self` and in `other` (cells compared by
    /// bits, boxed values by value): false may still mean equal values, never the reverse.
    @inlinable
    public func same(_ slot: Int, as other: FactValues) -> Bool {
        let mine = cell(slot)
        let theirs = other.cell(slot)
        if mine.kind == .boxed || theirs.kind == .boxed {
            return mine.kind == theirs.kind && value(of: mine) == other.value(of: theirs)
        }
        return mine.sameBits(as: theirs)
    }

    @inlinable @inline(__always)
    mutating func unpatch(_ slot: Int) {
        if firstPatch.slot == slot { firstPatch = .none }
        if secondPatch.slot == slot { secondPatch = .none }
        if thirdPatch.slot == slot { thirdPatch = .none }
    }

    /// Lets go of a slot's boxed value (its entry is reused by the next boxed write).
    @usableFromInline
    mutating func release(_ slot: Int) {
        guard cells[slot].isBoxed else { return }
        let index = Int(truncatingIfNeeded: cells[slot].tail)
        if index >= 0, index < boxed.count { boxed[index] = .unknown }
    }

    /// Boxes a value for a slot: in the slot's own entry, else a free one, else a new one
    /// (so that rewriting slots never grows the boxed values past one per slot).
    @usableFromInline
    mutating func box(_ value: Value, at slot: Int) {
        if cells[slot].kind == .boxed {
            let index = Int(truncatingIfNeeded: cells[slot].tail)
            if index >= 0, index < boxed.count {
                boxed[index] = value
                return
            }
        }
        let index: Int
        if let free = boxed.firstIndex(where: \.isUnknown) {
            boxed[free] = value
            index = free
        } else {
            boxed.append(value)
            index = boxed.count - 1
        }
        cells[slot] = FactCell(.boxed, UInt64(index))
    }
}

/// Writes facts into fresh cells in place (see `FactValues.init(count:filling:)`).
public struct FactBuilder {
    @usableFromInline let buffer: UnsafeMutableBufferPointer<FactCell>
    @usableFromInline var boxed: [Value] = []

    @inlinable
    init(buffer: UnsafeMutableBufferPointer<FactCell>, boxed: [Value]) {
        self.buffer = buffer
        self.boxed = boxed
    }

    /// Sets a slot to the shared boxed value at `index` (see `FactValues.init(count:sharing:filling:)`).
    @inlinable @inline(__always)
    public mutating func put(_ slot: Int?, boxed index: Int) {
        guard let slot, slot >= 0, slot < buffer.count, index >= 0, index < boxed.count else { return }
        buffer[slot] = FactCell(.boxed, UInt64(index))
    }

    /// Sets a slot the layout has (nil: the ruleset has no such fact).
    @inlinable @inline(__always)
    public mutating func put(_ slot: Int?, cell: FactCell) {
        guard let slot, slot >= 0, slot < buffer.count, !cell.isBoxed else { return }
        buffer[slot] = cell
    }

    @inlinable @inline(__always)
    public mutating func put(_ slot: Int?, _ value: Value) {
        guard let slot, slot >= 0, slot < buffer.count else { return }
        if let cell = FactCell(value) {
            buffer[slot] = cell
        } else {
            boxed.append(value)
            buffer[slot] = FactCell(.boxed, UInt64(boxed.count - 1))
        }
    }
}

/// What some slots held, to tell cheaply whether they still hold the same (a key for work
/// kept from an earlier run: bits compared, boxed values by value).
public struct FactSample: Sendable, Equatable {
    @usableFromInline var cells: [FactCell]
    /// The boxed values among them, in slot order.
    @usableFromInline var boxed: [Value]

    public static let empty = FactSample(cells: [], boxed: [])

    @inlinable
    init(cells: [FactCell], boxed: [Value]) {
        self.cells = cells
        self.boxed = boxed
    }

    public init(_ facts: FactValues, slots: [Int]) {
        var boxed: [Value] = []
        cells = slots.map { slot in
            let cell = facts.cell(slot)
            guard cell.kind == .boxed else { return cell }
            boxed.append(facts.value(of: cell))
            return FactCell(.boxed, UInt64(boxed.count - 1))
        }
        self.boxed = boxed
    }

    /// Whether `facts` holds in `slots` what this sample took (false may mean equal values
    /// in other bits — a miss, never a wrong hit).
    public func matches(_ facts: FactValues, slots: [Int]) -> Bool {
        guard slots.count == cells.count else { return false }
        for index in slots.indices {
            let cell = facts.cell(slots[index])
            let kept = cells[index]
            if kept.kind == .boxed || cell.kind == .boxed {
                guard kept.kind == cell.kind else { return false }
                let keptIndex = Int(truncatingIfNeeded: kept.tail)
                guard keptIndex < boxed.count, boxed[keptIndex] == facts.value(of: cell) else { return false }
            } else if !kept.sameBits(as: cell) {
                return false
            }
        }
        return true
    }

    public static func == (lhs: FactSample, rhs: FactSample) -> Bool {
        guard lhs.cells.count == rhs.cells.count, lhs.boxed == rhs.boxed else { return false }
        for index in lhs.cells.indices where !lhs.cells[index].sameBits(as: rhs.cells[index]) { return false }
        return true
    }
}
