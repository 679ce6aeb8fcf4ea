import RulesExpression

/// The three routes of the day.
public enum RouteKind: String, Sendable, CaseIterable, Codable {
    case regular, light, recovery
}

/// Risk of failing the day.
public enum RiskLevel: String, Sendable, CaseIterable, Codable {
    case low, medium, high
}

/// One row of the risk table: first match wins.
public struct RiskEntry: Sendable {
    /// The risk this row decides.
    public var level: RiskLevel
    /// Its condition.
    public var when: CompiledExpression
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
    /// Where the `when:` value starts.
    public var whenOrigin: Origin
}

/// One row of the route table: first match wins; `reason` is recorded as the route's
/// `created_reason` (seed 8.3).
public struct RouteEntry: Sendable {
    /// The route this row decides.
    public var route: RouteKind
    /// Its condition.
    public var when: CompiledExpression
    /// Why, as recorded on the route and on requests (`created_reason`).
    public var reason: String
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
    /// Where the `when:` value starts.
    public var whenOrigin: Origin
}

/// `light:` — goals × `scale` unless a routine names its own light goal.
public struct LightRoute: Sendable, Hashable {
    /// The factor applied to every regular goal (0 < scale ≤ 1).
    public var scale: Double
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
}

/// One item of the recovery route.
public struct RecoveryItem: Sendable, Hashable {
    /// What completes the item.
    public enum Requirement: Sendable, Hashable, Codable {
        /// An amount logged since the route started, in the routine's unit.
        case target(Double)
        /// A checklist item ticked since the route started.
        case item(String)
        /// HealthKit steps above the count known when the route started (a walking quest).
        case delta(Int)
    }

    /// The routine the item is for.
    public var routine: String
    /// What completes it.
    public var requirement: Requirement
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
}

/// `recovery:` — the minimal route.
public struct RecoveryRoute: Sendable, Hashable {
    /// At most this many items are offered.
    public var maxItems: Int
    /// The items, in order of preference.
    public var items: [RecoveryItem]
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
}
