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
    /// Unique id: the request id's first part and the type that `notifications.<id>.*` facts name.
    public var id: String
    /// Category: the cooldown counts per category, and the thread is `thread.<category>`.
    public var category: String
    /// The fire time: a time, or an optional time (unknown → no candidate that day).
    public var at: CompiledExpression
    /// Condition evaluated with `now` at the fire time; nil means always.
    public var when: CompiledExpression?
    /// Template id of the text.
    public var template: String
    /// Template id of the title, if any (obeys the same redaction as the body).
    public var title: String?
    /// Where a tap opens the app (`app://…`).
    public var deepLink: String?
    /// Action buttons the notification offers.
    public var actions: [NotificationAction]
    /// Higher first when two candidates fire at the same time.
    public var priority: Int
    /// What quiet hours do to it: drop, defer to their end, or allow.
    public var inQuietHours: QuietHoursHandling
    /// A deferred candidate older than this is dropped as `stale` (seconds).
    public var expiresAfter: Int?
    /// The iOS interruption level (passive, active, time_sensitive).
    public var interruptionLevel: InterruptionLevel
    /// `true` for `for_each: routine`: one candidate per enabled routine with a reminder.
    public var perRoutine: Bool
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
    /// Where the `at:` and `when:` values start.
    public var atOrigin: Origin
    /// Where its `when:` value starts.
    public var whenOrigin: Origin?
    /// Where the `template:` and `title:` values are.
    public var templateOrigin: Origin?
    /// Where the `title:` value is.
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
    /// At most this many deliveries (and requests scheduled) per logical day.
    public var maxPerDay: Int
    /// Seconds between deliveries of one category.
    public var categoryCooldown: Int
    /// Start and end of quiet hours, seconds since midnight; start included, end excluded.
    public var quietHours: (start: Int, end: Int)?
    /// Ignores in a row after which a type weakens.
    public var weakenAfterIgnored: Int
    /// What a weakened type becomes.
    public var weakenEffect: WeakenEffect
    /// Whether a per-routine reminder is dropped once its routine is done.
    public var cancelWhenCompleted: Bool
    /// At most this many requests pending with iOS (its limit is 64).
    public var maxPending: Int
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin

    /// A policy; defaults as the shipped ruleset's.
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

    /// Equal when every field is (quiet hours compared by their bounds).
    public static func == (a: NotificationPolicy, b: NotificationPolicy) -> Bool {
        a.maxPerDay == b.maxPerDay && a.categoryCooldown == b.categoryCooldown
            && a.quietHours?.start == b.quietHours?.start && a.quietHours?.end == b.quietHours?.end
            && a.weakenAfterIgnored == b.weakenAfterIgnored && a.weakenEffect == b.weakenEffect
            && a.cancelWhenCompleted == b.cancelWhenCompleted && a.maxPending == b.maxPending
    }

    /// Hashes every field.
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
