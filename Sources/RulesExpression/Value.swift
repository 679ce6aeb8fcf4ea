/// A run-time value. Times are seconds since midnight (0…86,400), durations seconds,
/// dates days since 1970-01-01; enum cases are their names. `unknown` is the value of an
/// optional fact that is not known (no sleep data, no active quest).
public enum Value: Hashable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case duration(Int)
    case time(Int)
    case date(Int)
    case list([Value])
    case map([String: Value])
    case unknown

    public var description: String {
        switch self {
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .number(let value): return Value.formatNumber(value)
        case .string(let value): return "\"\(value)\""
        case .duration(let seconds): return TimeFormat.duration(seconds)
        case .time(let seconds): return TimeFormat.clock(seconds)
        case .date(let days): return DateFormat.string(days)
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .map(let entries):
            return "{" + entries.keys.sorted().map { "\($0): \(entries[$0]?.description ?? "")" }.joined(separator: ", ") + "}"
        case .unknown: return "unknown"
        }
    }

    /// `0.5`, `3`, `0.333…` (shortest round-trip form, integral values without fraction).
    public static func formatNumber(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    public var isUnknown: Bool {
        if case .unknown = self { return true }
        return false
    }

    /// The numeric value of an int or number.
    public var numeric: Double? {
        switch self {
        case .int(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}

/// Dates as days since 1970-01-01 in the proleptic Gregorian calendar (no time zone:
/// a date here is a logical day, already placed by the engine).
public enum DateFormat {
    /// `2026-06-29` for a day number.
    public static func string(_ days: Int) -> String {
        // Past ±10^12 days the calendar arithmetic would overflow: the number is shown.
        guard abs(Double(days)) <= 1e12 else { return "day \(days)" }
        let (y, m, d) = civil(fromDays: days)
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: Swift.max(0, width - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    /// The day number of `2026-06-29`, or nil if the text is not a valid date.
    public static func days(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), d >= 1, d <= daysInMonth(year: y, month: m)
        else { return nil }
        return days(year: y, month: m, day: d)
    }

    public static func days(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// `mon` … `sun` for a day number (1970-01-01 was a Thursday).
    public static func weekday(_ days: Int) -> String {
        weekdayNames[((days % 7) + 7) % 7]
    }

    private static let weekdayNames = ["thu", "fri", "sat", "sun", "mon", "tue", "wed"]

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int {
    /// `value` rounded toward zero and held within ±2^53 (NaN is 0): a conversion that never
    /// traps, for values the ruleset already bounds (goals, amounts).
    @inlinable
    public init(saturating value: Double) {
        guard value.isFinite else {
            self = value.isNaN ? 0 : (value > 0 ? 9_007_199_254_740_992 : -9_007_199_254_740_992)
            return
        }
        self = Int(Swift.min(Swift.max(value, -9_007_199_254_740_992), 9_007_199_254_740_992))
    }
}
