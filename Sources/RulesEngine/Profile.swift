import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// What the app keeps across days: settings, enabled routines, streak, XP and the
/// notification history that weakening depends on.
public struct OperatorProfile: Sendable, Hashable {
    /// The values the user set (by a `settings` event, or the host), by key. Every other
    /// setting reads the default of the ruleset in force (`value(_:in:)`), so a default
    /// changed in a new ruleset reaches every user who never touched that setting.
    public var settings: [String: Value]
    /// Routines the user has on.
    public var enabledRoutines: Set<String>
    /// Days in a row whose result keeps the streak.
    public var streakDays = 0
    /// Experience points in all.
    public var xp = 0
    /// Consecutive explicit ignores per notification type.
    public var ignoredStreaks: [String: Int] = [:]
    /// Logical day on which a type became weakened (for `every_other_day`).
    public var weakenedSince: [String: Int] = [:]
    /// Set on a profile migrated from a version 1 state, whose `settings` held defaults too:
    /// the engine it is restored into drops the values equal to its ruleset's defaults
    /// (`OperatorEngine.fit`), then clears this. Never saved.
    var settingsIncludeDefaults = false
    /// The key a version 1 state's migration marks the profile with.
    static let settingsIncludeDefaultsKey = "settings_include_defaults"

    /// Nothing set by the user (every setting reads its default), with `ruleset`'s
    /// `default_enabled` routines on.
    public init(ruleset: Ruleset) {
        settings = [:]
        enabledRoutines = Set(ruleset.routines.filter(\.defaultEnabled).map(\.id))
    }

    /// The largest streak, XP or run of ignores a profile holds: counts saturate here, and a
    /// saved state past it is corrupt. The bound of every number a rule file or saved state
    /// may hold (10^9).
    public static let maxCount = InputLimits.maxNumber

    /// `value` within 0…`maxCount`, where a saved state holds counts.
    static func clampedCount(_ value: Int) -> Int { Swift.min(Swift.max(value, 0), maxCount) }

    /// The profile within what a saved state may hold: streak, XP and ignore counts within
    /// 0…`maxCount`, weakening days within the days the engine lives (others dropped). A
    /// host's profile is read so; the engine keeps every count inside these itself.
    var bounded: OperatorProfile {
        let clamp = Self.clampedCount
        var copy = self
        copy.streakDays = clamp(streakDays)
        copy.xp = clamp(xp)
        copy.ignoredStreaks = ignoredStreaks.mapValues(clamp)
        copy.weakenedSince = weakenedSince.filter { EngineState.days.contains($0.value) }
        return copy
    }

    /// `day_starts_at` in seconds since midnight (04:00 when not declared).
    public func dayStart(_ ruleset: Ruleset) -> Int { Self.dayStart(settings, ruleset) }

    /// The logical day's start under `settings`: `day_starts_at` if set, else the ruleset's.
    public static func dayStart(_ settings: [String: Value], _ ruleset: Ruleset) -> Int {
        if case .time(let seconds)? = settings["day_starts_at"] { return seconds % 86_400 }
        return ruleset.dayStartsAt % 86_400
    }

    /// The setting in force: the user's value, else `ruleset`'s default (nil when undeclared).
    public func value(_ key: String, in ruleset: Ruleset) -> Value? {
        settings[key] ?? ruleset.settings.declaration(key)?.defaultValue
    }

    /// The user's tone, if the ruleset declares tones.
    func tone(in ruleset: Ruleset) -> String? {
        if case .string(let tone)? = value("tone", in: ruleset) { return tone }
        return nil
    }

    /// A bool setting in force (nil when absent or not a bool).
    func flag(_ key: String, in ruleset: Ruleset) -> Bool? {
        if case .bool(let value)? = value(key, in: ruleset) { return value }
        return nil
    }

    /// The user's reminder time for `routine` (`settings.reminders`), seconds since midnight.
    func reminder(for routine: String, in ruleset: Ruleset) -> Int? {
        if case .map(let entries)? = value("reminders", in: ruleset), case .time(let seconds)? = entries[routine] { return seconds }
        return nil
    }
}

