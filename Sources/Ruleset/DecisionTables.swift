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
    public var level: RiskLevel
    public var when: CompiledExpression
    public var origin: Origin
    /// Where the `when:` value starts.
    public var whenOrigin: Origin
}

/// One row of the route table: first match wins; `reason` is recorded as the route's
/// `created_reason` (seed 8.3).
public struct RouteEntry: Sendable {
    public var route: RouteKind
    public var when: CompiledExpression
    public var reason: String
    public var origin: Origin
    /// Where the `when:` value starts.
    public var whenOrigin: Origin
}

/// `light:` — goals × `scale` unless a routine names its own light goal.
public struct LightRoute: Sendable, Hashable {
    public var scale: Double
    public var origin: Origin
}

/// One item of the recovery route.
public struct RecoveryItem: Sendable, Hashable {
    public enum Requirement: Sendable, Hashable, Codable {
        /// An amount logged since the route started, in the routine's unit.
        case target(Double)
        /// A checklist item ticked since the route started.
        case item(String)
        /// HealthKit steps above the count known when the route started (a walking quest).
        case delta(Int)
    }

    public var routine: String
    public var requirement: Requirement
    public var origin: Origin
}

/// `recovery:` — the minimal route.
public struct RecoveryRoute: Sendable, Hashable {
    public var maxItems: Int
    public var items: [RecoveryItem]
    public var origin: Origin
}
