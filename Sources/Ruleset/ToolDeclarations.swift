import RulesDiagnostics

/// The `tools:` declarations as the function-declaration JSON that tool-use models take,
/// generated from the ruleset so the model and the validator can never disagree.
package enum ToolDeclarations {
    package enum Format: String, CaseIterable, Sendable {
        /// FunctionGemma / Gemini function declarations (OpenAPI-style upper-case types).
        case gemma
        /// OpenAI `tools` entries: `{"type":"function","function":{…}}`.
        case openai
        /// One JSON Schema (draft 2020-12) for a whole call `{"name": …, "arguments": {…}}`.
        case jsonSchema = "json-schema"
    }

    package static func export(_ ruleset: Ruleset, format: Format) -> JSONValue {
        switch format {
        case .gemma:
            return .array(
                ruleset.tools.map { tool in
                    .object([
                        ("name", .string(tool.name)), ("description", .string(tool.description)),
                        ("parameters", parameters(tool, ruleset: ruleset, upperCase: true)),
                    ])
                })
        case .openai:
            return .array(
                ruleset.tools.map { tool in
                    .object([
                        ("type", .string("function")),
                        (
                            "function",
                            .object([
                                ("name", .string(tool.name)), ("description", .string(tool.description)),
                                ("parameters", parameters(tool, ruleset: ruleset, upperCase: false)),
                            ])
                        ),
                    ])
                })
        case .jsonSchema:
            return .object([
                ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
                ("title", .string("A tool call the operator accepts")),
                (
                    "oneOf",
                    .array(
                        ruleset.tools.map { tool in
                            .object([
                                ("type", .string("object")),
                                (
                                    "properties",
                                    .object([
                                        ("name", .object([("const", .string(tool.name))])),
                                        ("arguments", unitAware(tool, ruleset: ruleset)),
                                    ])
                                ),
                                ("required", .array([.string("name")])),
                                ("additionalProperties", .bool(false)),
                            ])
                        })
                ),
            ])
        }
    }

    /// The parameters of a tool whose `unit` must match the named routine's unit (the engine's
    /// `unit_mismatch`): one variant per unit, with the routines of that unit, plus the call
    /// without a unit. Other tools: the plain parameters object. For `log_habit_event` a missing
    /// `value` is accepted only for check and count routines (the engine logs 1 and asks
    /// for the amount otherwise), so its variants split routines by that.
    static func unitAware(_ tool: Tool, ruleset: Ruleset) -> JSONValue {
        let plain = parameters(tool, ruleset: ruleset, upperCase: false)
        guard tool.parameters.contains(where: { $0.name == "routine" && $0.type == .routineID }),
            let unit = tool.parameters.first(where: { $0.name == "unit" && $0.type == .enum }),
            case .object(let members) = plain,
            case .object(let properties)? = members.first(where: { $0.0 == "properties" })?.1
        else { return plain }
        var variants: [JSONValue] = []
        let valueOptional = tool.name == "log_habit_event" && tool.parameters.contains { $0.name == "value" && !$0.required }
        func variant(routines: [String], unit value: String?, needsValue: Bool = false) -> JSONValue {
            var variantProperties = properties.filter { $0.0 != "unit" && $0.0 != "routine" }
            variantProperties.append(("routine", .object([("type", .string("string")), ("enum", .array(routines.map(JSONValue.string)))])))
            if let value { variantProperties.append(("unit", .object([("const", .string(value))]))) }
            var object = members.filter { $0.0 != "properties" }
            object.insert(("properties", .object(variantProperties)), at: 1)
            if value != nil, case .array(let required)? = object.first(where: { $0.0 == "required" })?.1 {
                object.removeAll { $0.0 == "required" }
                object.append(("required", .array(required + [.string("unit")])))
            } else if value != nil {
                object.append(("required", .array([.string("unit")])))
            }
            if needsValue {
                var required: [JSONValue] = []
                if case .array(let items)? = object.first(where: { $0.0 == "required" })?.1 { required = items }
                object.removeAll { $0.0 == "required" }
                object.append(("required", .array(required + [.string("value")])))
            }
            return .object(object)
        }
        func countable(_ unit: String) -> Bool { unit == RoutineUnit.check.rawValue || unit == RoutineUnit.count.rawValue }
        if valueOptional {
            let (bare, measured) = (
                ruleset.routines.filter { countable($0.unit.rawValue) }.map(\.id), ruleset.routines.filter { !countable($0.unit.rawValue) }.map(\.id)
            )
            if !bare.isEmpty { variants.append(variant(routines: bare, unit: nil)) }
            if !measured.isEmpty { variants.append(variant(routines: measured, unit: nil, needsValue: true)) }
        } else {
            variants.append(variant(routines: ruleset.routines.map(\.id), unit: nil))
        }
        for value in unit.values {
            let routines = ruleset.routines.filter { $0.unit.rawValue == value }.map(\.id)
            if !routines.isEmpty { variants.append(variant(routines: routines, unit: value, needsValue: valueOptional && !countable(value))) }
        }
        return .object([("oneOf", .array(variants))])
    }

    /// The parameters object of one tool. Routine ids become an enum of the ruleset's ids;
    /// `unit` keeps its declared values.
    static func parameters(_ tool: Tool, ruleset: Ruleset, upperCase: Bool) -> JSONValue {
        func type(_ name: String) -> JSONValue { .string(upperCase ? name.uppercased() : name) }
        var properties: [(String, JSONValue)] = []
        for parameter in tool.parameters {
            var members: [(String, JSONValue)] = []
            switch parameter.type {
            case .routineID:
                members += [("type", type("string")), ("enum", .array(ruleset.routines.map { .string($0.id) }))]
            case .enum:
                members += [("type", type("string")), ("enum", .array(parameter.values.map(JSONValue.string)))]
            case .string:
                members.append(("type", type("string")))
                if let maxLength = parameter.maxLength { members.append(("maxLength", .int(maxLength))) }
            case .number, .int:
                members.append(("type", type(parameter.type == .int ? "integer" : "number")))
                if let minimum = parameter.minimum { members.append(("minimum", .number(minimum))) }
                if let maximum = parameter.maximum { members.append(("maximum", .number(maximum))) }
            case .bool:
                members.append(("type", type("boolean")))
            }
            if let description = parameter.description { members.append(("description", .string(description))) }
            properties.append((parameter.name, .object(members)))
        }
        var object: [(String, JSONValue)] = [("type", type("object")), ("properties", .object(properties))]
        let required = tool.parameters.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { object.append(("required", .array(required))) }
        if !upperCase { object.append(("additionalProperties", .bool(false))) }
        return .object(object)
    }
}