/// A fact slot and its value.
struct SlotValue: Sendable {
    var slot: Int
    var value: Value
    /// The value as a cell, when it fits one (made once, not at every reading).
    var cell: FactCell?
    /// Else its place among the profile's boxed values (`ProfileDerived.boxedSettings`).
    var boxedIndex: Int?

    init(slot: Int, value: Value, boxed: inout [Value]) {
        self.slot = slot
        self.value = value
        cell = FactCell(value)
        if cell == nil {
            boxedIndex = boxed.count
            boxed.append(value)
        }
    }

    init(slot: Int, value: Value) {
        self.slot = slot
        self.value = value
        cell = FactCell(value)
    }
}

/// `ProfileDerived` behind one reference, immutable: copying the engine, a reader or a
/// planner retains it once instead of each of its arrays; a change of the profile makes a
/// new one.
final class ProfileBox: Sendable {
    let value: ProfileDerived

    init(_ value: ProfileDerived) { self.value = value }

    /// What `profile` gives runs under `prepared`, worked out afresh.
    convenience init(_ profile: OperatorProfile, _ prepared: PreparedRuleset) {
        self.init(ProfileDerived(profile: profile, ruleset: prepared.ruleset, layout: prepared.layout, derived: prepared.derived))
    }

    /// A new box with `change` made to a copy of the value (this one stays as it is: engines
    /// that share it are not changed).
    func changed(_ change: (inout ProfileDerived) -> Void) -> ProfileBox {
        var value = value
        change(&value)
        return ProfileBox(value)
    }
}

/// What a reading of the day reads of the profile (`DayReader` reads nothing else of it):
/// the day start, the routines on, the cells every reading starts from and the settings
/// boxed for them. The arrays are the profile's own (shared, not copied).
struct ReadingProfile: Equatable, Sendable {
    let dayStart: Int
    let enabled: [Bool]
    let baseCells: [FactCell]
    let boxedSettings: [Value]

    init(_ profile: ProfileDerived) {
        (dayStart, enabled, baseCells, boxedSettings) = (profile.dayStart, profile.enabled, profile.baseCells, profile.boxedSettings)
    }

    static func == (a: ReadingProfile, b: ReadingProfile) -> Bool {
        a.dayStart == b.dayStart && a.enabled == b.enabled && PlanInputs.sameCells(a.baseCells, b.baseCells) && a.boxedSettings == b.boxedSettings
    }
}

/// What every app run reads off the profile (day start, `settings.*` and
/// `notifications.<id>.ignored_streak` facts), worked out once per change of the profile
/// instead of by string lookups at every reading.
struct ProfileDerived: Sendable {
    var dayStart: Int
    var settingFacts: [SlotValue] = []
    /// Setting values no cell holds (a map, a long text), shared by every reading's facts.
    var boxedSettings: [Value] = []
    /// `recovery.items_text` before any route item exists (the declared items).
    var plannedRecoveryFact: SlotValue?
    /// The cells every reading starts from: settings, ignore counts, streak, the declared
    /// recovery items, each routine's name, `enabled` and `core` (the rest `unknown`).
    var baseCells: [FactCell] = []
    var ignoredStreakFacts: [SlotValue] = []
    /// Per notification type (ruleset order): its run of ignores.
    var ignoredStreaks: [Int] = []
    /// Per notification type (ruleset order): whether its own bool setting turns it off.
    let typeOff: [Bool]
    /// Renders lines and notification texts with this day start.
    let renderer: TemplateRenderer
    /// The user's tone (`settings.tone`), if the ruleset declares tones.
    let tone: String?
    /// The facts a plan reads (see `PlanMemo`): per-routine candidates only exist for a
    /// user with reminders.
    let planReads: FactReads
    /// Per routine (ruleset order): whether the user has it on.
    let enabled: [Bool]
    /// Per routine (ruleset order): the user's reminder time, if any (`settings.reminders`).
    let reminders: [Int?]
    /// What a plan reads off the profile, as values: the key kept plans (today's and
    /// tomorrow's) are compared by, derived from the profile and never bumped by hand. A run
    /// of ignores that stays short of weakening changes none of it, and the plans stand.
    private(set) var planInputs: PlanInputs

