import Foundation
import Ruleset

/// A notification request as scheduled with iOS (seed 8.4 plus SPEC §5.6's fields).
///
/// Its fields live behind one immutable reference: requests are copied into plans, records
/// and dictionaries many times per app run, and a copy of eighteen fields retained each
/// one. Setting a field makes a new box (requests are made once and rarely changed).
/// Equality, hashing and the JSON form are the fields', as before.
public struct ScheduledNotification: Sendable, Hashable, Codable {
    struct Fields: Sendable, Hashable, Codable {
        var id: String
        var type: String
        var routine: String?
        var scheduledAt: Date
        var day: Int
        var status: String
        var deepLink: String?
        var templateID: String
        var sensitive: Bool
        var createdReason: String
        var interruptionLevel: InterruptionLevel
        var relevance: Double
        var threadID: String
        var category: String
        var actions: [NotificationAction]
        var title: String?
        var text: String
        var redacted: Bool
    }

    final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    init(
        id: String,
        type: String,
        routine: String?,
        scheduledAt: Date,
        day: Int,
        status: String,
        deepLink: String?,
        templateID: String,
        sensitive: Bool,
        createdReason: String,
        interruptionLevel: InterruptionLevel,
        relevance: Double,
        threadID: String,
        category: String,
        actions: [NotificationAction],
        title: String?,
        text: String,
        redacted: Bool
    ) {
        box = Box(
            Fields(
                id: id, type: type, routine: routine, scheduledAt: scheduledAt, day: day, status: status, deepLink: deepLink, templateID: templateID,
                sensitive: sensitive, createdReason: createdReason, interruptionLevel: interruptionLevel, relevance: relevance, threadID: threadID,
                category: category, actions: actions, title: title, text: text, redacted: redacted))
    }

    /// Changes one field: a new box, so copies made before keep their values.
    private mutating func change(_ edit: (inout Fields) -> Void) {
        var fields = box.fields
        edit(&fields)
        box = Box(fields)
    }

    /// Whether `other` has this request's id: the same box, or the ids compared where they
    /// are (the `id` getter hands out a retained copy of each, released after the compare).
    package func sameID(as other: ScheduledNotification) -> Bool {
        box === other.box || box.fields.id == other.box.fields.id
    }

    /// The same request a day later: its id (of the next date), its time and its day (one box).
    func movedToNextDay(id: String, at scheduledAt: Date) -> ScheduledNotification {
        var moved = self
        moved.change {
            $0.id = id
            $0.scheduledAt = scheduledAt
            $0.day += 1
        }
        return moved
    }

    /// Stable request id: `<type>.<yyyyMMdd>` or `<type>.<routine>.<yyyyMMdd>`.
    public var id: String {
        get { box.fields.id }
        set { change { $0.id = newValue } }
    }
    /// Its notification type.
    public var type: String {
        get { box.fields.type }
        set { change { $0.type = newValue } }
    }
    /// Its routine, for a per-routine type.
    public var routine: String? {
        get { box.fields.routine }
        set { change { $0.routine = newValue } }
    }
    /// When iOS fires it.
    public var scheduledAt: Date {
        get { box.fields.scheduledAt }
        set { change { $0.scheduledAt = newValue } }
    }
    /// Logical day the candidate belongs to.
    public var day: Int {
        get { box.fields.day }
        set { change { $0.day = newValue } }
    }
    /// `scheduled`.
    public var status: String {
        get { box.fields.status }
        set { change { $0.status = newValue } }
    }
    /// Where a tap opens the app.
    public var deepLink: String? {
        get { box.fields.deepLink }
        set { change { $0.deepLink = newValue } }
    }
    /// The template of its text.
    public var templateID: String {
        get { box.fields.templateID }
        set { change { $0.templateID = newValue } }
    }
    /// Whether its text was redacted for a sensitive value.
    public var sensitive: Bool {
        get { box.fields.sensitive }
        set { change { $0.sensitive = newValue } }
    }
    /// Why: the route's reason when it was planned (`created_reason`).
    public var createdReason: String {
        get { box.fields.createdReason }
        set { change { $0.createdReason = newValue } }
    }
    /// The iOS interruption level (passive when weakened).
    public var interruptionLevel: InterruptionLevel {
        get { box.fields.interruptionLevel }
        set { change { $0.interruptionLevel = newValue } }
    }
    /// 0…1; 0.2 when weakened to passive.
    public var relevance: Double {
        get { box.fields.relevance }
        set { change { $0.relevance = newValue } }
    }
    /// `thread.<category>`: iOS groups by it.
    public var threadID: String {
        get { box.fields.threadID }
        set { change { $0.threadID = newValue } }
    }
    /// Its category.
    public var category: String {
        get { box.fields.category }
        set { change { $0.category = newValue } }
    }
    /// Its action buttons.
    public var actions: [NotificationAction] {
        get { box.fields.actions }
        set { change { $0.actions = newValue } }
    }
    /// Its title, when the type has one.
    public var title: String? {
        get { box.fields.title }
        set { change { $0.title = newValue } }
    }
    /// Its text.
    public var text: String {
        get { box.fields.text }
        set { change { $0.text = newValue } }
    }
    /// Whether its text or title is a surface's fallback for a refused sensitive value.
    public var redacted: Bool {
        get { box.fields.redacted }
        set { change { $0.redacted = newValue } }
    }

    /// Equal when every field is.
    public static func == (lhs: ScheduledNotification, rhs: ScheduledNotification) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    /// Reads the JSON form (the fields).
    public init(from decoder: any Decoder) throws { box = Box(try Fields(from: decoder)) }

    /// Writes the JSON form (the fields).
    public func encode(to encoder: any Encoder) throws { try box.fields.encode(to: encoder) }
}
