import RulesExpression

/// What happens to a candidate inside quiet hours.
public enum QuietHoursHandling: String, Sendable, CaseIterable, Codable {
    /// Refused (`quiet_hours`).
    case drop
    /// Held to the end of quiet hours (and dropped as `stale` past `expires_after`).
    case `defer`
    /// Delivered anyway (bedtime).
    case allow
}

/// iOS interruption levels the rules may use; `critical` is never allowed.
public enum InterruptionLevel: String, Sendable, CaseIterable, Codable {
    case passive, active
    case timeSensitive = "time_sensitive"
}

/// Buttons a notification may carry (seeds 6.7, 7.6).
public enum NotificationAction: String, Sendable, CaseIterable, Codable {
    case openApp = "open_app"
    case startRecovery = "start_recovery"
    case skipToday = "skip_today"
    case logWater250 = "log_water_250"
    case completeSupplement = "complete_supplement"
    case completeSkincare = "complete_skincare"
}

/// One notification type (`notifications:`, SPEC §5.6).
public struct NotificationRule: Sendable {
    public var id: String
    public var category: String
    /// The fire time: a time, or an optional time (unknown → no candidate that day).
    public var at: CompiledExpression
    /// Condition evaluated with `now` at the fire time; nil means always.
    public var when: CompiledExpression?
    public var template: String
    /// Template id of the title, if any (obeys the same redaction as the body).
    public var title: String?
    public var deepLink: String?
    public var actions: [NotificationAction]
    public var priority: Int
    public var inQuietHours: QuietHoursHandling
    /// A deferred candidate older than this is dropped as `stale` (seconds).
    public var expiresAfter: Int?
    public var interruptionLevel: InterruptionLevel
    /// `true` for `for_each: routine`: one candidate per enabled routine with a reminder.
    public var perRoutine: Bool
    public var origin: Origin
    /// Where the `at:` and `when:` values start.
    public var atOrigin: Origin
    public var whenOrigin: Origin?
    /// Where the `template:` and `title:` values are.
    public var templateOrigin: Origin?
    public var titleOrigin: Origin?
}

/// How a type weakens after being ignored.
public enum WeakenEffect: String, Sendable, CaseIterable, Codable {
    /// Delivered with interruption level passive and relevance 0.2.
    case passive
    /// Delivered on alternate days counted from the weakening.
    case everyOtherDay = "every_other_day"
    /// Not delivered at all.
    case off
}

/// `policy:` — the gates every candidate passes.
public struct NotificationPolicy: Sendable, Hashable {
    public var maxPerDay: Int
    /// Seconds between deliveries of one category.
    public var categoryCooldown: Int
    /// Start and end of quiet hours, seconds since midnight; start included, end excluded.
    public var quietHours: (start: Int, end: Int)?
    public var weakenAfterIgnored: Int
    public var weakenEffect: WeakenEffect
    public var cancelWhenCompleted: Bool
    public var maxPending: Int
    public var origin: Origin

    public init(
        maxPerDay: Int = 3, categoryCooldown: Int = 90 * 60, quietHours: (start: Int, end: Int)? = nil,
        weakenAfterIgnored: Int = 3, weakenEffect: WeakenEffect = .passive, cancelWhenCompleted: Bool = true,
        maxPending: Int = 64, origin: Origin = .unknown
    ) {
        self.maxPerDay = maxPerDay
        self.categoryCooldown = categoryCooldown
        self.quietHours = quietHours
        self.weakenAfterIgnored = weakenAfterIgnored
        self.weakenEffect = weakenEffect
        self.cancelWhenCompleted = cancelWhenCompleted
        self.maxPending = maxPending
        self.origin = origin
    }

    public static func == (a: NotificationPolicy, b: NotificationPolicy) -> Bool {
        a.maxPerDay == b.maxPerDay && a.categoryCooldown == b.categoryCooldown
            && a.quietHours?.start == b.quietHours?.start && a.quietHours?.end == b.quietHours?.end
            && a.weakenAfterIgnored == b.weakenAfterIgnored && a.weakenEffect == b.weakenEffect
            && a.cancelWhenCompleted == b.cancelWhenCompleted && a.maxPending == b.maxPending
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(maxPerDay)
        hasher.combine(categoryCooldown)
        hasher.combine(quietHours?.start)
        hasher.combine(quietHours?.end)
    }

    /// Whether `time` (seconds since midnight) lies in quiet hours (start included, end
    /// excluded; hours may cross midnight).
    public func isQuiet(_ time: Int) -> Bool {
        guard let quiet = quietHours, quiet.start != quiet.end else { return false }
        let t = time % 86_400
        if quiet.start < quiet.end { return t >= quiet.start && t < quiet.end }
        return t >= quiet.start || t < quiet.end
    }
}
