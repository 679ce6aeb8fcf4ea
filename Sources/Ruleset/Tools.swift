/// The type of a tool parameter.
public enum ToolParameterType: String, Sendable, CaseIterable, Codable {
    case routineID = "routine_id"
    case number, int, string, bool, `enum`
}

/// One parameter of an operator tool.
public struct ToolParameter: Sendable, Hashable {
    /// The argument's name.
    public var name: String
    /// Its JSON type.
    public var type: ToolParameterType
    /// Whether a call must give it (else the engine asks for it).
    public var required: Bool
    /// Smallest number accepted.
    public var minimum: Double?
    /// Largest number accepted.
    public var maximum: Double?
    /// Allowed values of an `enum` parameter.
    public var values: [String]
    /// Longest allowed string, in characters.
    public var maxLength: Int?
    /// What it means, for the model.
    public var description: String?
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
}

/// One operator tool (`tools:`, SPEC §5.8): what the on-device model may propose.
public struct Tool: Sendable, Hashable {
    /// The tool's name (`log_habit_event`).
    public var name: String
    /// What it does, for the model.
    public var description: String
    /// Its arguments.
    public var parameters: [ToolParameter]
    /// Where it is declared (file and position), for diagnostics and explanations.
    public var origin: Origin
}