    /// `previous`: what the profile gave before a change, whose renderer stands while the
    /// day start does (it holds the whole ruleset: made again only when needed).
    init(profile: OperatorProfile, ruleset: Ruleset, layout: FactLayout, derived: RulesetDerived, previous: ProfileDerived? = nil) {
        dayStart = profile.dayStart(ruleset)
        if let previous, previous.dayStart == dayStart, previous.renderer.derived === derived {
            renderer = previous.renderer
        } else {
            renderer = TemplateRenderer(ruleset: ruleset, dayStart: dayStart, derived: derived)
        }
        tone = profile.tone(in: ruleset)
        var reminders = false
        if case .map(let entries)? = profile.value("reminders", in: ruleset), !entries.isEmpty { reminders = true }
        planReads = reminders ? derived.planReadsWithRoutines : derived.planReads
        enabled = ruleset.routines.indices.map { profile.enabledRoutines.contains(ruleset.routines[$0].id) }
        self.reminders = ruleset.routines.indices.map { reminders ? profile.reminder(for: ruleset.routines[$0].id, in: ruleset) : nil }
        // By index: a declaration or rule copied out of the ruleset costs a retain per field.
        for index in ruleset.settings.indices where index < layout.settings.count {
            guard let slot = layout.settings[index] else { continue }
            settingFacts.append(
                SlotValue(
                    slot: slot, value: profile.settings[ruleset.settings[index].key] ?? ruleset.settings[index].defaultValue,
                    boxed: &boxedSettings))
        }
        if let slot = layout.recoveryItemsText, !derived.plannedRecoveryText.isEmpty {
            plannedRecoveryFact = SlotValue(slot: slot, value: .string(derived.plannedRecoveryText), boxed: &boxedSettings)
        }
        typeOff = ruleset.notifications.map { profile.flag($0.id, in: ruleset) == false }
        planInputs = PlanInputs(
            enabled: enabled, typeOff: typeOff, reminders: self.reminders, dayStart: dayStart, tone: tone, settings: settingFacts.map(\.value),
            weakening: ProfileDerived.weakening(profile, ruleset: ruleset), planFacts: [])
        takeIgnoredStreaks(profile, ruleset: ruleset, layout: layout)
        makeBaseCells(profile, ruleset: ruleset, layout: layout)
        planInputs.planFacts = takePlanFacts()
    }

    /// Each type's weakening (see `weakening`).
    private static func weakening(_ profile: OperatorProfile, ruleset: Ruleset) -> [Int] {
        // By index: a rule bound in the loop was copied out of the array, every field retained.
        let weakenAfter = ruleset.policy.weakenAfterIgnored
        return ruleset.notifications.indices.map { index in
            let id = ruleset.notifications[index].id
            return (profile.ignoredStreaks[id] ?? 0) >= weakenAfter ? profile.weakenedSince[id] ?? Int.min + 1 : Int.min
        }
    }

    private func takePlanFacts() -> [FactCell] {
        (planReads.slots + planReads.bands.map(\.slot)).map { $0 >= 0 && $0 < baseCells.count ? baseCells[$0] : .unknown }
    }

    /// After a change of weakening or of the profile's cells: what plans read of them, again
    /// (kept as it was when equal, so that kept plans compare in one step).
    private mutating func followPlanInputs(_ profile: OperatorProfile, ruleset: Ruleset) {
        let weakening = ProfileDerived.weakening(profile, ruleset: ruleset)
        if weakening != planInputs.weakening { planInputs.weakening = weakening }
        let facts = takePlanFacts()
        if !PlanInputs.sameCells(facts, planInputs.planFacts) { planInputs.planFacts = facts }
    }

