/// SARIF 2.1.0 output for GitHub code scanning: one run whose driver carries the catalogue
/// of every code that can be reported (`rules`), and one result per diagnostic pointing at a
/// region. Columns are Unicode code points (`columnKind: unicodeCodePoints`), our unit.
public struct SARIFRenderer: Sendable {
    public var toolName: String
    public var toolVersion: String
    public var informationURI: String
    /// Every code the tool can report, in catalogue order; codes met in the diagnostics but
    /// missing here are appended with their code as description.
    public var catalogue: [CodeDescription]

    public init(toolName: String, toolVersion: String, informationURI: String, catalogue: [CodeDescription]) {
        self.toolName = toolName
        self.toolVersion = toolVersion
        self.informationURI = informationURI
        self.catalogue = catalogue
    }

    public func render(_ diagnostics: [Diagnostic]) -> String {
        var rules = catalogue
        var known = Set(rules.map(\.code))
        for d in diagnostics where !known.contains(d.code) {
            known.insert(d.code)
            rules.append(CodeDescription(code: d.code, severity: d.severity, summary: d.code.rawValue, rationale: ""))
        }
        var ruleIndex: [DiagnosticCode: Int] = [:]
        for (index, rule) in rules.enumerated() { ruleIndex[rule.code] = index }
        let driver: JSONValue = .object([
            ("name", .string(toolName)),
            ("version", .string(toolVersion)),
            ("informationUri", .string(informationURI)),
            ("rules", .array(rules.map(ruleObject))),
        ])
        let run: JSONValue = .object([
            ("tool", .object([("driver", driver)])),
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(diagnostics.map { result($0, ruleIndex: ruleIndex[$0.code] ?? 0) })),
        ])
        let log: JSONValue = .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ])
        return log.prettyRendered() + "\n"
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    private func ruleObject(_ rule: CodeDescription) -> JSONValue {
        .object([
            ("id", .string(rule.code.rawValue)),
            ("name", .string(SARIFRenderer.pascalName(rule.code))),
            ("shortDescription", .object([("text", .string(rule.summary))])),
            ("fullDescription", .object([("text", .string(rule.rationale.isEmpty ? rule.summary : rule.rationale))])),
            ("help", .object([("text", .string("rules check --explain \(rule.code.rawValue)"))])),
            ("defaultConfiguration", .object([("level", .string(SARIFRenderer.level(rule.severity)))])),
        ])
    }

    private func result(_ d: Diagnostic, ruleIndex: Int) -> JSONValue {
        var region: [(String, JSONValue)] = [
            ("startLine", .int(d.location.line)),
            ("startColumn", .int(d.location.column)),
        ]
        if let end = d.end {
            region.append(("endLine", .int(end.line)))
            region.append(("endColumn", .int(end.column)))
        }
        var text = d.message
        if let hint = d.hint { text += " (help: \(hint))" }
        return .object([
            ("ruleId", .string(d.code.rawValue)),
            ("ruleIndex", .int(ruleIndex)),
            ("level", .string(SARIFRenderer.level(d.severity))),
            ("message", .object([("text", .string(text))])),
            (
                "locations",
                .array([
                    .object([
                        (
                            "physicalLocation",
                            .object([
                                (
                                    "artifactLocation",
                                    .object([("uri", .string(d.file)), ("uriBaseId", .string("%SRCROOT%"))])
                                ),
                                ("region", .object(region)),
                            ])
                        )
                    ])
                ])
            ),
        ])
    }

    /// `yaml.duplicate_key` → `YamlDuplicateKey` (SARIF's `name` is an identifier).
    static func pascalName(_ code: DiagnosticCode) -> String {
        code.rawValue.split(whereSeparator: { $0 == "." || $0 == "_" })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
