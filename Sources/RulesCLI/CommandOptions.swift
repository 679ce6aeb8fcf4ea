import RulesSimulator

/// A command's options as typed properties, in the manner of swift-argument-parser's
/// `ParsableCommand`: each property is declared once, with the option that sets it
/// (`fields`), and the command's usage line, help and reference page are written from those
/// declarations. Reading goes parse (`ArgumentReader`: names, values of a fixed set, repeats)
/// → convert (`init(_:)`: each value as its property's type) → validate and run (the
/// command's own `run(_:_:)` on the typed value) → render.
///
/// Adding an option is a property and its field, in the command's file.
protocol CommandOptions {
    init()
    /// Each option with the property it sets, in the order help lists them.
    static var fields: [OptionField<Self>] { get }
    /// The positional arguments, as given.
    var positional: [String] { get set }
}

extension CommandOptions {
    /// The options' declarations, for the reader, the usage line and help.
    static var specs: [OptionSpec] { fields.map(\.spec) }

    /// The options as read: every property whose option was given set from its values.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.init()
        positional = parsed.positional
        for field in Self.fields {
            if let values = parsed.values[field.spec.name] {
                try field.read(&self, values)
            } else if field.spec.valueName == nil, parsed.has(field.spec.name) {
                try field.read(&self, [])
            }
        }
    }
}

/// One option and the property of `Options` it sets.
struct OptionField<Options> {
    var spec: OptionSpec
    /// Sets the property from the option's values as given (a flag: none); called only when
    /// the option was given.
    var read: (inout Options, [String]) throws(UsageError) -> Void

    /// `--name VALUE`: the last value, as the property's type; the values a fixed set allows
    /// come from the type (an enum's cases) unless the declaration lists them.
    static func option<Value: ArgumentValue>(_ property: WritableKeyPath<Options, Value?>, _ spec: OptionSpec) -> Self {
        let spec = withAllowed(spec, Value.self)
        return Self(spec: spec) { options, values throws(UsageError) in
            guard let text = values.last else { return }
            options[keyPath: property] = try Value(argument: text, option: spec.name)
        }
    }

    /// `--name VALUE` for a property with a default, which the value replaces.
    static func option<Value: ArgumentValue>(_ property: WritableKeyPath<Options, Value>, _ spec: OptionSpec) -> Self {
        let spec = withAllowed(spec, Value.self)
        return Self(spec: spec) { options, values throws(UsageError) in
            guard let text = values.last else { return }
            options[keyPath: property] = try Value(argument: text, option: spec.name)
        }
    }

    /// `--name VALUE`, converted by `convert`, which says in its usage error why a value is
    /// not one (`--interval takes seconds from 0.05 to 60`).
    static func option<Value>(
        _ property: WritableKeyPath<Options, Value>, _ spec: OptionSpec, as convert: @escaping (String) throws(UsageError) -> Value
    ) -> Self {
        Self(spec: spec) { options, values throws(UsageError) in
            guard let text = values.last else { return }
            options[keyPath: property] = try convert(text)
        }
    }

    /// `--name N`: a whole number within `range` (said as such when it is not one).
    static func number(_ property: WritableKeyPath<Options, Int?>, in range: ClosedRange<Int>, _ spec: OptionSpec) -> Self {
        Self(spec: spec) { options, values throws(UsageError) in
            guard let text = values.last else { return }
            guard let value = Int(text), range.contains(value) else {
                throw UsageError(message: "\(spec.name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            options[keyPath: property] = value
        }
    }

    /// `--name VALUE…`: every value, in order (the option may be given several times).
    static func repeated(_ property: WritableKeyPath<Options, [String]>, _ spec: OptionSpec) -> Self {
        var spec = spec
        spec.repeatable = true
        return Self(spec: spec) { options, values in options[keyPath: property] = values }
    }

    /// `--name VALUE…` for a property that is nil unless the option is given.
    static func repeated(_ property: WritableKeyPath<Options, [String]?>, _ spec: OptionSpec) -> Self {
        var spec = spec
        spec.repeatable = true
        return Self(spec: spec) { options, values in options[keyPath: property] = values }
    }

    /// `--name`: true when given.
    static func flag(_ property: WritableKeyPath<Options, Bool>, _ spec: OptionSpec) -> Self {
        Self(spec: spec) { options, _ in options[keyPath: property] = true }
    }

    private static func withAllowed<Value: ArgumentValue>(_ spec: OptionSpec, _: Value.Type) -> OptionSpec {
        var spec = spec
        if spec.allowed.isEmpty { spec.allowed = Value.allowedValues }
        return spec
    }
}

/// A type an option's value is read as.
protocol ArgumentValue {
    /// The values it can take, when it is one of a fixed set (listed in help, checked by the
    /// reader); empty otherwise.
    static var allowedValues: [String] { get }
    /// The value written `argument` for the option `option`, or a usage error saying why not.
    init(argument: String, option: String) throws(UsageError)
}

extension ArgumentValue {
    static var allowedValues: [String] { [] }
}

extension String: ArgumentValue {
    init(argument: String, option: String) { self = argument }
}

/// An enum of string cases is an option's fixed set of values, in the order of its cases.
extension ArgumentValue where Self: CaseIterable & RawRepresentable, RawValue == String {
    static var allowedValues: [String] { allCases.map(\.rawValue) }

    init(argument: String, option: String) throws(UsageError) {
        guard let value = Self(rawValue: argument) else {
            throw UsageError(message: "'\(argument)' is not a valid value for '\(option)'")
        }
        self = value
    }
}

extension ReportFormat: ArgumentValue {}

/// The options of a command that takes none.
struct NoOptions: CommandOptions {
    var positional: [String] = []
    static var fields: [OptionField<Self>] { [] }
}
