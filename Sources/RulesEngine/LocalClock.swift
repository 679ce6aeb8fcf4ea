import Foundation
import RulesExpression

/// Wall-clock arithmetic in one IANA time zone, DST-correct, without `DateFormatter`
/// (which returns nil inside a spring-forward gap). A logical day starts at
/// `day_starts_at`: 01:10 with the default 04:00 still belongs to yesterday.
public struct LocalClock: Sendable, Hashable {
    public let timeZone: TimeZone

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// `TimeZone(identifier:)` or nil for an unknown IANA name.
    public init?(identifier: String) {
        // Only a printable name that the system knows as itself: "Asia/Seoul\0" is not
        // Asia/Seoul (and must not quietly run at UTC).
        guard !identifier.isEmpty, identifier.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            let zone = TimeZone(identifier: identifier)
        else { return nil }
        timeZone = zone
    }

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: Date) -> Int { timeZone.secondsFromGMT(for: instant) }

    /// The calendar day (days since 1970-01-01) and seconds since local midnight of `instant`.
    public func local(_ instant: Date) -> (day: Int, seconds: Int) {
        let wall = Int(instant.timeIntervalSince1970.rounded(.down)) + offset(at: instant)
        let day = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
        return (day, wall - day * 86_400)
    }

    /// The logical day of `instant` and its wall time (seconds since local midnight).
    public func logical(_ instant: Date, dayStart: Int) -> (day: Int, seconds: Int) {
        let (day, seconds) = local(instant)
        return (seconds < dayStart ? day - 1 : day, seconds)
    }

    /// The instant of wall time `seconds` on calendar day `day`. A time skipped by a DST
    /// change moves forward by the gap; a repeated time takes its first occurrence.
    public func instant(day: Int, seconds: Int) -> Date {
        let wall = day * 86_400 + seconds
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall - 86_400)))
        let after = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall + 86_400)))
        let early = wall - before
        let late = wall - after
        let earlyValid = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(early))) == before
        let lateValid = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(late))) == after
        switch (earlyValid, lateValid) {
        case (true, true): return Date(timeIntervalSince1970: TimeInterval(Swift.min(early, late)))
        case (true, false): return Date(timeIntervalSince1970: TimeInterval(early))
        case (false, true): return Date(timeIntervalSince1970: TimeInterval(late))
        case (false, false): return Date(timeIntervalSince1970: TimeInterval(early))
        }
    }

    /// The instant of a wall time inside logical `day`: times before `dayStart` fall on the
    /// next calendar day (the early hours after midnight).
    public func instant(logicalDay day: Int, seconds: Int, dayStart: Int) -> Date {
        let wrapped = ((seconds % 86_400) + 86_400) % 86_400
        return instant(day: wrapped < dayStart ? day + 1 : day, seconds: wrapped)
    }

    /// `2026-06-29T21:10:00+09:00`.
    public func iso8601(_ instant: Date) -> String {
        let (day, seconds) = local(instant)
        let offset = self.offset(at: instant)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return "\(DateFormat.string(day))T\(pad(seconds / 3600)):\(pad(seconds % 3600 / 60)):\(pad(seconds % 60))"
            + "\(sign)\(pad(magnitude / 3600)):\(pad(magnitude % 3600 / 60))"
    }

    /// `20260629` for request ids.
    public static func compactDate(_ day: Int) -> String {
        let (year, month, date) = DateFormat.civil(fromDays: day)
        return String(year) + (month < 10 ? "0" : "") + String(month) + (date < 10 ? "0" : "") + String(date)
    }

    private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
