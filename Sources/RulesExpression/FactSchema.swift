/// The facts an expression may read, with their types: the built-in facts of SPEC §3,
/// extended by the ruleset (routine ids, settings, tones) and by bindings of a context
/// (`progress` in a judgement entry, `routine` in a per-routine notification).
/// Each fact has a slot: its index in the `FactValues` the engine fills.
public struct FactSchema: Sendable {
    public struct Fact: Sendable, Hashable {
        public var name: String
        public var type: ExpressionType
        public var slot: Int
        /// A sensible default to show in the `??` hint (`420` for `sleep.minutes`).
        public var suggestedDefault: String?
    }

    public private(set) var facts: [Fact] = []
    private var index: [String: Int] = [:]
    /// Routine ids, for `routines.<id>` lookups and did-you-mean.
    public private(set) var routineIDs: [String] = []
    /// Routines the ruleset declares but left out for their own errors: an expression that
    /// names one does not compile, and says nothing more (the routine's error says it).
    public var withheldRoutineIDs: Set<String> = []

    public init() {}

    /// Fields every routine has under `routines.<id>.`.
    public static let routineFields: [(String, ExpressionType)] = [
        ("name", .string), ("value", .number), ("goal", .number), ("progress", .number),
        ("status", .enumeration(.status)), ("enabled", .bool), ("core", .bool),
    ]

    /// The built-in facts plus one entry per routine field and per setting.
    /// `settings` are (key, type) in declaration order.
    public static func standard(routineIDs: [String], settings: [(String, ExpressionType)]) -> FactSchema {
        var schema = FactSchema()
        for fact in BuiltInFact.allCases { schema.add(fact.name, fact.type, suggestedDefault: fact.suggestedDefault) }
        schema.routineIDs = routineIDs
        for id in routineIDs {
            for (field, type) in routineFields { schema.add("routines.\(id).\(field)", type) }
        }
        for (key, type) in settings {
            schema.add("settings.\(key)", type, suggestedDefault: type.isOptional ? defaultSpelling(type.unwrapped) : nil)
        }
        return schema
    }

    /// Adds a fact (replacing none: a name already present keeps its first definition).
    public mutating func add(_ name: String, _ type: ExpressionType, suggestedDefault: String? = nil) {
        guard index[name] == nil else { return }
        index[name] = facts.count
        facts.append(Fact(name: name, type: type, slot: facts.count, suggestedDefault: suggestedDefault))
    }

    /// Adds `notifications.<id>.ignored_streak` for each notification type.
    public mutating func addNotificationTypes(_ ids: [String]) {
        for id in ids { add("notifications.\(id).ignored_streak", .int) }
    }

    /// This schema plus the bindings of a judgement entry: `progress`, `value`, `goal`.
    public func withRoutineJudgementBindings() -> FactSchema {
        var copy = self
        copy.add("progress", .number)
        copy.add("value", .number)
        copy.add("goal", .number)
        return copy
    }

    /// This schema plus `routine.*` of a per-routine notification and `routine.reminder`.
    public func withRoutineBinding() -> FactSchema {
        var copy = self
        copy.add("routine.id", .routineID)
        for (field, type) in FactSchema.routineFields { copy.add("routine.\(field)", type) }
        copy.add("routine.reminder", .optional(.time), suggestedDefault: "21:00")
        return copy
    }

    public func fact(named name: String) -> Fact? {
        index[name].map { facts[$0] }
    }

    /// Number of slots a `FactValues` for this schema needs.
    public var slotCount: Int { facts.count }

    /// Every name that starts with `prefix.` one level down (`routines.water.` → `progress`…).
    func members(of prefix: String) -> [String] {
        // In order, each once: a set beside the list (40,000 settings made a list search quadratic).
        var members: [String] = []
        var seen: Set<String> = []
        let lead = prefix + "."
        for fact in facts where fact.name.hasPrefix(lead) {
            let rest = fact.name.dropFirst(lead.count)
            let member = String(rest.prefix { $0 != "." })
            if seen.insert(member).inserted { members.append(member) }
        }
        return members
    }

    /// Members of `prefix` as a hint lists them: `prefix.member`, at most `limit`, then how
    /// many more.
    static func listed(_ members: [String], of prefix: String, limit: Int = 20) -> String {
        let shown = members.prefix(limit).map { "\(prefix).\($0)" }.joined(separator: ", ")
        return members.count > limit ? shown + " and \(members.count - limit) more" : shown
    }

    /// Whether some fact lies under `prefix.`.
    func hasMembers(_ prefix: String) -> Bool {
        let lead = prefix + "."
        return facts.contains { $0.name.hasPrefix(lead) }
    }

    static func defaultSpelling(_ type: ExpressionType) -> String {
        switch type {
        case .bool: "false"
        case .int: "0"
        case .number: "0.0"
        case .string, .routineID: "\"\""
        case .duration: "0m"
        case .time: "00:00"
        default: "…"
        }
    }
}
