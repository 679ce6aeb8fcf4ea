import Foundation
import RulesDiagnostics
import RulesExpression

/// Wall-clock arithmetic in one IANA time zone, DST-correct, without `DateFormatter`
/// (which returns nil inside a spring-forward gap). A logical day starts at
/// `day_starts_at`: 01:10 with the default 04:00 still belongs to yesterday.
public struct LocalClock: Sendable, Hashable {
    /// The user's time zone.
    public let timeZone: TimeZone
    /// The zone's one offset from 1990 to 2050 when it kept one (Asia/Seoul): most clock
    /// readings then skip the time-zone database, which is slow and takes a lock.
    let fixedOffset: Int?

    /// A clock reading `timeZone`.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        fixedOffset = Self.fixedOffset(of: timeZone)
    }

    /// Equal when the zones are.
    public static func == (a: LocalClock, b: LocalClock) -> Bool { a.timeZone == b.timeZone }
    /// Hashes the zone.
    public func hash(into hasher: inout Hasher) { hasher.combine(timeZone) }

    /// The zone of an IANA time-zone name, nil for anything else. Only a name of the time-zone
    /// database's zones (`TimeZone.knownTimeZoneIdentifiers`: Asia/Seoul, America/New_York,
    /// Pacific/Kiritimati…), UTC and GMT (also as Etc/UTC, Etc/GMT) and the database's fixed
    /// offsets Etc/GMT-14 … Etc/GMT+12: the system also makes zones of `GMT+15`, `UTC+14`
    /// and `Factory`, which are no place a user lives.
    public init?(identifier: String) {
        // Only a printable name that the system knows as itself: "Asia/Seoul\0" is not
        // Asia/Seoul (and must not quietly run at UTC).
        guard !identifier.isEmpty, identifier.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            Self.isZoneName(identifier), let zone = TimeZone(identifier: identifier)
        else { return nil }
        self.init(timeZone: zone)
    }

    /// The zone names the time-zone database lists (read once).
    static let knownZoneNames = Set(TimeZone.knownTimeZoneIdentifiers)

    /// The hint for a name that is no zone: the nearest zone name when one is close, else
    /// what is accepted.
    public static func zoneHint(for name: String) -> String {
        let accepted = "a zone of the time-zone database such as Asia/Seoul or Europe/Paris, UTC, or a fixed offset Etc/GMT-14 … Etc/GMT+12"
        guard let near = Suggestions.nearest(to: name, among: knownZoneNames.sorted()) else { return accepted }
        return "did you mean '\(near)'? (\(accepted))"
    }

    /// Whether `name` is a zone of the time-zone database (see `init(identifier:)`).
    static func isZoneName(_ name: String) -> Bool {
        if name == "Factory" { return false }
        if knownZoneNames.contains(name) || ["UTC", "GMT", "Etc/UTC", "Etc/GMT"].contains(name) { return true }
        // Etc/GMT-14 … Etc/GMT+12 (POSIX signs: Etc/GMT-9 is nine hours east).
        guard name.hasPrefix("Etc/GMT"), name.count > 8 else { return false }
        let offset = name.dropFirst(7)
        guard let sign = offset.first, sign == "+" || sign == "-", let hours = Int(offset.dropFirst()), String(hours) == offset.dropFirst() else {
            return false
        }
        return sign == "-" ? (1...14).contains(hours) : (1...12).contains(hours)
    }

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: Date) -> Int {
        if let fixedOffset, instant >= Self.fixedSpan.start, instant < Self.fixedSpan.end { return fixedOffset }
        return timeZone.secondsFromGMT(for: Self.bounded(instant))
    }

    /// `instant` within `InputLimits.engineSeconds` (which the engine refuses to leave at its
    /// door): outside, the nearest end of the range (NaN: its start).
    static func bounded(_ instant: Date) -> Date {
        let range = InputLimits.engineSeconds
        let since1970 = instant.timeIntervalSince1970
        if range.contains(since1970) { return instant }
        return Date(timeIntervalSince1970: since1970 > range.upperBound ? range.upperBound : range.lowerBound)
    }

    /// The calendar day (days since 1970-01-01) and seconds since local midnight of `instant`.
    /// An instant outside `InputLimits.engineSeconds` (which the engine refuses at its door)
    /// reads as the nearest end of that range, never as an overflow.
    public func local(_ instant: Date) -> (day: Int, seconds: Int) {
        let instant = Self.bounded(instant)
        let wall = Int(instant.timeIntervalSince1970.rounded(.down)) + offset(at: instant)
        let day = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
        return (day, wall - day * 86_400)
    }

    /// The logical day of `instant` and its wall time (seconds since local midnight).
    public func logical(_ instant: Date, dayStart: Int) -> (day: Int, seconds: Int) {
        let (day, seconds) = local(instant)
        return (seconds < dayStart ? day - 1 : day, seconds)
    }

    /// The time of day `instant` reads as inside logical day `day` (nil: its own): its wall
    /// time, or `dayStart` while this clock is still before that day began — after a
    /// westward trip (Seoul 15:00 → New York 02:00) the hours gained are not the day's late
    /// night, and no time reads as belonging to a day before the one in progress.
    public func timeOfDay(_ instant: Date, inLogicalDay day: Int?, dayStart: Int) -> Int {
        let (logicalDay, seconds) = logical(instant, dayStart: dayStart)
        if let day, logicalDay < day { return dayStart }
        return seconds
    }

    /// The instant of wall time `seconds` on calendar day `day`. A time skipped by a DST
    /// change moves forward by the gap; a repeated time takes its first occurrence.
    public func instant(day: Int, seconds: Int) -> Date {
        // Bounded far outside the days the engine lives, so the arithmetic cannot overflow.
        let wall = Swift.min(Swift.max(day, -10_000_000), 10_000_000) * 86_400 + Swift.min(Swift.max(seconds, -1_000_000_000), 1_000_000_000)
        if let fixedOffset {
            let instant = Date(timeIntervalSince1970: TimeInterval(wall - fixedOffset))
            if instant >= Self.fixedSpan.start.addingTimeInterval(86_400), instant < Self.fixedSpan.end.addingTimeInterval(-86_400) { return instant }
        }
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

    /// The same wall time one day after `instant`, when the zone keeps one offset over both
    /// (then a day is 86,400 seconds and every duration between shifted instants stays as it
    /// was); nil in a zone with transitions, where a caller works the later day out afresh.
    func sameWallTimeNextDay(_ instant: Date) -> Date? {
        guard fixedOffset != nil, instant >= Self.fixedSpan.start.addingTimeInterval(86_400) else { return nil }
        let later = instant.addingTimeInterval(86_400)
        return later < Self.fixedSpan.end.addingTimeInterval(-86_400) ? later : nil
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
        guard (0...9999).contains(year) else {
            return String(year) + (month < 10 ? "0" : "") + String(month) + (date < 10 ? "0" : "") + String(date)
        }
        // Eight digits written in place (five string appends cost ~1,500 instructions).
        return String(unsafeUninitializedCapacity: 8) { buffer in
            guard buffer.count >= 8 else { return 0 }
            let number = year * 10_000 + month * 100 + date
            var rest = number
            for index in stride(from: 7, through: 0, by: -1) {
                buffer[index] = UInt8(48 + rest % 10)
                rest /= 10
            }
            return 8
        }
    }

    private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}

extension LocalClock {
    /// The span a fixed offset must hold over: 1990-01-01 to 2050-01-01.
    static let fixedSpan = (start: Date(timeIntervalSince1970: 631_152_000), end: Date(timeIntervalSince1970: 2_524_608_000))

    /// The zone's one offset over `fixedSpan` when it kept one: no transition the time-zone
    /// data reports in between, and the same offset at every new year and at the end (a change
    /// of standard time, where a platform reports only daylight saving's transitions). About
    /// sixty readings, a microsecond or two: asked at every clock made, never kept in a cache.
    static func fixedOffset(of zone: TimeZone) -> Int? {
        let first = zone.secondsFromGMT(for: fixedSpan.start)
        if let next = zone.nextDaylightSavingTimeTransition(after: fixedSpan.start), next < fixedSpan.end { return nil }
        var instant = fixedSpan.start
        while instant < fixedSpan.end {
            if zone.secondsFromGMT(for: instant) != first { return nil }
            instant = instant.addingTimeInterval(365 * 86_400)
        }
        return zone.secondsFromGMT(for: fixedSpan.end) == first ? first : nil
    }
}
