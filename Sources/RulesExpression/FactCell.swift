/// One fact's value in sixteen bytes that copy as plain bits (no reference counting, nothing
/// to destroy): bools, numbers, times, dates and durations in place, strings of up to 14
/// UTF-8 bytes inline (every enum case, weekday, status and most names), and anything else —
/// longer text, lists, maps — as the index of a boxed value of its `FactValues`.
///
/// An engine fills about a hundred facts at every reading and copies, compares and frees
/// them many times per app run; as `Value`s each of those steps went through the enum's
/// value witnesses and string reference counts.
@frozen
public struct FactCell: Sendable {
    /// Low byte: the kind; for an inline string the next byte is its length and the rest
    /// its first six bytes (see `string(_:)`).
    @usableFromInline var head: UInt64
    /// A scalar's payload, or bytes 7…14 of an inline string.
    @usableFromInline var tail: UInt64

    @usableFromInline
    enum Kind: UInt8 {
        case unknown, bool, int, number, duration, time, date, string, boxed
    }

    @inlinable
    init(head: UInt64, tail: UInt64) {
        self.head = head
        self.tail = tail
    }

    @inlinable
    init(_ kind: Kind, _ payload: UInt64) {
        head = UInt64(kind.rawValue)
        tail = payload
    }

    @inlinable @inline(__always)
    var kind: Kind {
        switch UInt8(truncatingIfNeeded: head) {
        case 1: .bool
        case 2: .int
        case 3: .number
        case 4: .duration
        case 5: .time
        case 6: .date
        case 7: .string
        case 8: .boxed
        default: .unknown
        }
    }

    @inlinable
    public var isBoxed: Bool { UInt8(truncatingIfNeeded: head) == Kind.boxed.rawValue }

    public static let unknown = FactCell(.unknown, 0)
    @inlinable public static func bool(_ value: Bool) -> FactCell { FactCell(.bool, value ? 1 : 0) }
    @inlinable public static func int(_ value: Int) -> FactCell { FactCell(.int, UInt64(bitPattern: Int64(value))) }
    @inlinable public static func number(_ value: Double) -> FactCell { FactCell(.number, value.bitPattern) }
    @inlinable public static func time(_ seconds: Int) -> FactCell { FactCell(.time, UInt64(bitPattern: Int64(seconds))) }
    @inlinable public static func date(_ days: Int) -> FactCell { FactCell(.date, UInt64(bitPattern: Int64(days))) }
    @inlinable public static func duration(_ seconds: Int) -> FactCell { FactCell(.duration, UInt64(bitPattern: Int64(seconds))) }

    /// A cell that stands for the `index`-th boxed value its facts share (see
    /// `FactValues.init(base:sharing:filling:)`); outside them it reads as `unknown`.
    @inlinable public static func boxed(_ index: Int) -> FactCell { FactCell(.boxed, UInt64(Swift.max(0, index))) }

    /// The longest string held inline, in UTF-8 bytes.
    public static let inlineCapacity = 14

    /// `text` inline; nil when it is longer than `inlineCapacity` bytes (it is boxed then).
    public static func string(_ text: String) -> FactCell? {
        var text = text
        return text.withUTF8 { bytes -> FactCell? in
            guard bytes.count <= inlineCapacity else { return nil }
            // Bytes in memory order, then read as little-endian words: the same cell on
            // every platform, and `stringValue` reads them back the same way.
            var raw: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &raw) { out in
                out[0] = Kind.string.rawValue
                out[1] = UInt8(bytes.count)
                if let base = bytes.baseAddress, bytes.count > 0 {
                    UnsafeMutableRawBufferPointer(rebasing: out[2..<(2 + bytes.count)]).copyMemory(
                        from: UnsafeRawBufferPointer(start: base, count: bytes.count))
                }
            }
            return FactCell(head: UInt64(littleEndian: raw.0), tail: UInt64(littleEndian: raw.1))
        }
    }

    /// The cell of `value`, nil when it must be boxed (a long string, a list, a map).
    @inlinable
    public init?(_ value: Value) {
        switch value {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .number(let value): self = .number(value)
        case .duration(let value): self = .duration(value)
        case .time(let value): self = .time(value)
        case .date(let value): self = .date(value)
        case .string(let text):
            guard let cell = FactCell.string(text) else { return nil }
            self = cell
        case .unknown: self = .unknown
        case .list, .map: return nil
        }
    }

    @inlinable public var isUnknown: Bool { UInt8(truncatingIfNeeded: head) == Kind.unknown.rawValue }

    @inlinable
    var integer: Int { Int(truncatingIfNeeded: Int64(bitPattern: tail)) }

    /// The text of an inline string.
    @usableFromInline
    var stringValue: String {
        var raw = (head.littleEndian, tail.littleEndian)
        let count = Swift.min(Int(UInt8(truncatingIfNeeded: head >> 8)), FactCell.inlineCapacity)
        return withUnsafeBytes(of: &raw) { bytes in
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[2..<(2 + count)]), as: UTF8.self)
        }
    }

    /// Whether an inline string is all ASCII (then bytes that differ are different text;
    /// otherwise two spellings may be canonically equal).
    @usableFromInline
    var isASCIIString: Bool {
        // The length byte is under 0x80, the kind too: only text bytes can set a high bit.
        (head & 0x8080_8080_8080_8080) == 0 && (tail & 0x8080_8080_8080_8080) == 0
    }

    /// Same bits: the same value (the converse does not hold: `0` and `-0`, or two
    /// spellings of one Korean text, differ in bits). Boxed cells compare their index only.
    @inlinable
    public func sameBits(as other: FactCell) -> Bool { head == other.head && tail == other.tail }

    /// Same bits and not boxed: the same value whatever facts each cell belongs to (a boxed
    /// cell's index means something only in its own facts).
    @inlinable
    public func sameValueByBits(as other: FactCell) -> Bool { head == other.head && tail == other.tail && !isBoxed }

    /// A number's value (ints widened), nil for other kinds.
    @inlinable public var numberValue: Double? { numeric }

    /// A time of day's seconds, nil for other kinds.
    @inlinable public var timeValue: Int? { kind == .time ? integer : nil }
    /// Whether the cell holds an all-ASCII string inline: two such cells hold the same text
    /// exactly when their bits are the same.
    @inlinable public var isASCIIInlineString: Bool { kind == .string && isASCIIString }

    @inlinable
    var numeric: Double? {
        switch kind {
        case .int: Double(integer)
        case .number: Double(bitPattern: tail)
        default: nil
        }
    }
}

/// The values of every fact for one evaluation, by slot (`FactSchema.Fact.slot`), as