    /// The cells of `baseCells`, made again when what they hold changes.
    private mutating func makeBaseCells(_ profile: OperatorProfile, ruleset: Ruleset, layout: FactLayout) {
        var cells = [FactCell](repeating: .unknown, count: layout.count)
        func put(_ slot: Int?, _ cell: FactCell) {
            if let slot, slot >= 0, slot < cells.count { cells[slot] = cell }
        }
        func put(_ fact: SlotValue) {
            if let cell = fact.cell {
                put(fact.slot, cell)
            } else if let index = fact.boxedIndex {
                put(fact.slot, FactCell.boxed(index))
            }
        }
        for fact in settingFacts { put(fact) }
        for fact in ignoredStreakFacts { put(fact) }
        if let planned = plannedRecoveryFact { put(planned) }
        put(layout.streakDays, .int(profile.streakDays))
        for index in ruleset.routines.indices where index < layout.routines.count {
            let slots = layout.routines[index]
            let routine = ruleset.routines[index]
            if let cell = FactCell.string(routine.name) { put(slots.name, cell) }
            put(slots.enabled, .bool(index < enabled.count && enabled[index]))
            put(slots.core, .bool(routine.core))
        }
        baseCells = cells
    }

    /// Every type's run of ignores, by index and as `notifications.<id>.ignored_streak` facts
    /// (one lookup by name per type).
    private mutating func takeIgnoredStreaks(_ profile: OperatorProfile, ruleset: Ruleset, layout: FactLayout) {
        ignoredStreaks = ruleset.notifications.map { profile.ignoredStreaks[$0.id] ?? 0 }
        ignoredStreakFacts = []
        for index in ignoredStreaks.indices where index < layout.ignoredStreaks.count {
            guard let slot = layout.ignoredStreaks[index] else { continue }
            ignoredStreakFacts.append(SlotValue(slot: slot, value: .int(ignoredStreaks[index])))
        }
    }

    /// Follows a change of one type's run of ignores (by rule index).
    /// `weakenedSince`: the type's weakening day in the profile.
    mutating func setIgnoredStreak(_ index: Int, _ streak: Int, weakenedSince: Int?, layout: FactLayout, policy: NotificationPolicy) {
        guard index < ignoredStreaks.count else { return }
        ignoredStreaks[index] = streak
        // The type's weakening and, if plans read it, its fact (what plans read, kept current).
        if index < planInputs.weakening.count {
            let weakened = streak >= policy.weakenAfterIgnored ? weakenedSince ?? Int.min + 1 : Int.min
            if planInputs.weakening[index] != weakened { planInputs.weakening[index] = weakened }
        }
        if index < layout.ignoredStreaks.count, let slot = layout.ignoredStreaks[index] {
            if let fact = ignoredStreakFacts.firstIndex(where: { $0.slot == slot }) {
                ignoredStreakFacts[fact] = SlotValue(slot: slot, value: .int(streak))
            }
            if slot >= 0, slot < baseCells.count { baseCells[slot] = .int(streak) }
            if planReads.slots.contains(slot) || planReads.bands.contains(where: { $0.slot == slot }) {
                let facts = takePlanFacts()
                if !PlanInputs.sameCells(facts, planInputs.planFacts) { planInputs.planFacts = facts }
            }
        }
    }

    /// Follows a change of the profile from `old`: settings and enabled routines change
    /// everything here; ignore counts their facts only; the streak its fact; XP and
    /// weakening nothing.
    mutating func update(from old: OperatorProfile, to new: OperatorProfile, ruleset: Ruleset, layout: FactLayout, derived: RulesetDerived) {
        if old.settings != new.settings || old.enabledRoutines != new.enabledRoutines {
            self = ProfileDerived(profile: new, ruleset: ruleset, layout: layout, derived: derived, previous: self)
            return
        }
        if old.ignoredStreaks != new.ignoredStreaks {
            takeIgnoredStreaks(new, ruleset: ruleset, layout: layout)
            makeBaseCells(new, ruleset: ruleset, layout: layout)
        } else if old.streakDays != new.streakDays, let slot = layout.streakDays, slot >= 0, slot < baseCells.count {
            baseCells[slot] = .int(new.streakDays)
        }
        if old.ignoredStreaks != new.ignoredStreaks || old.weakenedSince != new.weakenedSince || old.streakDays != new.streakDays {
            followPlanInputs(new, ruleset: ruleset)
        }
    }
}
