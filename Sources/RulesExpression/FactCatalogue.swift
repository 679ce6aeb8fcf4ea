/// What each built-in fact means, its unit and an example value: the source of
/// `docs/REFERENCE.md` and `rules facts`, next to the schema that types the facts.
public enum FactCatalogue {
    public struct Entry: Sendable {
        public var name: String
        public var unit: String
        public var meaning: String
        public var example: String

        /// A routine field's entry.
        public init(name: String, unit: String, meaning: String, example: String) {
            self.name = name
            self.unit = unit
            self.meaning = meaning
            self.example = example
        }

        /// A built-in fact's entry (named as the fact).
        init(_ fact: BuiltInFact, unit: String, meaning: String, example: String) {
            self.init(name: fact.name, unit: unit, meaning: meaning, example: example)
        }
    }

    /// One entry per `BuiltInFact`, in its order (a test holds them together).
    public static let builtIn: [Entry] = [
        Entry(.now, unit: "time of day", meaning: "the time of the app run (or the fire time, when planning a notification)", example: "21:10"),
        Entry(.today, unit: "date", meaning: "the logical day (it starts at `settings.day_starts_at`)", example: "2026-06-29"),
        Entry(.weekday, unit: "mon…sun", meaning: "the logical day's weekday", example: "\"mon\""),
        Entry(.stepsToday, unit: "steps", meaning: "HealthKit steps as of the last sync (0 when denied or never synced)", example: "3240"),
        Entry(.stepsYesterday, unit: "steps", meaning: "yesterday's steps", example: "7000"),
        Entry(.stepsAverage7, unit: "steps", meaning: "the last seven days' average", example: "5200"),
        Entry(.stepsGoal, unit: "steps", meaning: "the steps goal in force (the route's)", example: "6000"),
        Entry(.sleepMinutes, unit: "minutes", meaning: "last night's sleep; unknown without data or permission", example: "330"),
        Entry(.sleepStart, unit: "time of day", meaning: "when last night's sleep began", example: "01:10"),
        Entry(.sleepEnd, unit: "time of day", meaning: "when it ended", example: "06:40"),
        Entry(.healthSteps, unit: "permission", meaning: "steps permission: granted, denied or not_determined", example: "\"granted\""),
        Entry(.healthSleep, unit: "permission", meaning: "sleep permission", example: "\"denied\""),
        Entry(.healthSyncedAt, unit: "time of day", meaning: "the last HealthKit sync the app saw", example: "08:00"),
        Entry(.waterML, unit: "ml", meaning: "water logged today", example: "500"),
        Entry(.waterGoal, unit: "ml", meaning: "the water goal in force", example: "1500"),
        Entry(.completed, unit: "routines", meaning: "enabled core routines completed today", example: "4"),
        Entry(.total, unit: "routines", meaning: "enabled core routines", example: "8"),
        Entry(.completionRate, unit: "0…1", meaning: "completed / total (0 when total is 0)", example: "0.5"),
        Entry(.route, unit: "regular | light | recovery", meaning: "the active route", example: "\"recovery\""),
        Entry(.risk, unit: "low | medium | high", meaning: "the current risk level", example: "\"high\""),
        Entry(.recoveryCompleted, unit: "bool", meaning: "every recovery item done (false without items)", example: "false"),
        Entry(
            .recoveryItemsText, unit: "text", meaning: "the recovery items in Korean; unknown when there is none",
            example: "\"물 300ml, 양치, 300보\""),
        Entry(
            .recoveryRemainingText, unit: "text", meaning: "the recovery items not done yet; unknown when none is left",
            example: "\"양치, 300보\""),
        Entry(
            .recoveryItemCount, unit: "items",
            meaning: "how many recovery items the route offers: the day's items once it started, else the declared ones it would offer",
            example: "3"),
        Entry(.questStart, unit: "steps", meaning: "the walking quest's start count (unknown without a quest)", example: "4066"),
        Entry(.questTarget, unit: "steps", meaning: "the quest's delta", example: "300"),
        Entry(.questClear, unit: "steps", meaning: "start + delta", example: "4366"),
        Entry(.questCurrent, unit: "steps", meaning: "steps at the last sync", example: "4200"),
        Entry(.questRemaining, unit: "steps", meaning: "max(0, clear − current)", example: "166"),
        Entry(.questProgress, unit: "0…1", meaning: "how far the quest is", example: "0.45"),
        Entry(.sentToday, unit: "notifications", meaning: "deliveries today", example: "2"),
        Entry(.streakDays, unit: "days", meaning: "consecutive success-or-recovered days", example: "3"),
        Entry(.event, unit: "event", meaning: "in templates: the event being answered (home, completed, route_changed, …)", example: "\"home\""),
    ]

    /// The fields every routine has under `routines.<id>.` (and `routine.` in a per-routine
    /// notification).
    public static let routineFields: [Entry] = [
        Entry(name: "name", unit: "text", meaning: "the routine's name", example: "\"물\""),
        Entry(name: "value", unit: "the routine's unit", meaning: "what was done today", example: "500"),
        Entry(name: "goal", unit: "the routine's unit", meaning: "the goal in force (the route's)", example: "1500"),
        Entry(name: "progress", unit: "0…1", meaning: "value / goal, at most 1", example: "0.33"),
        Entry(
            name: "status", unit: "status", meaning: "not_started, in_progress, completed, partial, failed, skipped, recovered",
            example: "\"in_progress\""),
        Entry(name: "enabled", unit: "bool", meaning: "the user has it on", example: "true"),
        Entry(name: "core", unit: "bool", meaning: "it counts in total and completion_rate", example: "true"),
    ]

    public static func entry(_ name: String) -> Entry? { builtIn.first { $0.name == name } }
}
