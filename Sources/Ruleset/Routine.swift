import RulesExpression

/// What a routine measures: one of the built-in categories, or one a ruleset declares under
/// `categories:` (with its sensitivity). Encoded as its id.
public struct RoutineCategory: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The category's id (`water`, or one a ruleset declares).
    public var rawValue: String
    /// A category of this id.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Decodes the id written as a string.
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes the id as a string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// The id.
    public var description: String { rawValue }

    /// HealthKit steps.
    public static let steps = RoutineCategory(rawValue: "steps")
    /// Sleep (sensitive by nature).
    public static let sleep = RoutineCategory(rawValue: "sleep")
    /// Water, in ml.
    public static let water = RoutineCategory(rawValue: "water")
    /// Study time.
    public static let study = RoutineCategory(rawValue: "study")
    /// Reading.
    public static let reading = RoutineCategory(rawValue: "reading")
    /// Practice (an instrument, a language…).
    public static let practice = RoutineCategory(rawValue: "practice")
    /// Skincare checklist.
    public static let skincare = RoutineCategory(rawValue: "skincare")
    /// Supplements (sensitive by nature).
    public static let supplement = RoutineCategory(rawValue: "supplement")
    /// Tidying the room.
    public static let room = RoutineCategory(rawValue: "room")
    /// Exercise.
    public static let exercise = RoutineCategory(rawValue: "exercise")

    /// The categories every ruleset has, in the order the reference lists them.
    public static let builtIn: [RoutineCategory] = [.steps, .sleep, .water, .study, .reading, .practice, .skincare, .supplement, .room, .exercise]

    /// Built-in categories whose values are sensitive whatever a routine file says.
    public var isSensitiveByNature: Bool { self == .sleep || self == .supplement }
}

/// A category a ruleset adds (`categories:` in a rules file): routines of a sensitive one are
/// sensitive (their values never reach the lock screen or the widget).
public struct DeclaredCategory: Sendable, Hashable {
    /// The category's id (`[a-z][a-z0-9_]*`).
    public var id: String
    /// Whether values of its routines are sensitive (never on the lock screen or widget).
    public var sensitive: Bool
    /// What it is for, shown in the reference.
    public var description: String?
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin

    /// A declared category.
    public init(id: String, sensitive: Bool, description: String? = nil, origin: Origin = .unknown) {
        self.id = id
        self.sensitive = sensitive
        self.description = description
        self.origin = origin
    }
}

/// Where a routine's values come from.
public enum RoutineSource: String, Sendable, CaseIterable, Codable {
    case healthkit, manual, timer, checklist
}

/// The unit of a routine's value and goal.
public enum RoutineUnit: String, Sendable, CaseIterable, Codable {
    case steps, minutes, ml, count, check
}

/// One routine (`routines/*.yaml`, SPEC §4): a repeatable habit the app records and judges.
public struct Routine: Sendable, Hashable {
    /// Unique id, `[a-z][a-z0-9_]*`.
    public var id: String
    /// Display name in Korean (`물`).
    public var name: String
    /// Its category (decides sensitivity by nature and the widget's quick actions).
    public var category: RoutineCategory
    /// Where its values come from (HealthKit, manual logs, a timer, a checklist).
    public var source: RoutineSource
    /// The unit its values and goal are in.
    public var unit: RoutineUnit
    /// The regular day's goal, in `unit` (a checklist's goal is its number of items).
    public var goal: Double
    /// Quick-log amounts offered on home and the widget, in `unit`.
    public var quickLog: [Double]
    /// Whether it counts in `total` / `completion_rate`.
    public var core: Bool
    /// Whether a new user has it on (the onboarding selection, seed 9.2).
    public var defaultEnabled: Bool
    /// Whether its values must never reach the lock screen or the widget. Sleep and
    /// supplements, and routines of a category declared sensitive, are sensitive whatever
    /// the routine file says.
    public var sensitive: Bool
    /// Checklist items (`양치`, `세수`, …), empty for other routines.
    public var items: [String]
    /// The light route's own goal, when the routine gives one (`routes.light.goal`).
    public var lightGoal: Double?
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
    /// Where `goal:` is written, when it is.
    public var goalOrigin: Origin?

    /// A routine; defaults as a routine file's omitted keys.
    public init(
        id: String, name: String, category: RoutineCategory, source: RoutineSource, unit: RoutineUnit,
        goal: Double, quickLog: [Double] = [], core: Bool = true, defaultEnabled: Bool = true,
        sensitive: Bool = false, items: [String] = [], lightGoal: Double? = nil, origin: Origin = .unknown
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.source = source
        self.unit = unit
        self.goal = goal
        self.quickLog = quickLog
        self.core = core
        self.defaultEnabled = defaultEnabled
        self.sensitive = sensitive || category.isSensitiveByNature
        self.items = items
        self.lightGoal = lightGoal
        self.origin = origin
    }

    /// Whether the light route scales this routine's goal (SPEC §5.3): steps, minutes, ml
    /// and count units, except sleep; checklists and checks keep their goals.
    public var scalesOnLightRoute: Bool {
        category != .sleep && items.isEmpty && unit != .check
    }
}
