import RulesExpression

/// A declared user setting (`settings:`, SPEC §5.7): its type and default.
public struct SettingDeclaration: Sendable, Hashable {
    /// The key (`bedtime`), read as `settings.<key>`.
    public var key: String
    /// Its type.
    public var type: ExpressionType
    /// The default value; `.unknown` for optional settings without one.
    public var defaultValue: Value
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin

    /// A declaration.
    public init(key: String, type: ExpressionType, defaultValue: Value, origin: Origin = .unknown) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.origin = origin
    }
}

extension Array where Element == SettingDeclaration {
    /// The declaration of `key`, if any.
    public func declaration(_ key: String) -> SettingDeclaration? { first { $0.key == key } }
}
