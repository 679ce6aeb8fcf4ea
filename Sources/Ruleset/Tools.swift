/// The type of a tool parameter.
public enum ToolParameterType: String, Sendable, CaseIterable, Codable {
    case routineID = "routine_id"
    case number, int, string, bool, `enum`
}

/// One parameter of an operator tool.
public struct ToolParameter: Sendable, Hashable {
    public var name: String
    public var type: ToolParameterType
    public var required: Bool
    public var minimum: Double?
    public var maximum: Double?
    /// Allowed values of an `enum` parameter.
    public var values: [String]
    /// Longest allowed string, in characters.
    public var maxLength: Int?
    public var description: String?
    public var origin: Origin
}

/// One operator tool (`tools:`, SPEC §5.8): what the on-device model may propose.
public struct Tool: Sendable, Hashable {
    public var name: String
    public var description: String
    public var parameters: [ToolParameter]
    public var origin: Origin
}
