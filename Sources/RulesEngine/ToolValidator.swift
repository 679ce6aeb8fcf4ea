import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression
import Ruleset

/// A validated tool call: the tool and its arguments by name.
public struct ToolCall: Sendable, Hashable {
    /// The tool called.
    public var tool: String
    /// Its arguments, typed.
    public var arguments: [String: Value]
}

/// Validates a model's proposed call against `tools:`. The model proposes,
/// the engine decides: hostile or malformed JSON is rejected with a reason code, never a
/// trap, and nothing changes unless the verdict is `accepted`.
public struct ToolValidator: Sendable {
    /// The ruleset whose tools it checks.
    public let ruleset: Ruleset

    /// A validator for `ruleset`'s tools.
    public init(ruleset: Ruleset) { self.ruleset = ruleset }

    /// The verdict on a call's JSON text, and the call when it is accepted.
    public func validate(_ text: String) -> (verdict: ToolVerdict, call: ToolCall?) {
        let parsed = JSONReader.parse(Array(text.utf8), file: "tool_call")
        if let problem = parsed.diagnostics.first {
            let reason: ToolVerdict.Rejection =
                problem.code == "json.too_deep" ? .tooDeep : problem.code == "json.too_large" ? .tooLarge : .malformedJSON
            return (ToolVerdict(tool: nil, outcome: .rejected, rejection: reason), nil)
        }
        guard let root = parsed.documents.first, let pairs = root.pairs else {
            return reject(nil, .malformedJSON, nil)
        }
        for pair in pairs where pair.key.scalar != "name" && pair.key.scalar != "arguments" {
            return reject(nil, .malformedJSON, pair.key.scalar)
        }
        guard let nameNode = root["name"], nameNode.scalarStyle == .doubleQuoted, let name = nameNode.scalar else {
            return reject(nil, .malformedJSON, "name")
        }
        guard let tool = ruleset.tool(name) else { return reject(name, .unknownTool, nil) }
        var arguments: [String: Value] = [:]
        if let argumentsNode = root["arguments"] {
            guard let argumentPairs = argumentsNode.pairs else { return reject(name, .malformedJSON, "arguments") }
            for pair in argumentPairs {
                guard let key = pair.key.scalar, let parameter = tool.parameters.first(where: { $0.name == key }) else {
                    return reject(name, .unknownArgument, pair.key.scalar)
                }
                switch value(pair.value, for: parameter) {
                case .success(let value): arguments[key] = value
                case .failure(let reason): return reject(name, reason, key)
                }
            }
        }
        if let missing = tool.parameters.first(where: { $0.required && arguments[$0.name] == nil }) {
            return (ToolVerdict(tool: name, outcome: .clarify, argument: missing.name), nil)
        }
        if let problem = unitMismatch(tool, arguments) { return reject(name, .unitMismatch, problem) }
        // A log without an amount: 1 for a check or a count, else ask how much.
        if name == "log_habit_event", arguments["value"] == nil, case .string(let id)? = arguments["routine"],
            let routine = ruleset.routine(id), routine.unit != .check, routine.unit != .count
        {
            return (ToolVerdict(tool: name, outcome: .clarify, argument: "value"), nil)
        }
        return (ToolVerdict(tool: name, outcome: .accepted), ToolCall(tool: name, arguments: arguments))
    }

    private func reject(_ tool: String?, _ reason: ToolVerdict.Rejection, _ argument: String?) -> (verdict: ToolVerdict, call: ToolCall?) {
        (ToolVerdict(tool: tool, outcome: .rejected, rejection: reason, argument: argument), nil)
    }

    typealias Rejection = ToolVerdict.Rejection

    /// An argument read by its declared type; JSON strings are never read as numbers.
    private func value(_ node: YAMLNode, for parameter: ToolParameter) -> Result<Value, Rejection> {
        guard let text = node.scalar, node.tag == nil else { return .failure(.wrongType) }
        let isString = node.scalarStyle == .doubleQuoted
        switch parameter.type {
        case .number, .int:
            guard !isString, text != "true", text != "false", text != "null" else { return .failure(.wrongType) }
            // Within the bound of every number a rule file or a saved state holds (10^9), declared
            // bounds or not: a goal or quest step past it would make the engine's save refused.
            guard let number = Double(text), number.isFinite, abs(number) <= Double(InputLimits.maxNumber) else { return .failure(.outOfRange) }
            if parameter.type == .int {
                guard number == number.rounded(), abs(number) <= 9_007_199_254_740_992 else {
                    return .failure(number == number.rounded() ? .outOfRange : .wrongType)
                }
            }
            if let minimum = parameter.minimum, number < minimum { return .failure(.outOfRange) }
            if let maximum = parameter.maximum, number > maximum { return .failure(.outOfRange) }
            return .success(parameter.type == .int ? .int(Int(number)) : .number(number))
        case .bool:
            guard !isString, text == "true" || text == "false" else { return .failure(.wrongType) }
            return .success(.bool(text == "true"))
        case .string:
            guard isString else { return .failure(.wrongType) }
            if let maxLength = parameter.maxLength, text.count > maxLength { return .failure(.outOfRange) }
            return .success(.string(text))
        case .enum:
            guard isString else { return .failure(.wrongType) }
            return parameter.values.contains(text) ? .success(.string(text)) : .failure(.outOfRange)
        case .routineID:
            guard isString else { return .failure(.wrongType) }
            return ruleset.routine(text) != nil ? .success(.string(text)) : .failure(.outOfRange)
        }
    }

    /// A `unit` argument that does not match the named routine's unit.
    private func unitMismatch(_ tool: Tool, _ arguments: [String: Value]) -> String? {
        guard case .string(let unit)? = arguments["unit"], case .string(let id)? = arguments["routine"],
            let routine = ruleset.routine(id), routine.unit.rawValue != unit
        else { return nil }
        return "unit"
    }
}
